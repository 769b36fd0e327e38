import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// Issue 20: put down or picked up without a jolt, it still never scrolls
/// on its own. Synthetic people (`FeelScenario.putDownGently`,
/// `FeelScenario.pickUp(gently:)`: the hand turns the device onto a surface
/// or off it, neither lowering nor lifting it, and nothing knocks), read as
/// the daemon reads them when it follows the engine's demand, over seeds
/// (the hand's sway, the sensor's noise and timing) and over when the
/// put-down falls between two closes of the stillness meter's blocks.
///
/// How soon the hand's going is told depends on how far its sway stands
/// above the part's noise (`IntentGuard`, `HandSway`): on the 2 and 3 mg
/// parts a typical hand (0.6 degrees of sway) shows in the short window
/// (1.4 s), on the 6 mg part in the medium one (2.8 s), on the hub in
/// hundredths of a g mostly in the short one, and at 10 Hz mostly only the
/// long one (5.6 s) tells it.
@Suite struct GentleRest {
    /// The put-downs that turn the device onto its surface: laid back flat
    /// slowly and quickly, tipped 10 degrees back onto a stand slowly and
    /// quickly, 10 degrees forward into a dock's angle, halfway to flat on
    /// a lap.
    static let turns: [(name: String, to: Double, over: Double)] = [
        ("flat-slow", 90, 2.5), ("flat-fast", 90, 0.6), ("stand-slow", 45, 1.5), ("stand-fast", 45, 0.4),
        ("forward", 25, 1.0), ("lap", 60, 1.2),
    ]
    /// When the put-down begins, after reading 8 s: five steps across one
    /// block (0.35 s), so the touchdown falls anywhere between two closes.
    static let starts = (0..<5).map { 8 + Double($0) * 0.07 }
    static let seeds = 1...6 as ClosedRange<UInt64>

    private func settings(_ part: SensorModel) -> ScrollSettings {
        var s = ScrollSettings()
        s.sampleRate = part.rate
        return s
    }

    /// Every turned put-down by a typical hand, seed by seed and start by
    /// start: seconds from the hand letting go to the last frame that moved.
    private func restStops(_ part: SensorModel, hand: Hand = .typical) -> [(label: String, seconds: Double)] {
        var stops: [(label: String, seconds: Double)] = []
        for turn in Self.turns {
            for start in Self.starts {
                var scenario = FeelScenario.putDownGently(
                    turn.name, "put down", to: turn.to, over: turn.over, start: start)
                scenario.script.hand = hand
                for seed in Self.seeds {
                    let (m, _) = scenario.measureFollowingDemand(settings: settings(part), sensor: part, seed: seed)
                    for s in m.restStops { stops.append(("\(turn.name) start \(start) seed \(seed)", s)) }
                }
            }
        }
        return stops
    }

    /// A part quiet enough for a typical hand's sway to stand out in the
    /// short window (2 mg of noise at 50 Hz): whatever the turn, no frame
    /// later than 2 s after the hand lets go.
    @Test func onAQuietPartAGentlePutDownStopsWithinTwoSeconds() {
        let stops = restStops(.fine)
        #expect(stops.count == Self.turns.count * Self.starts.count * Self.seeds.count)
        for s in stops where s.seconds > 2 { Issue.record("\(s.label): \(s.seconds) s") }
    }

    /// The kxcjk-like part (3 mg): most typical hands stand out in the
    /// short window (within 2 s); the rest in the medium one (3.3 s).
    @Test func onAThreeMilligPartAGentlePutDownStopsWithinTwoSecondsMostly() {
        let stops = restStops(.kxcjk)
        let withinTwo = stops.filter { $0.seconds <= 2 }.count
        #expect(Double(withinTwo) >= 0.7 * Double(stops.count), "\(withinTwo) of \(stops.count) within 2 s")
        for s in stops where s.seconds > 3.3 { Issue.record("\(s.label): \(s.seconds) s") }
    }

    /// The 6 mg part: the medium window tells a typical hand's going
    /// (within 3.3 s) for most, the long one for the rest.
    @Test func onANoisierPartTheMediumWindowTellsMost() {
        let stops = restStops(.noisy)
        let withinMedium = stops.filter { $0.seconds <= 3.3 }.count
        #expect(Double(withinMedium) >= 0.6 * Double(stops.count), "\(withinMedium) of \(stops.count) within 3.3 s")
        for s in stops where s.seconds > 8.2 { Issue.record("\(s.label): \(s.seconds) s, past the long window") }
    }

    /// The hub in hundredths of a g at 50 Hz, lying flat too, where it
    /// repeats most readings: counted as readings (a surface's repeat is
    /// evidence of stillness, `WindowSums.everyReading`), its noise and the
    /// hand's sway are what they are, and a typical hand's going shows in
    /// the short window (within 2 s) for most put-downs, in the medium one
    /// (within 3.3 s) for the rest. Before, lying flat, only the long
    /// window told it (6-8 s).
    @Test func onTheHubAtFiftyHertzAGentlePutDownStopsWithinTwoSecondsMostly() {
        let stops = restStops(.hidHub)
        let withinTwo = stops.filter { $0.seconds <= 2 }.count
        #expect(Double(withinTwo) >= 0.5 * Double(stops.count), "\(withinTwo) of \(stops.count) within 2 s")
        for s in stops where s.seconds > 3.3 { Issue.record("\(s.label): \(s.seconds) s") }
        let flat = stops.filter { $0.label.hasPrefix("flat") }
        #expect(flat.count == 2 * Self.starts.count * Self.seeds.count)
    }

