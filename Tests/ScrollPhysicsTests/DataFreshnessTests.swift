import Testing

@testable import ScrollPhysics

@Suite struct DataFreshnessBehaviour {
    @Test func isStaleUntilTheFirstAcceptedSample() {
        var f = DataFreshness(staleAfter: 0.06)
        #expect(f.isStale && f.deadline == .infinity)
        let first = f.accept(at: 1)
        #expect(first.afterGap && first.wasStale)
        #expect(!f.isStale)
        #expect(f.deadline == 1.06)
        let second = f.accept(at: 1.02)
        #expect(!second.afterGap && !second.wasStale)
    }

    @Test func rejectedSamplesHoldItFreshForHalfASecondAtMost() {
        var f = DataFreshness(staleAfter: 0.06)
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
        var f = DataFreshness(staleAfter: 0.3)
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
        var f = DataFreshness(staleAfter: 0.06)
        _ = f.accept(at: 5)
        f.reset()
        #expect(f.isStale && f.lastAcceptedTime == nil && f.lastSampleTime == nil)
    }
}
