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
    private var blocks = BlockClock()
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
        if blocks.closes(at: time) {
            close(at: time, learning: before == .holding || before == .following)
            // The same but for the last bits of the pitch (the engine's is
            // continued across +-180 degrees, a sum).
            let mine = hand.quietQuarter ?? -1
            let its = engine.intent.shortHand.quietQuarter ?? -1
            if abs(mine - its) > 1e-9 * abs(its) { mismatches += 1 }
        }
        let length = reading.length
        let pose = RawPose(gravity: reading, length: length, in: .normal)
        meter.add(pitch: pose.pitch / MathFunctions.degreesPerRadian, sinRoll: pose.sinRoll)
        blocks.add(deviation: JostleMeter.deviation(length / standardGravity), at: time)
    }

    private mutating func close(at time: Double, learning: Bool) {
        guard let (start, magnitude) = blocks.close(at: time) else { return }
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
/// noise (the gate `IntentGuard.handGone` holds a still window to), counting
/// every window of long holds, turned before or not: without a turn any
/// moment of a hold is exposed. Measured over 60 seeds (`Benchmarks/README.md`,
/// "The let-go without a turn"): no window still beyond 50.8 times, so a
/// short window without a turn would need a gate well above that, and a
/// typical hand let go where it is held stands only 16 to 82 times above a
/// 3 mg part's noise there. This keeps the margin in view on fewer seeds.
@Suite struct HandExposure {
    static let hands: [(name: String, hand: Hand)] = [
        ("very steady", Hand(swayDegrees: 0.15, tremorDegrees: 0.05, seed: 1)), ("steady", .steady),
        ("typical", .typical), ("shaky", Hand(swayDegrees: 1.2, tremorDegrees: 0.2, seed: 1)),
        ("testbed", .testbed(seed: 1)),
    ]

    /// Held 90 s tilted 12 degrees (scrolling, at the full rate) or at the
    /// reading angle (following, sampled more slowly).
    static func hold(_ hand: Hand, tilted: Bool) -> FeelScenario {
        let frames =
            tilted
            ? [
                MotionScript.Keyframe(0, pitch: 30), MotionScript.Keyframe(3, pitch: 30),
                MotionScript.Keyframe(3.5, pitch: 42), MotionScript.Keyframe(93.5, pitch: 42),
            ]
            : [MotionScript.Keyframe(0, pitch: 30), MotionScript.Keyframe(93.5, pitch: 30)]
        return FeelScenario("hold", "held 90 s", script: MotionScript(frames, hand: hand), readingPitch: 30)
    }

    /// Every hand, tilted and at the reading angle, 6 seeds: no short window
    /// a hand leaves still has its quiet sway 64 times above the window's
    /// noise (the most seen, over 60 seeds, is 50.8: a shaky hand at the
    /// reading angle, just after a turn), while on the quieter parts many
    /// windows are judged against a hand that clears 64. The shadow follows
    /// the engine's own hand exactly wherever the engine never rested (a
    /// rest starts the windows afresh; the shadow carries on).
    @Test(arguments: SensorModel.parts + [.hidHub10Hz])
    func aHoldingHandIsNeverStillWhereItsQuietSwayStandsSixtyFourTimesAboveTheNoise(part: SensorModel) {
        var judged = 0
        var clearing = 0
        var largestStill = 0.0
        for hand in Self.hands {
            for tilted in [true, false] {
                for seed in 1...6 as ClosedRange<UInt64> {
                    let (shadow, run) = Self.hold(hand.hand, tilted: tilted).shortWindows(sensor: part, seed: seed)
                    let label = "\(part) \(hand.name) \(tilted ? "tilted" : "reading") seed \(seed)"
                    if !run.transitions.contains(where: { $0.to == .resting }) {
                        #expect(shadow.mismatches == 0, "\(label): the shadow's hand left the engine's")
                    }
                    for w in shadow.windows {
                        if w.gate >= 64 { judged += 1 }
                        guard w.still else { continue }
                        largestStill = max(largestStill, w.gate)
                        if w.gate >= 64 {
                            clearing += 1
                            Issue.record("\(label): still at \(w.time) s, the hand \(w.gate) times the noise")
                        }
                    }
                }
            }
        }
        #expect(clearing == 0)
        #expect(largestStill < 64, "\(largestStill)")
        // Not vacuous where it matters: the 2 mg, 3 mg and 50 Hz hub parts
        // hold thousands of windows against a hand that clears 64.
        if part == .fine || part == .kxcjk || part == .hidHub { #expect(judged > 1000, "\(judged) judged") }
    }
}
