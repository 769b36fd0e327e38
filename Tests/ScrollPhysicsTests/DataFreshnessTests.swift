import Testing

@testable import ScrollPhysics

@Suite struct DataFreshnessBehaviour {
    @Test func isStaleUntilTheFirstAcceptedSample() {
        var f = DataFreshness(period: 0.02)
        #expect(f.isStale && f.deadline == .infinity)
        let first = f.accept(at: 1)
        #expect(first.afterGap && first.wasStale)
        #expect(!f.isStale)
        #expect(abs(f.deadline - 1.06) < 1e-12)
        let second = f.accept(at: 1.02)
        #expect(!second.afterGap && !second.wasStale)
    }

    @Test func rejectedSamplesHoldItFreshForHalfASecondAtMost() {
        var f = DataFreshness(period: 0.02)
        _ = f.accept(at: 0)
        var t = 0.0
        while t < 1 {
            t += 0.02
            f.heard(at: t)
            f.refreshDeadline()
        }
        // Heard every 20 ms, but nothing accepted since 0: stale at 0.5 s.
        #expect(f.deadline == DataFreshness.rejectionHoldSeconds)
    }

    @Test func silenceMakesItStaleAfterItsLimitAndAGapIsReported() {
        var f = DataFreshness(period: 0.1)
        _ = f.accept(at: 0)
        f.heard(at: 0.1)
        f.refreshDeadline()
        #expect(abs(f.deadline - 0.4) < 1e-12)
        f.expire()
        #expect(f.isStale && f.deadline == .infinity)
        let back = f.accept(at: 2)
        #expect(back.afterGap && back.wasStale)
    }

    @Test func resetForgetsTheTimes() {
        var f = DataFreshness(period: 0.02)
        _ = f.accept(at: 5)
        f.reset()
        #expect(f.isStale && f.lastAcceptedTime == nil && f.lastSampleTime == nil)
    }

    @Test func followsTheRateAskedForAtOnceWhenItIsLower() {
        var f = DataFreshness(period: 0.02)
        f.longestPeriod = 0.25
        f.heard(at: 0)
        _ = f.accept(at: 0)
        f.heard(at: 0.02)
        _ = f.accept(at: 0.02)
        #expect(abs(f.staleAfter - 0.06) < 1e-12)
        // Resting: the engine asks for a slow rate (4 Hz here); the daemon switches; no stale gap.
        f.request(period: 0.25)
        #expect(abs(f.staleAfter - 0.75) < 1e-12)
        #expect(abs(f.deadline - 0.77) < 1e-12)
        f.heard(at: 0.27)
        let next = f.accept(at: 0.27)
        #expect(!next.afterGap)
    }

    @Test func keepsTheSlowRateUntilTheDaemonDeliversTheFasterOne() {
        var f = DataFreshness(period: 0.25)
        f.longestPeriod = 0.25
        f.heard(at: 0)
        f.heard(at: 0.25)
        // Picked up: full rate asked for, but the next sample may still come at the slow rate.
        f.request(period: 0.02)
        #expect(abs(f.staleAfter - 0.75) < 1e-12)
        f.heard(at: 0.5)
        #expect(abs(f.staleAfter - 0.75) < 1e-12)
        f.heard(at: 0.52)
        #expect(abs(f.staleAfter - 0.06) < 1e-12)
    }

    @Test func isHeldToWhatTheDaemonDeliversButNotToOneLongSilence() {
        var f = DataFreshness(period: 0.02)
        f.longestPeriod = 0.25
        f.heard(at: 0)
        f.heard(at: 0.1)  // a 10 Hz sensor configured as 50 Hz
        #expect(abs(f.staleAfter - 0.3) < 1e-12)
        f.heard(at: 30)  // after half a minute of silence
        #expect(abs(f.staleAfter - 0.75) < 1e-12)
    }
}
