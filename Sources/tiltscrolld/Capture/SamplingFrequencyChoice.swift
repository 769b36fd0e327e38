import ScrollPhysics
import TiltScrollCommon

/// The values a device's `*_sampling_frequency_available` attribute allows,
/// in either form the kernel prints: a list (`1 10 25 50 100 200 400`,
/// `0.781000 1.563000 ... 1600`) or a range `[min step max]`.
enum AvailableFrequencies: Equatable {
    /// The values as printed, so the exact text can be written back
    /// (st_accel parses the value with kstrtoint: "10" works, "10.0" does not).
    case list([FrequencyValue])
    case range(minimum: Double, step: Double, maximum: Double)

    /// Parses the attribute's text; nil when it is neither form (the caller
    /// then treats the device as having no list).
    static func parse(_ text: String) -> AvailableFrequencies? {
        let trimmed = SysfsAttribute.trimmed(text)
        if trimmed.hasPrefix("[") {
            guard trimmed.hasSuffix("]") else { return nil }
            let inner = trimmed.dropFirst().dropLast()
            let parts = inner.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 3, let minimum = DecimalNumber.parse(parts[0]),
                let step = DecimalNumber.parse(parts[1]), let maximum = DecimalNumber.parse(parts[2]),
                minimum >= 0, step >= 0, maximum >= minimum
            else { return nil }
            return .range(minimum: minimum, step: step, maximum: maximum)
        }
        var values: [FrequencyValue] = []
        for token in trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            guard let value = DecimalNumber.parse(token), value >= 0 else { return nil }
            values.append(FrequencyValue(value: value, text: String(token)))
        }
        guard !values.isEmpty else { return nil }
        return .list(values)
    }
}

/// A sampling frequency and the text to write for it.
struct FrequencyValue: Equatable {
    var value: Double
    var text: String

    init(value: Double, text: String) {
        self.value = value
        self.text = text
    }

    /// A value to write when there is no printed text to reuse: an integer
    /// when whole (what every driver accepts), else a plain decimal.
    init(value: Double) {
        self.value = value
        self.text = FrequencyValue.plainText(value)
    }

    static func plainText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let micro = Int64((value * 1_000_000).rounded())
        let whole = micro / 1_000_000
        var fraction = String(abs(micro % 1_000_000))
        while fraction.count < 6 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}

enum SamplingFrequencyChoice {
    /// What to write so the device samples at least `wanted` times a second,
    /// or nil to leave it alone (it is already fast enough, or nothing
    /// available is faster than what it does now).
    ///
    /// From a list: the lowest value at or above `wanted`, else the highest.
    /// From a range: the lowest step at or above `wanted`, else the maximum.
    /// Without either: `wanted` itself (HID sensor hubs take any rate).
    static func choose(current: Double, wanted: Double, available: AvailableFrequencies?) -> FrequencyValue? {
        guard current < wanted, let choice = atLeast(wanted, available: available) else { return nil }
        return choice.value > current ? choice : nil
    }

    /// The lowest value `available` allows at or above `wanted`, else the
    /// highest it allows; `wanted` itself without a list or range (HID
    /// sensor hubs take any rate). nil only for an empty list.
    static func atLeast(_ wanted: Double, available: AvailableFrequencies?) -> FrequencyValue? {
        switch available {
        case .list(let values)?:
            let sorted = values.sorted { $0.value < $1.value }
            guard let highest = sorted.last else { return nil }
            return sorted.first { $0.value >= wanted } ?? highest
        case .range(let minimum, let step, let maximum)?:
            if wanted <= minimum { return FrequencyValue(value: minimum) }
            if step > 0 {
                let steps = ((wanted - minimum) / step).rounded(.up)
                return FrequencyValue(value: min(minimum + steps * step, maximum))
            }
            return FrequencyValue(value: min(wanted, maximum))
        case nil:
            return FrequencyValue(value: wanted)
        }
    }

    /// The next value above `current` that `available` allows, or nil when
    /// there is none (or no list to step through).
    static func next(above current: Double, available: AvailableFrequencies?) -> FrequencyValue? {
        switch available {
        case .list(let values)?:
            return values.filter { $0.value > current }.min { $0.value < $1.value }
        case .range(let minimum, let step, let maximum)?:
            guard step > 0 else { return nil }
            let steps = ((current - minimum) / step).rounded(.down) + 1
            let value = max(minimum, minimum + steps * step)
            return value <= maximum && value > current ? FrequencyValue(value: value) : nil
        case nil:
            return nil
        }
    }
}
