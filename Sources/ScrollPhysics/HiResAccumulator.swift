/// Turns a continuous scroll distance into the integers one wheel axis
/// emits, losing nothing.
///
/// Distance arrives in hi-res units (1/120 detent) as a real number; each
/// frame takes the whole units and carries the fraction to the next one, so
/// the emitted total never differs from the distance travelled by one unit or
/// more. The legacy detent stream follows the kernel's own hid-input
/// accumulator (hidinput_handle_scroll): add the hi-res value, emit
/// total / 120 (truncated towards zero), keep the remainder. Readers that only
/// know `REL_WHEEL` then see exactly what a real hi-res mouse would give them.
public struct HiResAccumulator: Equatable, Sendable {
    /// Hi-res units travelled but not yet emitted; |pending| < 1 after `take()`
    /// unless a frame hit the per-frame limit.
    public private(set) var pending: Double = 0
    /// Emitted hi-res units not yet reported as a legacy detent, in (-120, 120).
    public private(set) var detentRemainder: Int32 = 0

    /// The most hi-res units one frame carries; anything beyond waits for the
    /// next frame. Far above any reachable value (1000 detents/s for a whole
    /// second is 120,000) and far from Int32 overflow.
    public static let maxUnitsPerFrame: Double = 16_777_216
    static let roundingDust = 1e-9

    public init() {}

    /// Adds a distance in hi-res units (non-finite input is ignored).
    @inline(__always)
    public mutating func add(_ units: Double) {
        guard units.isFinite else { return }
        pending += units
        // Beyond the per-frame cap for a thousand frames: something upstream is
        // wrong; drop it rather than ever overflow.
        if !(abs(pending) < Self.maxUnitsPerFrame * 1000) { pending = 0 }
    }

    /// The whole hi-res units to emit now and the legacy detents they complete.
    @inline(__always)
    public mutating func take() -> (hiRes: Int32, detents: Int32) {
        // A nudge of 1e-9 units so rounding dust (0.3 + 0.3 + ... = 0.99999...)
        // does not hold a whole unit back for a frame.
        guard abs(pending) + Self.roundingDust >= 1 else { return (0, 0) }
        let nudged = pending + (pending < 0 ? -Self.roundingDust : Self.roundingDust)
        // Int32(_:) truncates towards zero, in range after the clamp.
        let hiRes = Int32(min(max(nudged, -Self.maxUnitsPerFrame), Self.maxUnitsPerFrame))
        pending -= Double(hiRes)
        let total = detentRemainder + hiRes
        let detents = total / hiResUnitsPerDetent
        detentRemainder = total - detents * hiResUnitsPerDetent
        return (hiRes, detents)
    }

    /// Whether `take()` would emit something.
    public var hasWholeUnit: Bool { abs(pending) + Self.roundingDust >= 1 }

    /// Drop everything (a new output device starts from zero).
    public mutating func reset() { self = HiResAccumulator() }
}
