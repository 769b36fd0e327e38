import ScrollPhysics
import TiltScrollCommon

/// A device's sampling-frequency attribute, and raising it for a capture.
///
/// Some accelerometers sample slower than tilt scrolling needs, or not at
/// all until asked: lis3dh starts at 1 Hz, where every raw read sleeps
/// about two seconds. The rate is raised for the capture and the journal
/// puts the original back when it ends.
struct SamplingFrequency {
    /// The attribute holding the frequency, e.g. `in_accel_sampling_frequency`.
    var attribute: String
    /// The matching `*_available` attribute, if the device has one.
    var availableAttribute: String?

    /// Attribute names in the order they are looked for: the one for the
    /// accelerometer channels (kxcjk-1013, HID) before the device-wide one
    /// (st_accel).
    static let candidates: [(value: String, available: String)] = [
        ("in_accel_sampling_frequency", "in_accel_sampling_frequency_available"),
        ("sampling_frequency", "sampling_frequency_available"),
    ]

    /// Whether the attribute at `path` is a sampling frequency (one of the
    /// candidates): what a failed capture keeps raised for its retry.
    static func isFrequencyAttribute(_ path: String) -> Bool {
        candidates.contains { path.hasSuffix("/" + $0.value) }
    }

    /// How many times `stepUp` is tried at most while opening a capture.
    static let maximumSteps = 8

    /// The device's sampling-frequency attribute, or nil when it has none.
    static func find(in device: DeviceDirectory) -> SamplingFrequency? {
        for candidate in candidates where device.has(candidate.value) {
            return SamplingFrequency(
                attribute: candidate.value,
                availableAttribute: device.has(candidate.available) ? candidate.available : nil)
        }
        return nil
    }

    /// Raises the frequency to at least `rate` when it is lower, recording
    /// the original in `journal`. Returns the frequency the device samples at
    /// afterwards, as it reads back (drivers round), or nil when unknown.
    ///
    /// A device that refuses the new value keeps sampling at its own rate: a
    /// slower capture beats none, and the warning says what happened.
    func raise(to rate: Double, on device: DeviceDirectory, journal: SettingsJournal) throws(CaptureError) -> Double? {
        let state = try read(device)
        guard
            let choice = SamplingFrequencyChoice.choose(current: state.value, wanted: rate, available: state.available)
        else {
            return state.value
        }
        return try set(choice, replacing: state.text, on: device, journal: journal)
    }

    /// Steps the frequency up to the next value its `_available` list
    /// allows, recording the original in `journal`. Returns the frequency
    /// afterwards, or nil when there is no higher value or it was refused.
    ///
    /// For polling drivers whose raw reads wait for fresh conversions
    /// (st_sensors sleeps two sample periods in every read): a higher rate
    /// makes each read return sooner.
    func stepUp(on device: DeviceDirectory, journal: SettingsJournal) -> Double? {
        guard let state = try? read(device),
            let next = SamplingFrequencyChoice.next(above: state.value, available: state.available),
            let now = try? set(next, replacing: state.text, on: device, journal: journal), now > state.value
        else { return nil }
        return now
    }

    /// The frequency as it stands, for a capture that will follow the
    /// engine's demand with it; nil when it cannot be read.
    func follower(on device: DeviceDirectory) -> FollowedFrequency? {
        guard let state = try? read(device) else { return nil }
        return FollowedFrequency(
            path: device.attributePath(attribute), available: state.available, text: state.text.unescaped,
            value: state.value)
    }

    /// The current value as text and number, and the available values.
    private func read(_ device: DeviceDirectory) throws(CaptureError) -> (
        text: DeviceText, value: Double, available: AvailableFrequencies?
    ) {
        let text = try device.read(attribute)
        guard let value = DecimalNumber.parse(text.unescaped) else {
            throw CaptureError(
                kind: .invalidValue,
                message: "\(device.attributePath(attribute)) holds '\(text)', which is not a number")
        }
        var available: AvailableFrequencies? = nil
        if let availableAttribute, let list = try? device.read(availableAttribute) {
            available = AvailableFrequencies.parse(list.unescaped)
        }
        return (text: text, value: value, available: available)
    }

    private func set(
        _ choice: FrequencyValue, replacing currentText: DeviceText, on device: DeviceDirectory,
        journal: SettingsJournal
    ) throws(CaptureError) -> Double? {
        let path = device.attributePath(attribute)
        do {
            try journal.change(path, to: choice.text, from: currentText.unescaped)
        } catch {
            let captureError = CaptureError.system(error, doing: "write \(choice.text) to \(path)")
            if captureError.kind == .deviceGone { throw captureError }
            Log.warning("\(captureError); sampling stays at \(currentText) Hz")
            return DecimalNumber.parse(currentText.unescaped)
        }
        Log.info("\(path): raised from \(currentText) to \(choice.text) Hz (restored when capture stops)")
        if let text = try? device.read(attribute), let now = DecimalNumber.parse(text.unescaped) {
            return now
        }
        return choice.value
    }
}

/// A sampling frequency that follows the engine's demand while a buffered
/// capture runs: what it holds is remembered rather than read again (a HID
/// sensor hub answers every read of it with a report round trip), and every
/// change goes through the capture's journal, which keeps the original.
struct FollowedFrequency: Equatable {
    /// The attribute's absolute path.
    let path: String
    let available: AvailableFrequencies?
    /// What it holds now, as written (or as read when the capture began).
    private(set) var text: String
    private(set) var value: Double

    /// Makes the device sample at the lowest rate it offers at or above
    /// `rate`; returns whether that took a write.
    mutating func run(at rate: Double, journal: SettingsJournal) throws(SystemError) -> Bool {
        guard let choice = SamplingFrequencyChoice.atLeast(rate, available: available), choice.value != value else {
            return false
        }
        try journal.change(path, to: choice.text, from: text)
        text = choice.text
        value = choice.value
        return true
    }
}
