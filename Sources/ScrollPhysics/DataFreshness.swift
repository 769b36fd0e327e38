/// Whether the engine may trust its data: stale with no sample yet, once
/// the sensor has been silent for `staleAfter` seconds, or once every sample
/// has been rejected for `rejectionHoldSeconds` (a bump or a short shake is
/// ridden through on the last good tilt; walking or shaking for longer
/// stops scrolling). Stale data never keeps anything scrolling.
///
/// Silence is measured against the rate the daemon actually delivers, not
/// the configured one: `staleAfter` is three expected periods, the longer
/// of the period the engine asked for (`ScrollEngine.sampleDemand`) and the
/// last interval between two samples (at most `longestPeriod`). So a daemon
/// that lowers the rate while the device rests is not stale, one that has
/// not yet raised it again after a pick-up is not either, and one that
/// ignores the demand altogether is held to what it delivers.
struct DataFreshness: Equatable, Sendable {
    /// The period the engine asked for, seconds.
    private(set) var requestedPeriod: Double
    /// The longest interval taken as a delivered period (so that one long
    /// silence does not make the next one count as normal), seconds.
    var longestPeriod: Double
    /// The last interval between two samples heard, at most `longestPeriod`.
    private(set) var deliveredPeriod = 0.0
    /// Seconds between samples expected now.
    private(set) var expectedPeriod: Double
    /// Seconds of silence after which the data is stale: three expected periods.
    private(set) var staleAfter: Double
    /// The last sample with a usable time stamp, accepted or not.
    private(set) var lastSampleTime: Double?
    /// The last sample that passed every check.
    private(set) var lastAcceptedTime: Double?
    private(set) var isStale = true
    /// When the data goes stale unless a sample comes; +infinity while stale.
    private(set) var deadline = Double.infinity

    init(period: Double) {
        requestedPeriod = period
        longestPeriod = period
        expectedPeriod = period
        staleAfter = 3 * period
    }

    /// The engine now asks for a sample every `period` seconds.
    mutating func request(period: Double) {
        requestedPeriod = period
        refreshPeriod()
        refreshDeadline()
    }

    private mutating func refreshPeriod() {
        expectedPeriod = max(requestedPeriod, deliveredPeriod)
        staleAfter = 3 * expectedPeriod
    }

    /// A sample with a usable time stamp arrived at `time`.
    @inline(__always)
    mutating func heard(at time: Double) {
        if let last = lastSampleTime, time > last {
            deliveredPeriod = min(time - last, longestPeriod)
            refreshPeriod()
        }
        lastSampleTime = time
    }

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
        deliveredPeriod = 0
        refreshPeriod()
        expire()
    }

    /// How long a run of rejected samples may last before the data counts as stale.
    static let rejectionHoldSeconds = 0.5
}
