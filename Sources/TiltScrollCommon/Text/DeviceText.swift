import Glibc

/// A string the kernel, firmware, udev or a device handed over: an IIO
/// name, label or location, a udev property, a sysfs path or device node,
/// an attribute's contents, a trigger's or an input device's name. None of
/// it comes from the user, and any of it may hold terminal escapes, other
/// control characters, bytes that are not UTF-8, or thousands of
/// characters.
///
/// The bytes are kept as they came, for comparing (`[Device] Name=`, the
/// device a calibration was made on) and for system calls (`unescaped`).
/// Shown, through string interpolation or `description`, it is escaped and
/// bounded (`DisplayEscaping`): a message built as `"Lost \(device.name)"`
/// is safe to print wherever it goes, with nothing to remember at the
/// printing site.
public struct DeviceText: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The bytes as they came, without a terminating NUL.
    public let bytes: [UInt8]

    public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    public init(_ text: String) { bytes = Array(text.utf8) }

    public init(stringLiteral text: String) { self.init(text) }

    /// A copy of the NUL-terminated string at `cString` (as libudev and
    /// libevdev return them).
    public init(cString: UnsafePointer<CChar>) {
        let start = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        bytes = Array(UnsafeBufferPointer(start: start, count: strlen(cString)))
    }

    /// The text as it came, for system calls and for parsing or comparing
    /// with the user's text; bytes that are not UTF-8 become U+FFFD. Never
    /// for output: interpolate the `DeviceText` itself.
    public var unescaped: String { String(decoding: bytes, as: UTF8.self) }

    /// Escaped and bounded to `DisplayEscaping.fieldLimit` bytes: what
    /// string interpolation shows.
    public var description: String { DisplayEscaping.escape(bytes: bytes) }

    public var isEmpty: Bool { bytes.isEmpty }

    public func hasPrefix(_ prefix: String) -> Bool { bytes.starts(with: prefix.utf8) }

    /// This text followed by `suffix`.
    public func appending(_ suffix: String) -> DeviceText { DeviceText(bytes: bytes + Array(suffix.utf8)) }

    /// Whether the user's `text` names this: the same bytes, or the text as
    /// it is shown (a name with control characters is written in a
    /// configuration file as `--list-devices` prints it, escapes and all).
    public func matches(_ text: String) -> Bool {
        bytes.elementsEqual(text.utf8) || description == text
    }

    /// Without the whitespace and line ends around it, nor the NUL some
    /// attribute files end with (6.1's `current_timestamp_clock` reads
    /// "realtime\n\0").
    public var trimmed: DeviceText {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) || last == 0 { slice = slice.dropLast() }
        return slice.count == bytes.count ? self : DeviceText(bytes: slice)
    }
}
