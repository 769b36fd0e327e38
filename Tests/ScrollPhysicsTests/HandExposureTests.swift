import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// The intent guard's short window and the hand it learns there
/// (`IntentGuard.shortHand`), followed beside an engine from the readings
/// it is fed, so that every window a hand leaves still can be seen with
/// the hand's quiet sway over that window's noise (the gate it would clear),
/// not only the windows the guard acts on. It checks itself against the
/// engine's own `shortHand` at every block.
struct ShortWindowShadow {
    struct Window {
        var time: Double
        /// The hand's quiet sway over the window's noise.
        var gate: Double
        /// Still as `IntentGuard.handGone` asks: by the meter and by `Sway.stillByNoise`.
        var still: Bool
        /// Begun within `IntentGuard.turnLeadSeconds` of a turn.
        var afterTurn: Bool
    }

    private var meter = StillnessMeter()
    private var hand = HandSway()
    private var blockStart = -Double.infinity
    private var blockEnd = -Double.infinity
    private var lastSampleTime = -Double.infinity
    private var magnitudes = Moments()
    private var lastTurn = -Double.infinity
    private(set) var windows: [Window] = []
    /// Blocks where the shadow's hand and the engine's differed.
    private(set) var mismatches = 0

    init(resolution: Double) {
        let angle = resolution / standardGravity
        meter.quantizationVariance = max(angle * angle / 12, StillnessMeter.unknownResolutionVariance)
    }

    /// One reading the engine accepted, with the engine after it and the
    /// intent state before it.
    mutating func add(_ reading: Vector3, at time: Double, before: IntentState, engine: ScrollEngine) {
        if time >= blockEnd {
            close(at: time, learning: before == .holding || before == .following)
            // The same but for the last bits of the pitch (the engine's is
            // continued across +-180 degrees, a sum).
            let mine = hand.quietQuarter ?? -1
            let its = engine.intent.shortHand.quietQuarter ?? -1
            if abs(mine - its) > 1e-9 * abs(its) {
                if mismatches == 0 { print("MISMATCH first at \(time) \(before) \(mine) \(its)") }
                mismatches += 1
            }
        }
        lastSampleTime = time
        let length = reading.length
        let pose = RawPose(gravity: reading, length: length, in: .normal)
        meter.add(pitch: pose.pitch / MathFunctions.degreesPerRadian, sinRoll: pose.sinRoll)
        magnitudes.add(JostleMeter.deviation(length / standardGravity))
    }

    private mutating func close(at time: Double, learning: Bool) {
        let start = blockStart
        let magnitude = magnitudes
        let interval = lastSampleTime.isFinite ? min(time - lastSampleTime, StillnessMeter.blockSeconds) : 0
        blockStart = time
        blockEnd = time + StillnessMeter.blockSeconds - interval / 2
        magnitudes = Moments()
        guard start.isFinite, time > start else { return }
        let verdict = meter.closeBlock(
            started: start, at: time, magnitude: magnitude, judgeShort: true, judgeLong: true)
        if let sway = verdict.shortSway, let quiet = hand.quietQuarter, learning {
            windows.append(
                Window(
                    time: time, gate: quiet / sway.noise, still: verdict.shortStill != nil && sway.stillByNoise,
                    afterTurn: sway.since - lastTurn <= IntentGuard.turnLeadSeconds))
        }
        if verdict.turned { lastTurn = time }
        let calm = lastTurn + StillnessMeter.blockSeconds
        if learning, let sway = verdict.shortSway, sway.since >= calm { hand.add(max(sway.excess, 0)) }
    }
}

extension FeelScenario {
    /// The scenario run following the demand, with the short windows the
    /// guard's hand would be held against.
    func shortWindows(sensor: SensorModel, seed: UInt64) -> (windows: ShortWindowShadow, run: DemandDrivenRun) {
        var shadow = ShortWindowShadow(resolution: sensor.scale)
        var settings = ScrollSettings()
        settings.sampleRate = sensor.rate
        let run = runFollowingDemand(settings: settings, sensor: sensor, seed: seed) { engine, reading, time, before in
            shadow.add(reading, at: time, before: before, engine: engine)
        }
        return (shadow, run)
    }
}

/// How often a hand holding the device leaves a short window (1.4 s) as
/// still as a table, by how far its quiet sway stands above that window's
/// noise (the gate `IntentGuard` holds a window's stillness to): every
/// window of long holds counts, turned before or not.
@Suite struct HandExposure {
    static let hands: [(name: String, sway: Double, tremor: Double)] = [
        ("very steady", 0.15, 0.05), ("steady", 0.3, 0.05), ("typical", 0.6, 0.1), ("shaky", 1.2, 0.2),
    ]
    static let edges: [Double] = [0, 8, 16, 32, 48, 64, 96, 128, 192, 256]

