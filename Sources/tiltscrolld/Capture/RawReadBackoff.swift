import TiltScrollCommon

/// Backing off while a driver refuses raw reads. bmc150 answers `EBUSY`
/// while another process (iio-sensor-proxy) runs its buffer; retrying at
/// the sample rate would be a spin, so reads pause for `interval` and the
/// refusal is reported once, not once per attempt.
struct RawReadBackoff: Equatable {
    /// Seconds between attempts while reads are refused.
    static let interval = 1.0

    /// When reads may be tried again; nil while they work.
    private(set) var retryAt: Double? = nil

    /// Whether a failed read means "not now" rather than "gone": busy,
    /// try again, or a conversion that timed out.
    static func isRefusal(_ code: Errno) -> Bool {
        code == .resourceBusy || code == .tryAgain || code == .timedOut
    }

    /// The time to wait for at `now`, or nil when a read may be tried.
    func retryTime(at now: Double) -> Double? {
        guard let retryAt, now < retryAt else { return nil }
        return retryAt
    }

    /// Records a refusal at `now`: when to try next, and whether this starts
    /// a period of refusals (the one worth reporting).
    mutating func refused(at now: Double) -> (until: Double, isNew: Bool) {
        let isNew = retryAt == nil
        let until = now + RawReadBackoff.interval
        retryAt = until
        return (until, isNew)
    }

    /// Records a read that worked; true when it ends a period of refusals.
    mutating func succeeded() -> Bool {
        defer { retryAt = nil }
        return retryAt != nil
    }
}
