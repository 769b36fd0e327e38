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
        var copy = String(text)
        return copy.withUTF8 { parseInteger(ascii: UnsafeRawBufferPointer($0)) }
    }

    /// The same over raw bytes, such as a sysfs attribute just read: the
    /// poll loop parses three of these per sample, so no string is made.
    /// Spaces and tabs around the number and line ends after it are allowed.
    public static func parseInteger(ascii bytes: UnsafeRawBufferPointer) -> Int64? {
        var i = 0
        let n = bytes.count
        while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        var negative = false
        if i < n, bytes[i] == 0x2B || bytes[i] == 0x2D {
            negative = bytes[i] == 0x2D
            i += 1
        }
        let firstDigit = i
        // Accumulated as a negative number, whose range includes Int64.min.
        var value: Int64 = 0
        while i < n, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(bytes[i] &- 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = next
            i += 1
        }
        guard i > firstDigit else { return nil }
        while i < n, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        guard i == n else { return nil }
        if negative { return value }
        return value == Int64.min ? nil : -value
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
