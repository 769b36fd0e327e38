import ScrollPhysics

/// A scenario run the way the daemon runs the engine once it follows the
/// engine's sample demand (issue 14): the sensor is read at
/// `ScrollEngine.sampleDemand.rate` (the next sample one demanded period,
/// jittered as the part jitters, after the last), touches come at their
/// times, frames are taken on every wake-up when `isFrameDue(at:)` says so
/// and on the timer at `frameDeadline`. It counts what that costs: samples
/// and wake-ups, per intent state.
public struct DemandDrivenRun: Sendable {
    /// What one intent state cost.
    public struct StateCost: Equatable, Sendable {
        public var seconds = 0.0
        public var samples = 0
        public var wakeUps = 0
        public var frames = 0

        public init() {}
    }

    public var frames: [(time: Double, frame: ScrollFrame)] = []
    /// Indexed like `IntentState.allCases`.
    public var costs: [StateCost] = Array(repeating: StateCost(), count: IntentState.allCases.count)

    /// Each change of the intent state, at the wake-up that made it.
    public var transitions: [(time: Double, to: IntentState)] = []

    public func cost(of state: IntentState) -> StateCost { costs[Self.index(state)] }

    /// Seconds from each pick-up in `scenario` (the lift begins) until the
    /// engine no longer rests, and so asks for its full rate again: 0 when
    /// it was not resting then; nil when it still rested at the end.
    public func pickUpNoticeLatencies(in scenario: FeelScenario) -> [Double?] {
        scenario.pickUps.map { lift in
            let before = transitions.last { $0.time <= lift }?.to
            guard before == .resting else { return 0 }
            return transitions.first { $0.time > lift && $0.to != .resting }.map { $0.time - lift }
        }
    }

    static func index(_ state: IntentState) -> Int { IntentState.allCases.firstIndex(of: state)! }
}

extension FeelScenario {
    /// The scenario through `sensor` with the daemon following the demand.
    /// `watch`, if given, sees every sample fed: the engine after it, the
    /// reading (m/s^2), its time and the intent state before it (for a
    /// measurement that follows the engine's own sampling).
    public func runFollowingDemand(
        settings: ScrollSettings = ScrollSettings(), sensor: SensorModel = .kxcjk, seed: UInt64 = 1,
        watch: ((_ engine: ScrollEngine, _ reading: Vector3, _ time: Double, _ before: IntentState) -> Void)? = nil
    ) -> DemandDrivenRun {
        var s = settings
        s.sampleRate = sensor.rate
        var engine = ScrollEngine(settings: s)
        engine.setSensorResolution(sensor.scale)
        var source = SyntheticSensor(script: script(seed: seed), model: sensor, seed: seed)
        var jitter = SeededRandom(seed: seed &+ 0x4A17)
        var touches = script.contacts.sorted { $0.lowerBound < $1.lowerBound }.flatMap {
            [($0.lowerBound, true), ($0.upperBound, false)]
        }
        var run = DemandDrivenRun()
        let end = script.duration
        var nextSample = 0.0
        var lastWake = 0.0
        var state = engine.readout.intent
        while true {
            let sampleTime: Double? = nextSample <= end ? nextSample : nil
            let touchTime = touches.first?.0
            var deadline = engine.frameDeadline
            if let d = deadline, d > end + 2 { deadline = nil }
            let candidates = [sampleTime, touchTime, deadline].compactMap { $0 }
            guard let now = candidates.min() else { break }
            let i = DemandDrivenRun.index(state)
            run.costs[i].seconds += now - lastWake
            run.costs[i].wakeUps += 1
            lastWake = now
            if let t = touchTime, t == now {
                engine.touch(touches.removeFirst().1, at: now)
            }
            if let t = sampleTime, t == now {
                let reading = source.acceleration(at: now)
                let before = engine.readout.intent
                engine.feed(reading, at: now)
                watch?(engine, reading, now, before)
                run.costs[i].samples += 1
                let period = 1 / engine.sampleDemand.rate
                let j = sensor.jitter > 0 ? jitter.uniform(-sensor.jitter...sensor.jitter) : 0
                nextSample = now + period + Swift.min(Swift.max(j, -period / 2), period / 2)
            }
            if engine.isFrameDue(at: now), let f = engine.frame(at: now) {
                run.frames.append((now, f))
                run.costs[i].frames += 1
            }
            if engine.readout.intent != state {
                state = engine.readout.intent
                run.transitions.append((now, state))
            }
        }
        return run
    }

    /// `runFollowingDemand` and its measurement.
    public func measureFollowingDemand(
        settings: ScrollSettings = ScrollSettings(), sensor: SensorModel = .kxcjk, seed: UInt64 = 1
    ) -> (FeelMeasurement, DemandDrivenRun) {
        let run = runFollowingDemand(settings: settings, sensor: sensor, seed: seed)
        return (FeelMeasurement(frames: run.frames, scenario: self, settings: settings), run)
    }
}