    /// Held 90 s tilted 12 degrees (scrolling) or at the reading angle
    /// (following, sampled more slowly).
    static func hold(_ hand: (name: String, sway: Double, tremor: Double), tilted: Bool) -> FeelScenario {
        let frames =
            tilted
            ? [
                MotionScript.Keyframe(0, pitch: 30), MotionScript.Keyframe(3, pitch: 30),
                MotionScript.Keyframe(3.5, pitch: 42), MotionScript.Keyframe(93.5, pitch: 42),
            ]
            : [MotionScript.Keyframe(0, pitch: 30), MotionScript.Keyframe(93.5, pitch: 30)]
        return FeelScenario(
            "hold", "held", script: MotionScript(frames, hand: Hand(swayDegrees: hand.sway, tremorDegrees: hand.tremor, seed: 1)),
            readingPitch: 30)
    }

    @Test(arguments: [SensorModel.fine, .kxcjk, .hidHub])
    func letGo(part: SensorModel) {
        for seed in 1...10 as ClosedRange<UInt64> {
            let scenario = FeelScenario.letGoOnStand
            let down = scenario.touchdowns[0]
            let (shadow, run) = scenario.shortWindows(sensor: part, seed: seed)
            let rest = run.transitions.first { $0.to == .resting }.map { $0.time - down } ?? -1
            let after = shadow.windows.filter { $0.time > down - 0.4 && $0.time < down + 3.5 }
            let text = after.map { "\(Int(($0.time - down) * 100)):\(Int($0.gate))\($0.still ? "S" : "")" }
            print("LETGO \(part) seed \(seed) rest \(rest): " + text.joined(separator: " "))
        }
    }

    @Test(arguments: SensorModel.parts + [.hidHub10Hz])
    func falseRests(part: SensorModel) {
        for hand in Self.hands {
            for tilted in [true, false] {
                var pauses: [Double] = []
                var unended = 0
                for seed in 1...60 as ClosedRange<UInt64> {
                    var settings = ScrollSettings()
                    settings.sampleRate = part.rate
                    let run = Self.hold(hand, tilted: tilted).runFollowingDemand(settings: settings, sensor: part, seed: seed)
                    for (i, t) in run.transitions.enumerated() where t.to == .resting {
                        if i + 1 < run.transitions.count { pauses.append(run.transitions[i + 1].time - t.time) } else { unended += 1 }
                    }
                }
                print("RESTS \(part) \(hand.name) \(tilted ? "tilted" : "reading"): \(pauses.count + unended) rests, pauses \(pauses.sorted().map { Int($0 * 100) }), unended \(unended)")
            }
        }
    }

    @Test(arguments: SensorModel.parts + [.hidHub10Hz])
    func measure(part: SensorModel) {
        var examined = Array(repeating: 0, count: Self.edges.count)
        var still = Array(repeating: 0, count: Self.edges.count)
        var mismatches = 0
        var lines: [String] = []
        for hand in Self.hands {
            for tilted in [true, false] {
                var e = 0
                var s128 = 0
                var top = 0.0
                for seed in 1...60 as ClosedRange<UInt64> {
                    let (shadow, run) = Self.hold(hand, tilted: tilted).shortWindows(sensor: part, seed: seed)
                    mismatches += shadow.mismatches
                    _ = run
                    for w in shadow.windows {
                        let bin = Self.edges.lastIndex { w.gate >= $0 } ?? 0
                        examined[bin] += 1
                        e += 1
                        if w.still {
                            still[bin] += 1
                            top = max(top, w.gate)
                            if w.gate >= 32 { s128 += 1; print("STILL \(part) \(hand.name) \(tilted) seed \(seed) t \(w.time) gate \(w.gate) turn \(w.afterTurn)") }
                        }
                    }
                }
                lines.append("  \(hand.name) \(tilted ? "tilted" : "reading"): \(e) windows, still>=32 \(s128), largest still gate \(top)")
            }
        }
        print("EXPOSURE \(part): mismatches \(mismatches)\n" + lines.joined(separator: "\n"))
        for (i, edge) in Self.edges.enumerated() {
            print("EXPOSURE \(part) gate >= \(edge): \(examined[i]) windows, \(still[i]) still")
        }
    }
}
