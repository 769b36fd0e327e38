import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

@Suite struct DemoPlaybackClock {
    private func demo() throws -> DemoPlayback {
        DemoPlayback(trace: try Trace.parse(DemoTrace.text), settings: ScrollSettings())
    }

    @Test func playsWhatIsDueAndNoMore() throws {
        var playback = try demo()
        playback.advance(to: 0)
        #expect(playback.summary.samples == 1)
        #expect(!playback.isFinished)
        playback.advance(to: 2)
        let start = playback.start
        let due = playback.trace.samples.filter { $0.time - start <= 2 }.count
        #expect(playback.summary.samples == due)
        #expect(playback.played == 2)
        // The latest sample is on show: before and after the (identity) mount matrix.
        let latest = playback.trace.samples[due - 1]
        #expect(playback.corrected == latest.acceleration)
        #expect((playback.raw - latest.acceleration).length < 1e-9)
        #expect(playback.record().state == "Playing the demo: 2.0 s of 16.0 s")
        #expect(playback.record().corrected == latest.acceleration)
    }

    @Test func playsTheWholeTraceExactlyAsTheFrameLinesDo() throws {
        var playback = try demo()
        var seconds = 0.0
        while !playback.isFinished {
            seconds += 0.1
            playback.advance(to: seconds)
        }
        var replay = ScrollReplay(trace: try Trace.parse(DemoTrace.text), settings: ScrollSettings())
        while replay.next() != nil {}
        #expect(playback.summary == replay.summary)
        #expect(playback.hiResTotal == replay.summary.verticalHiRes)
        #expect(playback.record().scrolled == Double(replay.summary.verticalHiRes) / 120)
        #expect(playback.played == playback.length)
        #expect(playback.summaryText().hasPrefix("Played the 16.0 s demo trace: 800 samples (0 rejected), "))
        // Going on changes nothing.
        playback.advance(to: seconds + 10)
        #expect(playback.summary == replay.summary)
        #expect(playback.hiResTotal == replay.summary.verticalHiRes)
    }

    @Test func aStoppedDemoSaysHowFarItGot() throws {
        var playback = try demo()
        playback.advance(to: 5)
        #expect(playback.summaryText().hasPrefix("Stopped after 5.0 s of the 16.0 s demo trace: "))
    }
}
