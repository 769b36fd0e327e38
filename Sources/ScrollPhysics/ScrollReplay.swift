/// One step of a replay: a sample fed, or a frame taken on the output clock.
public struct ReplayStep: Equatable, Sendable {
    public enum Event: Equatable, Sendable {
        /// The trace's sample at this index was fed.
        case sample(index: Int)
        /// `frame(at:)` was called because the output clock was due.
        case frame
        /// The trace's touch line: a contact began (true) or the last one ended.
        case touch(touching: Bool)
    }

    public var time: Double
    public var event: Event
    /// What a frame step emitted; nil for samples and empty frames.
    public var frame: ScrollFrame?
    public var readout: ScrollReadout

    public init(time: Double, event: Event, frame: ScrollFrame?, readout: ScrollReadout) {
        self.time = time
        self.event = event
        self.frame = frame
        self.readout = readout
    }
}

/// Totals over a replay so far.
public struct ReplaySummary: Equatable, Sendable {
    public var samples = 0
    public var acceptedSamples = 0
    public var rejectedSamples = 0
    /// Frame calls, and how many of them emitted something.
    public var frameCalls = 0
    public var framesEmitted = 0
    public var verticalHiRes = 0
    public var verticalDetents = 0
    public var horizontalHiRes = 0
    public var horizontalDetents = 0
    public init() {}
}

/// Drives a `ScrollEngine` through a trace exactly as the daemon does:
/// samples are fed at their times, touches (`Trace.touches`) passed to
/// `touch(_:at:)`, and frames taken as a coalescing loop takes them: on the
/// wake-up of each sample or touch when `isFrameDue(at:)` says so, and on
/// the timer at `frameDeadline`; all in time order (a timer frame due at
/// the same instant as a sample or touch comes first, a touch before a
/// sample). The first accepted sample becomes the neutral pose. After the last sample the clock keeps running
/// until the engine stops it (stale data stops scrolling), so the end of a
/// trace is replayed too.
///
///     var replay = ScrollReplay(trace: trace, settings: settings)
///     while let step = replay.next() { ... }
///
/// Stepping allocates nothing.
public struct ScrollReplay: IteratorProtocol, Sequence, Sendable {
    public private(set) var engine: ScrollEngine
    public private(set) var summary = ReplaySummary()
    private let samples: [Trace.Sample]
    private let touches: [Trace.Touch]
    private var index = 0
    private var touchIndex = 0
    /// The time of the sample or touch just fed: its wake-up may take a frame.
    private var wokeAt: Double?
    /// Frames after the last sample stop here even if the engine would go on
    /// (it never does: stale data stops it well before).
    private var endOfClock = Double.infinity

    public init(trace: Trace, settings: ScrollSettings) {
        engine = ScrollEngine(settings: settings)
        samples = trace.samples
        touches = trace.touches
        // A trace in counts says its resolution; one already in m/s^2 (scale 1) does not.
        let s = trace.scale
        if s.x == s.y, s.y == s.z, s.x != 1 { engine.setSensorResolution(s.x) }
    }

    public mutating func next() -> ReplayStep? {
        if let woke = wokeAt {
            wokeAt = nil
            if engine.isFrameDue(at: woke) { return frame(at: woke) }
        }
        let sampleTime: Double? = index < samples.count ? samples[index].time : nil
        let touchTime: Double? = touchIndex < touches.count ? touches[touchIndex].time : nil
        let input = Swift.min(sampleTime ?? .infinity, touchTime ?? .infinity)
        if let due = engine.frameDeadline, due <= (input.isFinite ? input : endOfClock) { return frame(at: due) }
        if let time = touchTime, time <= sampleTime ?? .infinity {
            let touching = touches[touchIndex].touching
            touchIndex += 1
            engine.touch(touching, at: time)
            wokeAt = time
            return ReplayStep(time: time, event: .touch(touching: touching), frame: nil, readout: engine.readout)
        }
        guard let time = sampleTime else { return nil }
        let sample = samples[index]
        engine.feed(sample.acceleration, at: time)
        summary.samples += 1
        if engine.readout.lastSample == .accepted {
            summary.acceptedSamples += 1
        } else {
            summary.rejectedSamples += 1
        }
        index += 1
        wokeAt = time
        if index == samples.count {
            endOfClock = time + engine.settings.staleAfterSeconds + ScrollEngine.staleStopSeconds + 1
        }
        return ReplayStep(time: time, event: .sample(index: index - 1), frame: nil, readout: engine.readout)
    }

