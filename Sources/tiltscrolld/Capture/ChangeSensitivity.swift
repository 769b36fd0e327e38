import Glibc
import ScrollPhysics
import TiltScrollCommon

/// A HID sensor hub's change sensitivity, `in_accel_hysteresis` (the HID
/// "Change Sensitivity Absolute" property): the hub sends a report only when
/// a value moved by more than this since the last report it sent. Raw reads
/// are answered whatever it holds.
///
/// While the device rests, a buffered capture raises it to one count, so a
/// hub on a table (whose noise mostly hides in its rounding) goes quiet
/// instead of reporting at the resting rate, while a pick-up, which moves
/// the values by tens of counts, is reported at once. Anything the engine
/// takes for leaving the rest pose moves the values by more than one count
/// (`StillnessMeter`: the pose by six times the noise, itself at least the
/// rounding; `IntentGuard`: the magnitude off 1 g by 0.07 g, several counts
/// of a hub that reports hundredths of a g or finer), so nothing it would
/// notice is held back. It goes back to what it held as
/// soon as the device is no longer resting: the engine's measure of the
/// noise, which tells a hand from a table, needs every report.
///
/// Only a sensitivity that can be read is ever changed: what cannot be
/// read cannot be put back. The testbed's uhid sensor hub, like firmware
/// without the property, answers the read with EINVAL; it is left alone.
struct ChangeSensitivity: Equatable {
    static let attribute = "in_accel_hysteresis"

    /// The attribute's absolute path.
    let path: String
    /// What it held when the capture began, as read.
    let original: String
    /// What it holds while the device rests: one count, in the hub's unit.
    let resting: String

    /// The device's change sensitivity, or nil when it has none, it cannot be
    /// read, it holds a count or more already, or the unit of its counts
    /// cannot be told from `scale` (m/s^2 per count, the axes' `in_accel_scale`).
    ///
    /// The hub's values are in g or m/s^2 times a power of ten (its unit
    /// exponent), and so is the sensitivity, in the unit without the
    /// exponent: a scale of 9.80665 * 10^e means counts of 10^e g, a scale
    /// of 10^e counts of 10^e m/s^2 (the kernel's HID unit conversion). Any
    /// other scale is not a hub's, and the sensitivity is left alone.
    static func find(in device: DeviceDirectory, scale: Double) -> ChangeSensitivity? {
        guard device.has(attribute), let count = countInHubUnits(scale: scale) else { return nil }
        let text: String
        do {
            text = try device.read(attribute).unescaped
        } catch {
            Log.debug("\(error.message): its change sensitivity is left alone (what cannot be read cannot be restored)")
            return nil
        }
        guard let value = DecimalNumber.parse(text), value >= 0, value < count else { return nil }
        return ChangeSensitivity(
            path: device.attributePath(attribute), original: text, resting: FrequencyValue.plainText(count))
    }

    /// One count in the unit of a HID sensor's values, from its scale; nil
    /// for a scale that is neither 9.80665 nor 1 times a power of ten.
    static func countInHubUnits(scale: Double) -> Double? {
        guard scale.isFinite, scale > 0 else { return nil }
        for unit in [standardGravity, 1.0] {
            let exponent = (log10(scale / unit)).rounded()
            let count = pow(10, exponent)
            if abs(scale / unit - count) <= count * 1e-6 { return count }
        }
        return nil
    }

    /// Sets the resting sensitivity, or the original one, through `journal`.
    func apply(resting isResting: Bool, journal: SettingsJournal) throws(SystemError) {
        let value = isResting ? resting : original
        try journal.change(path, to: value, from: isResting ? original : resting)
    }
}
