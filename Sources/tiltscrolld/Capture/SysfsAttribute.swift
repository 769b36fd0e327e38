/// Reading and writing one sysfs attribute as text, the way the kernel's
/// attribute files expect: one read of at most a page, one write of the
/// whole value. Attributes are opened, used and closed; the hot path (raw
/// values, the buffer) keeps its own descriptors instead.
enum SysfsAttribute {
    /// The most a sysfs attribute can hold (one page).
    static let maximumSize = 4096

    /// The attribute's text without its trailing newline and spaces.
    static func read(_ path: String) -> Result<String, SystemError> {
        let descriptor: FileDescriptor
        switch FileDescriptor.open(path, .readOnly) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(error)
        }
        defer { descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: maximumSize)
        let count: Int
        switch bytes.withUnsafeMutableBytes({ descriptor.read(into: $0) }) {
        case .success(let read): count = read
        case .failure(let error): return .failure(SystemError(code: error.code, operation: "read \(path)"))
        }
        return .success(trimmed(String(decoding: bytes[..<count], as: UTF8.self)))
    }

    /// Writes `value` followed by a newline, as `echo value > path` would.
    /// The file is opened with `O_TRUNC` like a shell redirection: sysfs
    /// ignores it, and a plain file (a test tree) then holds exactly `value`.
    static func write(_ path: String, _ value: String) -> Result<Void, SystemError> {
        let descriptor: FileDescriptor
        switch FileDescriptor.open(path, [.writeOnly, .truncate]) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(error)
        }
        defer { descriptor.close() }
        let bytes = Array((value + "\n").utf8)
        return bytes.withUnsafeBytes { descriptor.writeAttribute($0) }.mapError {
            SystemError(code: $0.code, operation: "write '\(value)' to \(path)")
        }
    }

    /// `text` without surrounding whitespace and line ends.
    ///
    /// A trailing NUL is dropped too: some attributes end with one (6.1's
    /// `current_timestamp_clock` reads "realtime\n\0").
    static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\0" { s = s.dropLast() }
        return String(s)
    }
}

/// The attributes of one IIO device directory, by name relative to it.
struct DeviceDirectory: Equatable {
    /// Absolute sysfs path of the device, e.g. `/sys/devices/.../iio:device0`.
    var path: String

    func attributePath(_ name: String) -> String { path + "/" + name }

    func has(_ name: String) -> Bool { FileSystem.exists(attributePath(name)) }

    /// The attribute's text, or a `CaptureError` naming its path.
    func read(_ name: String) -> Result<String, CaptureError> {
        SysfsAttribute.read(attributePath(name)).mapError {
            CaptureError.system($0, doing: "read \(attributePath(name))")
        }
    }

    /// The attribute's text, or nil when the device does not have it.
    func readIfPresent(_ name: String) -> Result<String?, CaptureError> {
        guard has(name) else { return .success(nil) }
        return read(name).map { Optional($0) }
    }

    /// The first of `names` the device has, with its text: how every
    /// "per-axis, else shared, else generic" attribute lookup is done.
    func firstPresent(_ names: [String]) -> Result<(name: String, text: String)?, CaptureError> {
        for name in names where has(name) {
            return read(name).map { (name: name, text: $0) }
        }
        return .success(nil)
    }
}
