import TiltScrollCommon

/// The back-off between failed attempts to capture, and what of it is said.
///
/// Each failed attempt doubles the delay before the next, from
/// `firstDelay` up to `longestDelay`. The first failure of a streak is said
/// in one line; later ones are counted and summed up now and then
/// (`firstSummaryAfter`, then every `summaryInterval`), and a different
/// failure is said when it first appears. A proven capture ends the streak.
struct RetryBackoff: Equatable {
    static let firstDelay = 1.0
    static let longestDelay = 30.0
    /// The first summary of a streak comes this long after its first line...
    static let firstSummaryAfter = 60.0
    /// ... and the next ones this far apart.
    static let summaryInterval = 600.0

    /// Failed attempts in the current streak; 0 when none failed.
    private(set) var failedAttempts = 0
    /// The delay before the attempt after the next failure.
    private(set) var nextDelay = RetryBackoff.firstDelay
    /// When the streak's first attempt failed.
    private(set) var streakStart: Double?
    /// The failure said last, and when.
    private(set) var lastSaid: CaptureFailure?
    private(set) var lastSaidAt: Double?
    /// Summaries said in this streak.
    private(set) var summaries = 0

    var isFailing: Bool { failedAttempts > 0 }

    /// A delay or a span for people: "1 s", "30 s", "12 min", "3 h".
    static func format(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 120 { return "\(whole) s" }
        if whole < 7200 { return "\(whole / 60) min" }
        return "\(whole / 3600) h"
    }

    /// What a failed attempt makes the daemon say.
    enum Report: Equatable {
        /// The first failure of a streak, or a different one: say it, with
        /// the delay, and that the attempts go on less and less often.
        case failing(CaptureFailure, retryIn: Double)
        /// The same failure again, a while after it was last said.
        case stillFailing(CaptureFailure, attempts: Int, since: Double, retryIn: Double)
    }

    /// Records a failed attempt at `now`: the delay until the next one, and
    /// what to say (nil: count it silently).
    mutating func failed(_ failure: CaptureFailure, at now: Double) -> (delay: Double, report: Report?) {
        let delay = nextDelay
        nextDelay = min(nextDelay * 2, RetryBackoff.longestDelay)
        failedAttempts += 1
        if streakStart == nil { streakStart = now }
        let report: Report?
        if failure != lastSaid {
            report = .failing(failure, retryIn: delay)
        } else if let said = lastSaidAt,
            now - said >= (summaries == 0 ? RetryBackoff.firstSummaryAfter : RetryBackoff.summaryInterval)
        {
            summaries += 1
            report = .stillFailing(failure, attempts: failedAttempts, since: streakStart ?? now, retryIn: delay)
        } else {
            report = nil
        }
        if report != nil {
            lastSaid = failure
            lastSaidAt = now
        }
        return (delay, report)
    }

    /// Ends the streak (a capture proved itself, or the sensor or the
    /// settings changed): the next failure starts afresh from `firstDelay`.
    /// Returns how many attempts had failed.
    @discardableResult
    mutating func reset() -> Int {
        defer { self = RetryBackoff() }
        return failedAttempts
    }
}
