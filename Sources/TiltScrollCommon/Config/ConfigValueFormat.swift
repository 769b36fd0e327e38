/// Values as the configuration file writes them: the parsing side reports what
/// was expected, the writing side produces text that parses back to the same
/// value.
public enum ConfigValueFormat {
    /// systemd's `parse_boolean` words, compared without case.
    public static let trueWords: Set<String> = ["1", "yes", "y", "true", "t", "on"]
    public static let falseWords: Set<String> = ["0", "no", "n", "false", "f", "off"]

    public static func parseBoolean(_ text: String) -> Bool? {
        let word = text.lowercased()
        if trueWords.contains(word) { return true }
        if falseWords.contains(word) { return false }
        return nil
    }

    public static func format(_ value: Bool) -> String { value ? "yes" : "no" }

    /// Whole numbers without a fraction ("12"), others in Swift's shortest
    /// form that reads back exactly ("0.02", "1e-05"); `DecimalNumber.parse`
    /// accepts both.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}

/// The allowed values of a numeric key: an interval with each end included or not.
public struct NumberRange: Sendable {
    public var lower: Double
    public var includesLower: Bool
    public var upper: Double
    public var includesUpper: Bool

    /// The range a setting accepts, as the physics declares it.
    public static func closed(_ range: ClosedRange<Double>) -> NumberRange {
        from(range.lowerBound, through: range.upperBound)
    }

    /// lower <= x <= upper.
    public static func from(_ lower: Double, through upper: Double) -> NumberRange {
        NumberRange(lower: lower, includesLower: true, upper: upper, includesUpper: true)
    }

    /// lower < x <= upper.
    public static func above(_ lower: Double, through upper: Double) -> NumberRange {
        NumberRange(lower: lower, includesLower: false, upper: upper, includesUpper: true)
    }

    /// lower <= x < upper.
    public static func from(_ lower: Double, below upper: Double) -> NumberRange {
        NumberRange(lower: lower, includesLower: true, upper: upper, includesUpper: false)
    }

    public func contains(_ value: Double) -> Bool {
        (includesLower ? value >= lower : value > lower) && (includesUpper ? value <= upper : value < upper)
    }

    /// "a number between 0 and 1000".
    public var phrase: String {
        "a number between \(ConfigValueFormat.format(lower)) and \(ConfigValueFormat.format(upper))"
    }

    /// For the rendered file's comments: "0 < x <= 1000".
    public var interval: String {
        "\(ConfigValueFormat.format(lower)) \(includesLower ? "<=" : "<") x \(includesUpper ? "<=" : "<") "
            + ConfigValueFormat.format(upper)
    }

    /// Why `value` (a number outside the range) is refused, when "between"
    /// alone would leave it unclear: an excluded end.
    public func boundaryNote(for value: Double) -> String? {
        if value == lower && !includesLower || value == upper && !includesUpper {
            return "\(ConfigValueFormat.format(value)) itself is not allowed"
        }
        return nil
    }
}
