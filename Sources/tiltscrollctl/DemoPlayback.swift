import Glibc
import ScrollPhysics
import TiltScrollCommon

/// `tiltscrollctl demo` on a terminal: a recorded trace played in real time
/// through the monitor's view, as if its sensor were live, then a summary.
///
/// The replay runs on the trace's own clock, exactly as `replay` and the
/// frame lines do; `advance(to:)` catches it up with the seconds played.
struct DemoPlayback {
    let trace: Trace
    /// The trace's time at the start of playback: its first sample.
    let start: Double
    /// Seconds from the first sample to the last.
    let length: Double
    private var replay: ScrollReplay
    /// The next step, taken from the replay but not due yet, and the
    /// summary before it was taken.
    private var pending: (step: ReplayStep, summaryBefore: ReplaySummary)?
    private(set) var isFinished = false
    /// Seconds of the trace played so far.
    private(set) var played = 0.0
    private(set) var readout: ScrollReadout
    /// The latest sample in m/s^2, before and after the mount matrix.
    private(set) var raw = Vector3.zero
    private(set) var corrected = Vector3.zero
    /// Hi-res units the frames played so far scrolled.
    private(set) var hiResTotal = 0
    private(set) var horizontalHiResTotal = 0
    private let settings: ScrollSettings

    init(trace: Trace, settings: ScrollSettings) {
        self.trace = trace
        self.settings = settings
        start = trace.samples.first?.time ?? 0
        length = (trace.samples.last?.time ?? start) - start
        replay = ScrollReplay(trace: trace, settings: settings)
        readout = replay.engine.readout
    }

    /// Plays every step due within `seconds` of the start, handing each
    /// frame to `frame`. Finished once the replay is: after the last sample,
    /// when the engine has stopped on the stale data.
    mutating func advance(to seconds: Double) {
        while !isFinished {
            if pending == nil {
                let summaryBefore = replay.summary
                guard let next = replay.next() else {
                    isFinished = true
                    break
                }
                pending = (next, summaryBefore)
            }
            guard let step = pending?.step, step.time - start <= seconds else { break }
            pending = nil
            readout = step.readout
            if case .sample(let index) = step.event {
                let sample = trace.samples[index]
                raw = Vector3(
                    (sample.raw.x + trace.offset.x) * trace.scale.x, (sample.raw.y + trace.offset.y) * trace.scale.y,
                    (sample.raw.z + trace.offset.z) * trace.scale.z)
                corrected = sample.acceleration
            }
            if let frame = step.frame {
                hiResTotal += Int(frame.verticalHiRes)
                horizontalHiResTotal += Int(frame.horizontalHiRes)
            }
        }
        played = isFinished ? max(played, length) : min(max(played, seconds), length)
    }

    /// What has been played: the replay's totals without a step not yet due.
    var summary: ReplaySummary { pending?.summaryBefore ?? replay.summary }

    /// The monitor's picture of the demo now.
    func record() -> MonitorRecord {
        let progress =
            "\(isFinished ? "Played" : "Playing") the demo: \(FixedPoint.format(played, decimals: 1)) s "
            + "of \(FixedPoint.format(length, decimals: 1)) s"
        var record = MonitorRecord(
            state: progress, device: "a recorded kxcjk-1013 (the demo trace)", settings: settings)
        record.read(readout)
        record.raw = raw
        record.corrected = corrected
        record.matrix = trace.mountMatrix
        record.scrolled = Double(hiResTotal) / 120
        record.horizontalScrolled = Double(horizontalHiResTotal) / 120
        return record
    }

    /// The lines printed below the view at the end.
    func summaryText() -> String {
        let s = summary
        let what =
            isFinished
            ? "Played the \(FixedPoint.format(length, decimals: 1)) s demo trace"
            : "Stopped after \(FixedPoint.format(played, decimals: 1)) s of the "
                + "\(FixedPoint.format(length, decimals: 1)) s demo trace"
        return "\(what): \(s.samples) samples (\(s.rejectedSamples) rejected), \(s.framesEmitted) scroll frames, "
            + "wheel \(FixedPoint.format(Double(s.verticalHiRes) / 120, decimals: 2)) detents, horizontal wheel "
            + "\(FixedPoint.format(Double(s.horizontalHiRes) / 120, decimals: 2)) detents.\n"
            + "Every frame: tiltscrollctl demo --frames\n"
    }

    /// Plays `trace` on this terminal until it ends or SIGINT/SIGTERM stop it.
    /// Returns the exit status.
    static func play(_ trace: Trace, settings: ScrollSettings) -> Int32 {
        let signals: SignalChannel
        do {
            signals = try SignalChannel.open([SIGINT, SIGTERM])
        } catch {
            Log.error("Cannot receive signals: \(error)")
            return 1
        }
        defer { signals.close() }
        let begin = DaemonClock.now()
        var playback = DemoPlayback(trace: trace, settings: settings)
        let view = MonitorView(title: "tiltscrollctl demo")
        let poller = Poller()
        var stopped = false
        var nextRedraw = begin
        while !stopped {
            let now = DaemonClock.now()
            playback.advance(to: now - begin)
            if playback.isFinished { break }
            if now >= nextRedraw {
                view.draw(playback.record())
                nextRedraw = now + MonitorView.redrawInterval
            }
            poller.reset()
            let signalSlot = poller.watch(signals.descriptor)
            do {
                try poller.wait(until: nextRedraw, now: DaemonClock.now())
            } catch {
                Log.error("\(error); stopping the demo")
                break
            }
            if poller.isReadable(signalSlot) { signals.drain { _ in stopped = true } }
        }
        view.draw(playback.record())
        view.finish()
        StandardOutput.write(playback.summaryText())
        return 0
    }
}
