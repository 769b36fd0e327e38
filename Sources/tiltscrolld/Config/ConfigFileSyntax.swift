/// One meaningful line of a configuration file.
struct ConfigStatement: Equatable {
    enum Content: Equatable {
        /// `[Name]`.
        case section(String)
        /// `Key=value`, both trimmed.
        case assignment(key: String, value: String)
    }

    /// 1-based line number.
    var line: Int
    var content: Content
}

/// The INI syntax systemd uses for its own configuration files, split into
/// statements; what the keys mean is `Configuration`'s business.
///
/// - Lines end with `\n` (a `\r` before it is dropped); spaces and tabs
///   around a line, a key and a value are ignored.
/// - Blank lines and lines starting with `#` or `;` are comments. A comment
///   must be on a line of its own: `Speed=5 # fast` has the value `5 # fast`.
/// - `[Section]` starts a section; `Key=value` splits at the first `=`, so a
///   value may contain `=`.
/// - No line continuations and no quoting: values are taken as written.
enum ConfigFileSyntax {
    /// Larger files are refused: a configuration is a few hundred bytes, and
    /// the cap keeps a wrong path (a log, a disk image) from being slurped.
    static let maximumFileSize = 64 * 1024

    static func statements(of bytes: [UInt8], file: String) throws(ConfigError) -> [ConfigStatement] {
        guard bytes.count <= maximumFileSize else {
            throw ConfigError(
                file: file, line: nil,
                message: "the file is larger than \(maximumFileSize) bytes; this is not a tiltscroll configuration")
        }
        var statements: [ConfigStatement] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let fail = { (message: String) in ConfigError(file: file, line: lineNumber, message: message) }
            let lineBytes = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            if lineBytes.contains(0) { throw fail("the line contains a NUL byte") }
            guard let text = String(validating: lineBytes, as: UTF8.self) else {
                throw fail("the line is not valid UTF-8 text")
            }
            let line = trimmed(text)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            do {
                statements.append(ConfigStatement(line: lineNumber, content: try parseLine(line)))
            } catch {
                throw fail(error.message)
            }
        }
        return statements
    }

    struct Problem: Error { var message: String }

    private static func parseLine(_ line: Substring) throws(Problem) -> ConfigStatement.Content {
        if line.hasPrefix("[") {
            guard let close = line.firstIndex(of: "]") else {
                throw Problem(message: "section header '\(shown(line))' is missing its closing ']'")
            }
            let rest = line[line.index(after: close)...]
            guard rest.isEmpty else {
                throw Problem(message: "unexpected text '\(shown(rest))' after the section header '\(line[...close])'")
            }
            let name = trimmed(line[line.index(after: line.startIndex)..<close])
            guard !name.isEmpty else { throw Problem(message: "the section header '[]' has no name") }
            return .section(String(name))
        }
        guard let equals = line.firstIndex(of: "=") else {
            throw Problem(message: "expected 'Key=value' or '[Section]', got '\(shown(line))'")
        }
        let key = trimmed(line[..<equals])
        guard !key.isEmpty else {
            throw Problem(message: "missing key name before '=' in '\(shown(line))'")
        }
        return .assignment(key: String(key), value: String(trimmed(line[line.index(after: equals)...])))
    }

    /// `text` without surrounding spaces and tabs.
    static func trimmed(_ text: some StringProtocol) -> Substring {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }

    /// User text quoted in a message, shortened so one bad line cannot flood
    /// the journal.
    static func shown(_ text: some StringProtocol, limit: Int = 80) -> String {
        text.count <= limit ? String(text) : String(text.prefix(limit)) + "..."
    }
}
