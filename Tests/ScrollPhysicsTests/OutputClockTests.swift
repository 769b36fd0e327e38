import Testing

@testable import ScrollPhysics

@Suite struct OutputClockBehaviour {
    @Test func startsOnePeriodAfterMotionBeginsAndStopsWhenNothingMoves() {
        var clock = OutputClock(period: 0.01)
        clock.start(at: 1, needed: false)
        #expect(clock.due == nil)
        clock.start(at: 1, needed: true)
        #expect(clock.due == 1.01)
        clock.start(at: 1.005, needed: true)
        #expect(clock.due == 1.01, "a running clock keeps its grid")
        clock.advance(after: 1.01, needed: false)
        #expect(clock.due == nil)
    }

    @Test func keepsItsGridWhenFramesComeLateByLessThanAPeriod() {
        var clock = OutputClock(period: 0.01)
        clock.start(at: 0, needed: true)
        clock.advance(after: 0.013, needed: true)
        #expect(abs(clock.due! - 0.02) < 1e-12)
        clock.advance(after: 0.015, needed: true)
        #expect(abs(clock.due! - 0.02) < 1e-12, "called early: the due frame stays due")
    }

    @Test func restartsFromNowWhenTheCallerFellBehindByAPeriod() {
        var clock = OutputClock(period: 0.01)
        clock.start(at: 0, needed: true)
        clock.advance(after: 0.05, needed: true)
        #expect(abs(clock.due! - 0.06) < 1e-12)
    }
}
