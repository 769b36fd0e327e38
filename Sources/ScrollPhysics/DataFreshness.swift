/// Whether the engine may trust its data: stale with no sample yet, once
/// the sensor has been silent for `staleAfter` seconds, or once every sample
/// has been rejected for `rejectionHoldSeconds` (a bump or a short shake is
/// ridden through on the last good tilt; walking or shaking for longer
/// stops scrolling). Stale data never keeps anything scrolling.
struct DataFreshness: Equatable, Sendable {
    /// Seconds of silence after which the data is stale.
    var staleAfter: Double
    /// The last sample with a usable time stamp, accepted or not.
    private(set) var lastSampleTime: Double?
    /// The last sample that passed every check.
    private(set) var lastAcceptedTime: Double?
    private(set) var isStale = true
    /// When the data goes stale unless a sample comes; +infinity while stale.
    private(set) var deadline = Double.infinity

    init(staleAfter: Double) { self.staleAfter = staleAfter }

    /// A sample with a usable time stamp arrived at `time`.
    mutating func heard(at time: Double) { lastSampleTime = time }

    /// An accepted sample at `time`: fresh again. Returns whether it came
    /// after a gap longer than `staleAfter` (or is the first one), and
    /// whether the data was stale until now.
    @inline(__always)
    mutating func accept(at time: Double) -> (afterGap: Bool, wasStale: Bool) {
        var afterGap = true
        if let previous = lastAcceptedTime { afterGap = time - previous > staleAfter }
        lastAcceptedTime = time
        let wasStale = isStale
        isStale = false
        deadline = time + staleAfter  // heard and accepted just now; staleAfter <= the rejection hold
        return (afterGap, wasStale)
    }

    /// After a rejected sample or a change of `staleAfter`: recompute the deadline.
    mutating func refreshDeadline() {
        guard !isStale, let accepted = lastAcceptedTime else {
            deadline = .infinity
            return
        }
        let heard = max(lastSampleTime ?? accepted, accepted)
        deadline = min(heard + staleAfter, accepted + max(staleAfter, Self.rejectionHoldSeconds))
    }

    /// The deadline passed.
    mutating func expire() {
        isStale = true
        deadline = .infinity
    }

    /// Forget every time (device lost, a new time base).
    mutating func reset() {
        lastAcceptedTime = nil
        lastSampleTime = nil
        expire()
    }

    /// How long a run of rejected samples may last before the data counts as stale.
    static let rejectionHoldSeconds = 0.5
}
