/// Text from outside the program made safe to show: in a terminal, the
/// journal, `systemctl status`, a D-Bus property. Names, labels, paths and
/// attribute contents come from drivers, firmware tables and USB devices;
/// written raw, an `ESC [2J` in one clears the user's screen and an OSC
/// sequence retitles the window. This is the one place that decides how
/// such text is shown; `DeviceText` uses it for every string interpolation
/// of a device's strings, and `Log` and the systemd status pass every line
/// through it once more.
///
/// What comes out:
/// - printable ASCII (0x20-0x7E) as it is, backslash included: the result
///   is for reading, not for parsing back (`DeviceText` keeps the bytes for
///   matching);
/// - every other printable character of well-formed UTF-8 as it is
///   (`ä`, `°`, CJK, emoji);
/// - `\xNN` (two lowercase hex digits) for each byte of anything else: C0
///   controls (below 0x20, newline and tab included: a device string is one
///   line) and DEL; C1 controls (U+0080-U+009F, among them CSI and OSC,
///   which terminals in UTF-8 mode may obey); format characters
///   (bidirectional overrides and isolates, zero-width characters, the
///   byte-order mark), which make text display other than it reads; the
///   line and paragraph separators U+2028 and U+2029; and every byte that
///   is not part of well-formed UTF-8;
/// - at most `limit` bytes: a longer result is cut after a whole character
///   or a whole escape and ends in `…`.
///
/// The result is well-formed UTF-8 with no control characters, so escaping
/// it again changes nothing (at the same or a larger limit): text built from
/// escaped parts can go through a last escape where it leaves the process
/// without being escaped twice.
public enum DisplayEscaping {
    /// The most bytes one device string (a name, a path, an attribute's
    /// contents) takes when shown. Real ones are far shorter: an IIO name
    /// is a few dozen bytes, a sysfs path a hundred or two, an input
    /// device's name at most 128 (hid's buffer).
    public static let fieldLimit = 256
    /// The most bytes one line of a message takes when shown: an error, a
    /// log line, the systemd status.
    public static let lineLimit = 4096

    /// What ends a cut text.
    public static let ellipsis = "…"
    private static let ellipsisBytes = Array(ellipsis.utf8)

    /// `text` as it may be shown (see the type's description), in at most
    /// `limit` bytes (no less than the ellipsis takes).
    public static func escape(_ text: String, limit: Int = fieldLimit) -> String {
        var text = text
        return text.withUTF8 { escape(utf8: $0, limit: limit) }
    }

    /// `bytes` as they may be shown, in at most `limit` bytes: well-formed
    /// UTF-8 as text, every other byte escaped.
    public static func escape(bytes: [UInt8], limit: Int = fieldLimit) -> String {
        bytes.withUnsafeBufferPointer { escape(utf8: $0, limit: limit) }
    }

    private static func escape(utf8 input: UnsafeBufferPointer<UInt8>, limit: Int) -> String {
        let limit = max(limit, ellipsisBytes.count)
        if input.count <= limit, input.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return String(decoding: input, as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, input.count))
        // Where to cut when the result turns out too long: the end of the
        // last whole piece that leaves room for the ellipsis.
        var cut = 0
        var index = 0
        while index < input.count {
            let decoded = scalar(in: input, at: index)
            let piece = input[index..<index + (decoded?.length ?? 1)]
            if let decoded, isShown(decoded.scalar) {
                output.append(contentsOf: piece)
            } else {
                for byte in piece { appendEscape(byte, to: &output) }
            }
            index = piece.endIndex
            if output.count > limit {
                output.removeSubrange(cut...)
                output.append(contentsOf: ellipsisBytes)
                break
            }
            if output.count <= limit - ellipsisBytes.count { cut = output.count }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether a character is shown as it is.
    public static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20..<0x7F: return true
        case 0..<0x20, 0x7F...0x9F: return false
        default:
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return false
            default: return true
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `\xNN`.
    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(ascii: "x"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0xF)])
    }

    /// The character whose UTF-8 encoding starts at `index`, and its length
    /// in bytes; nil where the bytes there are not well-formed UTF-8 (an
    /// overlong form, a surrogate, beyond U+10FFFF, a stray or missing
    /// continuation byte: the Unicode standard's table 3-7).
    public static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (
        scalar: Unicode.Scalar, length: Int
    )? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        // The range of the second byte; later ones are always 0x80-0xBF.
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: (length, value) = (2, UInt32(lead & 0x1F))
        case 0xE0: (length, value, second) = (3, UInt32(lead & 0x0F), 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, value) = (3, UInt32(lead & 0x0F))
        case 0xED: (length, value, second) = (3, UInt32(lead & 0x0F), 0x80...0x9F)
        case 0xF0: (length, value, second) = (4, UInt32(lead & 0x07), 0x90...0xBF)
        case 0xF1...0xF3: (length, value) = (4, UInt32(lead & 0x07))
        case 0xF4: (length, value, second) = (4, UInt32(lead & 0x07), 0x80...0x8F)
        default: return nil
        }
        guard length <= bytes.count - index else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
