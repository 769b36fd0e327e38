import ScrollPhysics

/// How a run of a `FeelScenario` felt, in numbers: what the feel report
/// prints and the intent tests assert on.
public struct FeelMeasurement: Equatable, Sendable {
    /// One deliberate tilt out of the dead zone and back.
    public struct Tilt: Equatable, Sendable {
        /// When the intended pose left the dead zone, and came back into it.
        public var exit: Double
        public var reentry: Double?
        /// From `exit` to the first frame that moved: nil if none did.
        public var onsetLatency: Double?
        /// From `reentry` to the last frame that moved before the next tilt
        /// (negative: it had stopped before the pose was back).
        public var stopLatency: Double?
    }

    /// A held tilt: the speed in 1 s bins from 1 s after the hold began.
    public struct Hold: Equatable, Sendable {
        public var span: ClosedRange<Double>
        /// Detents per second, per bin.
        public var bins: [Double]
        public var mean: Double { bins.isEmpty ? 0 : bins.reduce(0, +) / Double(bins.count) }
        /// (largest bin - smallest bin) / mean; 0 for an even speed.
        public var ripple: Double {
            guard let lo = bins.min(), let hi = bins.max(), mean != 0 else { return bins.isEmpty ? 0 : .infinity }
            return (hi - lo) / abs(mean)
        }
    }

    /// Whole detents emitted, both axes, either direction.
    public var detents: Int
    /// Of those, the ones where the scenario wants silence (`FeelScenario.unwanted`).
    public var unwantedDetents: Int
    /// Hi-res units emitted, both axes, either direction.
    public var hiResUnits: Int
    public var tilts: [Tilt]
    public var holds: [Hold]
    /// Per touchdown: from the touchdown (the hand lets go, the surface
    /// takes the device) to the last frame that moved while it lay there (0
    /// when nothing moved).
    public var restStops: [Double]
    /// Per pick-up (`FeelScenario.pickUps`): from the lift to the last frame
    /// that moved before a deliberate tilt left the dead zone or the device
    /// was put down again (0 when none did): how long it scrolled on its own.
    public var pickUpScrolls: [Double]

    public init(
        frames: [(time: Double, frame: ScrollFrame)], scenario: FeelScenario, settings: ScrollSettings
    ) {
        let moving = frames.filter { $0.frame.verticalHiRes != 0 || $0.frame.horizontalHiRes != 0 }
        func detentsOf(_ f: ScrollFrame) -> Int { abs(Int(f.verticalDetents)) + abs(Int(f.horizontalDetents)) }
        detents = frames.reduce(0) { $0 + detentsOf($1.frame) }
        hiResUnits = frames.reduce(0) { $0 + abs(Int($1.frame.verticalHiRes)) + abs(Int($1.frame.horizontalHiRes)) }
        unwantedDetents = frames.filter { f in scenario.unwanted.contains { $0.contains(f.time) } }
            .reduce(0) { $0 + detentsOf($1.frame) }
        let episodes = scenario.tiltEpisodes(deadZoneDegrees: settings.deadZoneDegrees)
        let end = scenario.script.duration + 10
        tilts = episodes.enumerated().map { i, e in
            let nextExit = i + 1 < episodes.count ? episodes[i + 1].exit : end
            let onset = moving.first { $0.time >= e.exit && $0.time <= (e.reentry ?? end) }.map { $0.time - e.exit }
            var stop: Double?
            if let back = e.reentry {
                stop = moving.last { $0.time >= e.exit && $0.time < nextExit }.map { $0.time - back }
            }
            return Tilt(exit: e.exit, reentry: e.reentry, onsetLatency: onset, stopLatency: stop)
        }
        holds = scenario.holds(deadZoneDegrees: settings.deadZoneDegrees).map { span in
            var bins: [Double] = []
            var from = span.lowerBound + 1
            while from + 1 <= span.upperBound + 1e-9 {
                let inside = frames.filter { $0.time >= from && $0.time < from + 1 }
                bins.append(Double(inside.reduce(0) { $0 + Int($1.frame.verticalHiRes) }) / Double(hiResUnitsPerDetent))
                from += 1
            }
            return Hold(span: span, bins: bins)
        }
        let keyframes = scenario.script.keyframes
        restStops = scenario.touchdowns.map { down in
            let pickUp = keyframes.first { $0.time > down && $0.holder == .hand }?.time ?? end
            let last = moving.last { $0.time >= down && $0.time < pickUp }
            return last.map { $0.time - down } ?? 0
        }
        let touchdowns = scenario.touchdowns
        pickUpScrolls = scenario.pickUps.map { lift in
            let next = min(
                episodes.first { $0.exit > lift }?.exit ?? end, touchdowns.first { $0 > lift } ?? end)
            let last = moving.last { $0.time >= lift && $0.time < next }
            return last.map { $0.time - lift } ?? 0
        }
    }
}

extension FeelScenario {
    /// The scenario with the hand's sway and tremor drawn from `seed` (the
    /// same amplitudes, other frequencies and phases: `Hand.reseeded`).
    public func script(seed: UInt64) -> MotionScript {
        var s = script
        s.hand = s.hand.reseeded(seed &* 7919)
        return s
    }

    /// The scenario through `sensor`, replayed like the daemon replays a
    /// trace (`ScrollReplay`): its frames. `seed` draws the sensor's noise
    /// and jitter and the hand's sway.
    public func run(
        settings: ScrollSettings = ScrollSettings(), sensor: SensorModel = .kxcjk, seed: UInt64 = 1
    ) -> [(time: Double, frame: ScrollFrame)] {
        var source = SyntheticSensor(script: script(seed: seed), model: sensor, seed: seed)
        var replay = ScrollReplay(trace: source.trace(), settings: settings)
        var frames: [(time: Double, frame: ScrollFrame)] = []
        while let step = replay.next() {
            if let f = step.frame { frames.append((step.time, f)) }
        }
        return frames
    }

    /// `run` and its measurement.
    public func measure(
        settings: ScrollSettings = ScrollSettings(), sensor: SensorModel = .kxcjk, seed: UInt64 = 1
    ) -> FeelMeasurement {
        FeelMeasurement(frames: run(settings: settings, sensor: sensor, seed: seed), scenario: self, settings: settings)
    }
}