    /// Whatever the part, a gentle put-down is told by the long window at
    /// the latest: 5.6 s of stillness, a block to begin it, a long block to
    /// close it in (8.2 s), as before (the 10 Hz hub's typical hand sways
    /// too little above its hundredths of a g for anything shorter).
    @Test func onTheTenHertzHubTheLongWindowTellsIt() {
        for s in restStops(.hidHub10Hz) where s.seconds > 8.2 { Issue.record("\(s.label): \(s.seconds) s") }
    }

    /// Held tilted by a steady hand or a typical one, over tilts, a 30 s
    /// hold, a pick-up and a touch, ten seeds each: never taken for a
    /// table while tilted (a rest there stops the scrolling). A rest the
    /// hand's going decided inside the dead zone, where nothing scrolls, is
    /// undone when the sway shows again (`moved`), within the provisional
    /// time.
    /// (The 10 Hz hub is left out: there the long window itself takes a
    /// typical hand for a table now and then, as before this guard.)
    @Test(arguments: SensorModel.parts)
    func aHandHoldingATiltIsNeverTakenForATable(part: SensorModel) {
        let scenarios: [FeelScenario] = [
            .tiltAway12, .tiltToward8, .tiltAway20Fast, .tiltAway10Slow, .hold30s, .pickUpAndTilt, .touchAndScroll,
        ]
        for scenario in scenarios {
            for seed in 1...10 as ClosedRange<UInt64> {
                let run = scenario.runFollowingDemand(settings: settings(part), sensor: part, seed: seed)
                let touchdowns = scenario.touchdowns
                for (i, t) in run.transitions.enumerated() where t.to == .resting {
                    guard !touchdowns.contains(where: { t.time > $0 && t.time < $0 + 9 }) else { continue }
                    let before = i > 0 ? run.transitions[i - 1].to : .holding
                    #expect(
                        before != .holding && before != .jostled, "\(scenario.name) seed \(seed): rested at \(t.time)")
                    let after = i + 1 < run.transitions.count ? run.transitions[i + 1] : nil
                    #expect(
                        after.map { $0.to == .holding && $0.time - t.time <= IntentGuard.confirmSeconds } ?? false,
                        "\(scenario.name) seed \(seed): a rest at \(t.time) in the hand was not undone")
                }
            }
        }
    }

    /// A hand that tilts and holds, again and again (10 turns a run, each
    /// followed by 4-6 s held still: the moments a put-down is looked for),
    /// on a part whose noise is within a count, where repeats count as
    /// readings: a steady hand (0.3 degrees of sway) and a typical one,
    /// 20 seeds each, never rest.
    @Test(arguments: [Hand.steady, .typical])
    func onTheHubAHandThatTiltsAndHoldsIsNeverTakenForATable(hand: Hand) {
        var frames = [MotionScript.Keyframe(0, pitch: 35), MotionScript.Keyframe(2, pitch: 35)]
        var t = 2.0
        for away in [12.0, -8, 15, 10, -12] {
            frames += [
                MotionScript.Keyframe(t + 0.5, pitch: 35 + away), MotionScript.Keyframe(t + 6.5, pitch: 35 + away),
                MotionScript.Keyframe(t + 7, pitch: 35), MotionScript.Keyframe(t + 11, pitch: 35),
            ]
            t += 11
        }
        let scenario = FeelScenario(
            "tilts-and-holds", "tilts and holds", script: MotionScript(frames, hand: hand), readingPitch: 35)
        for seed in 1...20 as ClosedRange<UInt64> {
            let run = scenario.runFollowingDemand(settings: settings(.hidHub), sensor: .hidHub, seed: seed)
            let rests = run.transitions.filter { $0.to == .resting }
            #expect(rests.isEmpty, "sway \(hand.swayDegrees) seed \(seed): rested at \(rests.map(\.time))")
        }
    }

    /// Set on a stand at nearly the reading angle (inside the dead zone)
    /// and taken up again without a jolt (no carry either way), held at a
    /// new angle 12 degrees from the stand's: the pose it settles at in the
    /// hand is neutral, so nothing scrolls on its own from 1.5 s after the
    /// lift, and a tilt of 12 degrees from there scrolls with the onset of
    /// any deliberate tilt. Over seeds and lift times across one resting
    /// period.
    @Test(arguments: SensorModel.parts + [.hidHub10Hz])
    func aGentlePickUpMakesThePoseItSettlesAtNeutral(part: SensorModel) {
        let period = 1 / ScrollEngine.restingSampleRate
        for step in 0..<4 {
            let lift = 20 + Double(step) / 4 * period
            let scenario = FeelScenario.pickUp(
                "gentle-pick-up", to: 49, thenTilt: true, putDown: 8, lift: lift, restPitch: 37, gently: true)
            for seed in 1...3 as ClosedRange<UInt64> {
                let (m, run) = scenario.measureFollowingDemand(settings: settings(part), sensor: part, seed: seed)
                let label = "\(part) lift \(lift) seed \(seed)"
                #expect(run.transitions.contains { $0.to == .resting && $0.time < lift }, "\(label): it rested first")
                #expect(
                    m.pickUpScrolls.count == 1 && m.pickUpScrolls.allSatisfy { $0 <= 1.5 },
                    "\(label): \(m.pickUpScrolls)")
                #expect(m.tilts.count == 1, "\(label)")
                // As any deliberate tilt from holding still: about 0.12-0.2 s (0.25 at 10 Hz).
                #expect((m.tilts.first?.onsetLatency ?? 9) < (part.rate < 20 ? 0.3 : 0.25), "\(label): \(m.tilts)")
                #expect(m.detents >= 6, "\(label)")
            }
        }
    }
}
