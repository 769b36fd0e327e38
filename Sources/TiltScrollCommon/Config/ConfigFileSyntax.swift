/// One meaningful line of a configuration file.
public struct ConfigStatement: Equatable {
    public enum Content: Equatable {
        /// `[Name]`.
        case section(String)
        /// `Key=value`, both trimmed.
        case assignment(key: String, value: String)
        /// A line that cannot be read, and why. `startsSection`: it looked
        /// like a section header, so the keys after it belong to no section
        /// that is known (and are not reported as misplaced).
        case unreadable(String, startsSection: Bool)
    }

    /// 1-based line number.
    public var line: Int
    public var content: Content
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
public enum ConfigFileSyntax {
    /// Larger files are refused: a configuration is a few hundred bytes, and
    /// the cap keeps a wrong path (a log, a disk image) from being slurped.
    public static let maximumFileSize = 64 * 1024

    /// The statements of every line, in order; a line that cannot be read
    /// is an `.unreadable` statement, so that every problem can be reported.
    /// A file too large to be a configuration is refused as a whole.
    public static func statements(of bytes: [UInt8], file: String) throws(ConfigError) -> [ConfigStatement] {
        guard bytes.count <= maximumFileSize else {
            throw ConfigError(
                file: file, line: nil,
                message: "the file is larger than \(maximumFileSize) bytes; this is not a tiltscroll configuration")
        }
        var statements: [ConfigStatement] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let lineBytes = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            let content: ConfigStatement.Content
            let looksLikeHeader = lineBytes.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: "[")
            if lineBytes.contains(0) {
                content = .unreadable("the line contains a NUL byte", startsSection: looksLikeHeader)
            } else if let text = String(validating: lineBytes, as: UTF8.self) {
                let line = trimmed(text)
                if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
                do {
                    content = try parseLine(line)
                } catch {
                    content = .unreadable(error.message, startsSection: looksLikeHeader)
                }
            } else {
                content = .unreadable("the line is not valid UTF-8 text", startsSection: looksLikeHeader)
            }
            statements.append(ConfigStatement(line: lineNumber, content: content))
        }
        return statements
    }

    public struct Problem: Error { var message: String }

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
    public static func trimmed(_ text: some StringProtocol) -> Substring {
        var s = Substring(text)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }

    /// User text quoted in a message, shortened so one bad line cannot flood
    /// the journal.
    public static func shown(_ text: some StringProtocol, limit: Int = 80) -> String {
        text.count <= limit ? String(text) : String(text.prefix(limit)) + "..."
    }
}
