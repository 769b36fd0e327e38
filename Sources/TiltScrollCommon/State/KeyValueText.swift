/// The text of the records the daemon keeps in its state directory (the
/// calibration, the controls): `key=value` lines a person can read, `#`
/// comments and blank lines ignored, every key exactly once and no other.
public enum KeyValueText {
    /// A value and the line it was on.
    public struct Value: Equatable {
        public var line: Int
        public var text: Substring
    }

    /// The value of each of `keys` in `text`.
    public static func values(in text: String, keys: [String]) throws(RecordFormatError) -> [String: Value] {
        var values: [String: Value] = [:]
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = trimmingSpaces(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw RecordFormatError(line: lineNumber, message: "expected key=value, got '\(line)'")
            }
            let key = String(trimmingSpaces(line[..<equals]))
            guard keys.contains(key) else { throw RecordFormatError(line: lineNumber, message: "unknown key '\(key)'") }
            if let first = values[key] {
                throw RecordFormatError(line: lineNumber, message: "'\(key)' given twice (first on line \(first.line))")
            }
            values[key] = Value(line: lineNumber, text: trimmingSpaces(line[line.index(after: equals)...]))
        }
        for key in keys where values[key] == nil { throw RecordFormatError(message: "'\(key)' is missing") }
        return values
    }

    /// The file's text: the comment line, then one line per pair.
    public static func render(comment: String, _ pairs: [(key: String, value: String)]) -> String {
        "# " + comment + "\n" + pairs.map { "\($0.key)=\($0.value)\n" }.joined()
    }

    /// `text` without surrounding spaces, tabs and carriage returns.
    public static func trimmingSpaces<S: StringProtocol>(_ text: S) -> Substring {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return s
    }
}
