/// Fixed-decimal text for numbers, without Foundation: stable, locale-free
/// output for logs, `--replay` and the golden trace files.
public enum FixedPoint {
    /// `value` rounded to `decimals` places (0...9), e.g. "-12.50"; "nan",
    /// "inf" and "-inf" for non-finite values.
    public static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        let places = min(max(decimals, 0), 9)
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e18 else { return String(value) }
        let units = UInt64(scaled)
        let factor = UInt64(scale)
        let whole = units / factor
        var text = (value < 0 && units != 0) ? "-" : ""
        text += String(whole)
        if places > 0 {
            let fraction = String(units % factor)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}
