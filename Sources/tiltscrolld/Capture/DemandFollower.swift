import ScrollPhysics
import TiltScrollCommon

/// When a capture whose changes of rate cost device writes (the buffer's
/// sampling frequency, a HID sensor hub's change sensitivity: each a sysfs
/// write, for a hub a report round trip) follows the engine's sample demand.
///
/// A higher demand is followed at once: the onset of a tilt must not wait.
/// A lower one only once it has lasted `lowerAfterSeconds` without a higher
/// one in between, so that a hand hovering at the edge of the dead zone
/// (following, holding, following, ...) does not rewrite the device twice a
/// second, and a lowering is only paid for when it saves at least that long
/// at the higher rate (at 50 against 12.5 Hz, 75 samples).
///
/// Lower means a lower rate, or the same rate and resting where the
/// applied demand is not (resting also sets the change sensitivity).
struct DemandFollower: Equatable {
    /// How long a lower demand must last before it is applied, seconds.
    static let lowerAfterSeconds = 2.0

    /// The demand the device runs at; nil until the first `update`.
    private(set) var applied: SampleDemand?
    /// Since when the demand has been lower than `applied`; nil while it is not.
    private(set) var lowerSince: Double?

    /// `applied`: what the device runs at when the capture begins, if known.
    init(applied: SampleDemand? = nil) { self.applied = applied }

    /// The demand at `now`: returns the demand to apply now, or nil when the
    /// device should stay as it is.
    mutating func update(_ demand: SampleDemand, at now: Double) -> SampleDemand? {
        guard let current = applied else {
            applied = demand
            return demand
        }
        if Self.isLower(demand, than: current) {
            guard let since = lowerSince else {
                lowerSince = now
                return nil
            }
            guard now - since >= Self.lowerAfterSeconds else { return nil }
        } else if !Self.isLower(current, than: demand) {
            // The same cost (holding or jostled, both at the full rate).
            lowerSince = nil
            applied = demand
            return nil
        }
        lowerSince = nil
        applied = demand
        return demand
    }

    /// Whether running at `a` costs less than running at `b`.
    static func isLower(_ a: SampleDemand, than b: SampleDemand) -> Bool {
        if a.rate != b.rate { return a.rate < b.rate }
        return a.state == .resting && b.state != .resting
    }
}
