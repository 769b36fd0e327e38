/// Strict, locale-independent parsing of the decimal numbers found in sysfs
/// attributes, udev properties and configuration files.
///
/// Swift's `Double(String)` also accepts "nan", "inf" and hexadecimal floats;
/// none of those is a valid scale, offset, matrix entry or setting, so this
/// parser takes only an optional sign, digits, an optional fraction and an
/// optional decimal exponent ("-0.009582", "1e-3", "+12").
public enum DecimalNumber {
    /// The value of `text` (surrounding spaces and tabs ignored), or nil when
    /// it is not a finite decimal number.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        let trimmed = trimmed(text)
        guard !trimmed.isEmpty, isDecimalShape(Array(trimmed.utf8)) else { return nil }
        guard let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// The value of `text` as an integer, or nil when it is not a plain
    /// optionally signed decimal integer that fits in 64 bits.
    public static func parseInteger<S: StringProtocol>(_ text: S) -> Int64? {
        let s = trimmed(text)
        var digits = s.utf8[...]
        if let first = digits.first, first == 0x2B || first == 0x2D { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(s.hasPrefix("+") ? s.dropFirst() : s)
    }

    /// `text` without surrounding spaces, tabs and line ends.
    static func trimmed<S: StringProtocol>(_ text: S) -> Substring {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r" { s = s.dropLast() }
        return s
    }

    private static func isDecimalShape(_ bytes: [UInt8]) -> Bool {
        var i = bytes.startIndex
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if i < bytes.endIndex, bytes[i] == 0x2B || bytes[i] == 0x2D { i = bytes.index(after: i) }
        var mantissaDigits = 0
        while i < bytes.endIndex, isDigit(bytes[i]) {
            mantissaDigits += 1
            i = bytes.index(after: i)
        }
        if i < bytes.endIndex, bytes[i] == 0x2E {
            i = bytes.index(after: i)
            while i < bytes.endIndex, isDigit(bytes[i]) {
                mantissaDigits += 1
                i = bytes.index(after: i)
            }
        }
        guard mantissaDigits > 0 else { return false }
        if i < bytes.endIndex, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i = bytes.index(after: i)
            if i < bytes.endIndex, bytes[i] == 0x2B || bytes[i] == 0x2D { i = bytes.index(after: i) }
            var exponentDigits = 0
            while i < bytes.endIndex, isDigit(bytes[i]) {
                exponentDigits += 1
                i = bytes.index(after: i)
            }
            guard exponentDigits > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}
