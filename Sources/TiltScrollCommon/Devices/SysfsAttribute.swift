/// Reading and writing one sysfs attribute as text, the way the kernel's
/// attribute files expect: one read of at most a page, one write of the
/// whole value. Attributes are opened, used and closed; the hot path (raw
/// values, the buffer) keeps its own descriptors instead.
public enum SysfsAttribute {
    /// The most a sysfs attribute can hold (one page).
    public static let maximumSize = 4096

    /// The attribute's text without its trailing newline and spaces, as
    /// the driver wrote it (escaped when shown).
    public static func read(_ path: String) throws(SystemError) -> DeviceText {
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer { descriptor.close() }
        var bytes = [UInt8](repeating: 0, count: maximumSize)
        let count: Int
        do {
            count = try descriptor.read(into: &bytes)
        } catch {
            throw error.during("read \(path)")
        }
        return DeviceText(bytes: bytes[..<count]).trimmed
    }

    /// Writes `value` followed by a newline, as `echo value > path` would.
    /// The file is opened with `O_TRUNC` like a shell redirection: sysfs
    /// ignores it, and a plain file (a test tree) then holds exactly `value`.
    public static func write(_ path: String, _ value: String) throws(SystemError) {
        let descriptor = try FileDescriptor.open(path, [.writeOnly, .truncate])
        defer { descriptor.close() }
        let bytes = Array((value + "\n").utf8)
        do {
            try descriptor.writeAttribute(bytes)
        } catch {
            throw error.during("write '\(value)' to \(path)")
        }
    }

    /// `text` without surrounding whitespace and line ends, nor a trailing
    /// NUL (`DeviceText.trimmed`).
    public static func trimmed(_ text: String) -> String { DeviceText(text).trimmed.unescaped }
}

/// The attributes of one IIO device directory, by name relative to it.
public struct DeviceDirectory: Equatable {
    /// Absolute sysfs path of the device, e.g. `/sys/devices/.../iio:device0`.
    public var path: String

    public func attributePath(_ name: String) -> String { path + "/" + name }

    public func has(_ name: String) -> Bool { FileSystem.exists(attributePath(name)) }

    /// The attribute's text, or a `CaptureError` naming its path.
    public func read(_ name: String) throws(CaptureError) -> DeviceText {
        do {
            return try SysfsAttribute.read(attributePath(name))
        } catch {
            throw .system(error, doing: "read \(attributePath(name))")
        }
    }

    /// The attribute's text, or nil when the device does not have it.
    public func readIfPresent(_ name: String) throws(CaptureError) -> DeviceText? {
        guard has(name) else { return nil }
        return try read(name)
    }

    /// The first of `names` the device has, with its text: how every
    /// "per-axis, else shared, else generic" attribute lookup is done.
    public func firstPresent(_ names: [String]) throws(CaptureError) -> (name: String, text: DeviceText)? {
        guard let name = names.first(where: has) else { return nil }
        return (name: name, text: try read(name))
    }

    public init(path: String) {
        self.path = path
    }
}