    private mutating func frame(at time: Double) -> ReplayStep {
        let frame = engine.frame(at: time)
        summary.frameCalls += 1
        if let f = frame {
            summary.framesEmitted += 1
            summary.verticalHiRes += Int(f.verticalHiRes)
            summary.verticalDetents += Int(f.verticalDetents)
            summary.horizontalHiRes += Int(f.horizontalHiRes)
            summary.horizontalDetents += Int(f.horizontalDetents)
        }
        return ReplayStep(time: time, event: .frame, frame: frame, readout: engine.readout)
    }
}

/// Text for replays, shared by `--replay`, `--demo` and the golden files:
/// one line per emitted frame, one `event` line per change of state, a
/// summary at the end. Numbers are fixed-decimal and locale-free.
///
///     t=1.2333 wheel=-14/0 hwheel=0/0 tilt=9.84 smoothed=9.61 htilt=0.12 speed=-2.417 hspeed=0.000 normal
///     t=2.0000 event sample rejected:not-gravity(1.62 g)
public struct ReplayPrinter {
    private var previous: ScrollReadout?

    public init() {}

    public static let legend =
        "# t=seconds wheel=REL_WHEEL_HI_RES/REL_WHEEL hwheel=REL_HWHEEL_HI_RES/REL_HWHEEL"
        + " tilt/smoothed/htilt=degrees from neutral speed/hspeed=detents/s orientation"

    /// The lines for `step` (frame lines only for frames that emitted something).
    public mutating func write(_ step: ReplayStep, to out: inout some TextOutputStream) {
        let r = step.readout
        let t = "t=" + FixedPoint.format(step.time, decimals: 4)
        writeChanges(r, at: t, to: &out)
        if case .sample = step.event, case .rejected = r.lastSample {
            out.write("\(t) event sample \(r.lastSample)\n")
        }
        if case .touch(let touching) = step.event { out.write("\(t) event touch \(touching ? "begin" : "end")\n") }
        if let f = step.frame {
            out.write(
                "\(t) wheel=\(f.verticalHiRes)/\(f.verticalDetents) hwheel=\(f.horizontalHiRes)/\(f.horizontalDetents)"
                    + " tilt=\(FixedPoint.format(r.tiltDegrees, decimals: 2))"
                    + " smoothed=\(FixedPoint.format(r.smoothedTiltDegrees, decimals: 2))"
                    + " htilt=\(FixedPoint.format(r.horizontalTiltDegrees, decimals: 2))"
                    + " speed=\(FixedPoint.format(r.speed, decimals: 3))"
                    + " hspeed=\(FixedPoint.format(r.horizontalSpeed, decimals: 3)) \(r.orientation.name)\n")
        }
    }

    /// The `event` lines for what changed in `readout` since the last line
    /// written, at `time` seconds, with no step behind them: a loop that
    /// prints frames (`--dry-run`) calls it when the state changes between
    /// frames (the device came to rest, a finger touched).
    public mutating func writeChanges(_ readout: ScrollReadout, at time: Double, to out: inout some TextOutputStream) {
        writeChanges(readout, at: "t=" + FixedPoint.format(time, decimals: 4), to: &out)
    }

    private mutating func writeChanges(_ r: ScrollReadout, at t: String, to out: inout some TextOutputStream) {
        defer { previous = r }
        if let p = previous {
            if r.orientation != p.orientation { out.write("\(t) event orientation \(r.orientation.name)\n") }
            if r.orientationPending != p.orientationPending {
                out.write("\(t) event orientation-\(r.orientationPending ? "pending" : "kept")\n")
            }
            if r.neutral != p.neutral { out.write("\(t) event neutral \(r.neutral.name)\n") }
            if r.isStale != p.isStale { out.write("\(t) event \(r.isStale ? "stale" : "fresh")\n") }
            if r.gestureArmed != p.gestureArmed {
                out.write("\(t) event gesture-\(r.gestureArmed ? "armed" : "disarmed")\n")
            }
            if r.intent != p.intent { out.write("\(t) event intent \(r.intent.name)\n") }
        } else {
            out.write("\(t) event start orientation \(r.orientation.name) neutral \(r.neutral.name)\n")
        }
    }

    public func writeSummary(_ s: ReplaySummary, to out: inout some TextOutputStream) {
        out.write(
            "summary samples=\(s.samples) accepted=\(s.acceptedSamples) rejected=\(s.rejectedSamples)"
                + " frame-calls=\(s.frameCalls) frames=\(s.framesEmitted)"
                + " wheel=\(s.verticalHiRes)/\(s.verticalDetents) hwheel=\(s.horizontalHiRes)/\(s.horizontalDetents)\n")
    }
}
