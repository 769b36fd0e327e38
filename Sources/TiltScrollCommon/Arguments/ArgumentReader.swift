/// A command line that cannot be understood; the message says why.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }

    public init(message: String) { self.message = message }
}

/// Reads a command line of flags (`--name`, `--name VALUE`, `--name=VALUE`,
/// `-x`) and words, the way both programs take theirs.
public struct ArgumentReader {
    private let arguments: [String]
    private var index = 0
    /// The value given as `--name=VALUE` with the flag just read.
    private var inlineValue: String?
    /// The flag just read.
    private var flag = ""

    public init(_ arguments: [String]) { self.arguments = arguments }

    /// The next word when it is not a flag; nil otherwise (or at the end).
    public mutating func nextWord() -> String? {
        guard index < arguments.count, !arguments[index].hasPrefix("-") || arguments[index] == "-" else {
            return nil
        }
        index += 1
        return arguments[index - 1]
    }

    /// The next flag, without its `=VALUE`; nil at the end. A word where a
    /// flag should be is an error.
    public mutating func nextFlag() throws(UsageError) -> String? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        guard argument.hasPrefix("-"), argument != "-" else {
            throw UsageError(message: "unexpected argument '\(argument)'")
        }
        inlineValue = nil
        flag = argument
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            flag = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        return flag
    }

    /// The value of the flag just read: after `=`, or the next argument.
    public mutating func value() throws(UsageError) -> String {
        if let inlineValue {
            guard !inlineValue.isEmpty else { throw UsageError(message: "\(flag) needs a value") }
            return inlineValue
        }
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
            throw UsageError(message: "\(flag) needs a value")
        }
        index += 1
        return arguments[index - 1]
    }

    /// Fails when the flag just read came with `=VALUE`.
    public func noValue() throws(UsageError) {
        if inlineValue != nil { throw UsageError(message: "\(flag) takes no value") }
    }

    /// The error for the flag just read when it is none of `flags`: with the
    /// nearest of them when it looks like a typo, or `hint`.
    public func unknown(among flags: [String], hint: String? = nil) -> UsageError {
        let suggestion =
            hint ?? NearestName.nearest(to: flag, among: flags).map { " (did you mean \($0)?)" } ?? ""
        let shown = inlineValue.map { "\(flag)=\($0)" } ?? flag
        return UsageError(message: "unknown option '\(shown)'\(suggestion)")
    }
}
