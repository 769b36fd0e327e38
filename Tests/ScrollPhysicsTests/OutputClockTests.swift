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
        clock.advance(after: 0.0149, needed: true)
        #expect(abs(clock.due! - 0.02) < 1e-12, "called more than half a period early: the due frame stays due")
        clock.advance(after: 0.018, needed: true)
        #expect(abs(clock.due! - 0.028) < 1e-12, "a little early: it was the due one, the grid starts from it")
    }

    @Test func restartsFromNowWhenTheCallerFellBehindByAPeriod() {
        var clock = OutputClock(period: 0.01)
        clock.start(at: 0, needed: true)
        clock.advance(after: 0.05, needed: true)
        #expect(abs(clock.due! - 0.06) < 1e-12)
    }

    /// 60 Hz output.
    private func clock(samplePeriod: Double) -> OutputClock {
        var c = OutputClock(period: 1.0 / 60)
        c.samplePeriod = samplePeriod
        return c
    }

    @Test func aFastSensorCarriesTheFrames() {
        // 50 Hz: every sample takes a frame; the timer waits beyond the next sample.
        var c = clock(samplePeriod: 0.02)
        c.lastSample = 1
        c.start(at: 1, needed: true)
        #expect(c.isDue(at: 1.02))
        c.lastSample = 1.02
        c.advance(after: 1.02, needed: true)
        #expect(abs(c.deadline! - 1.05) < 1e-12, "half a sample period after the next sample")
        #expect(c.isDue(at: 1.04))
        #expect(!c.isDue(at: 1.025))
        // 100 Hz: every other sample.
        var fast = clock(samplePeriod: 0.01)
        fast.start(at: 0, needed: true)
        fast.advance(after: 0.02, needed: true)
        #expect(!fast.isDue(at: 0.03))
        #expect(fast.isDue(at: 0.04))
    }

    @Test func aSlowSensorsSampleWaitsForTheFrameNearestIt() {
        // 10 Hz against 60 Hz: timer frames on the grid; the one nearest the
        // next sample waits a little for it.
        var c = clock(samplePeriod: 0.1)
        c.lastSample = 0
        c.start(at: 0, needed: true)
        #expect(abs(c.deadline! - 1.0 / 60) < 1e-12)
        var t = 1.0 / 60
        for _ in 0..<4 {
            c.advance(after: t, needed: true)
            t += 1.0 / 60
        }
        // Due at 5/60 = 0.0833; the next sample is expected at 0.1, more than
        // half a frame away: the timer takes it.
        #expect(abs(c.deadline! - 5.0 / 60) < 1e-12)
        c.advance(after: 5.0 / 60, needed: true)
        // Due at 0.1, as the sample: the deadline waits a quarter sample period, at most half a frame.
        #expect(abs(c.deadline! - (0.1 + 1.0 / 120)) < 1e-12)
        #expect(c.isDue(at: 0.1005), "the sample, a little late, takes the frame")
    }

    @Test func withoutSamplesTheTimerKeepsTheGrid() {
        var c = clock(samplePeriod: 0.02)
        c.lastSample = 0
        c.start(at: 0, needed: true)
        c.advance(after: 0.5, needed: true)  // samples stopped long ago
        #expect(abs(c.deadline! - (0.5 + 1.0 / 60)) < 1e-12)
    }
}
