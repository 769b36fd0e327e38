import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct IntentGuardBehaviour {
    /// The table of `IntentGuard`'s doc comment, written out independently.
    static let transitions: [IntentState: [IntentGuard.Event: IntentState]] = [
        .holding: [.cameToRest: .resting, .steadied: .following, .jostleBegan: .jostled],
        .following: [.cameToRest: .resting, .unsteadied: .holding, .jostleBegan: .jostled],
        .jostled: [.cameToRest: .resting, .jostleEnded: .holding],
        .resting: [.lifted: .lifting, .moved: .holding],
        .lifting: [.cameToRest: .resting, .settled: .holding],
        .touched: [:],
    ]

    @Test func everyStateAndEventGoesWhereTheTableSays() {
        for state in IntentState.allCases {
            for event in IntentGuard.Event.allCases {
                #expect(
                    IntentGuard.next(after: state, on: event) == Self.transitions[state]?[event],
                    "\(state) --\(event)-->")
            }
        }
    }

    @Test func statesAndEventsHaveDistinctNamesForLogs() {
        #expect(Set(IntentState.allCases.map(\.name)).count == IntentState.allCases.count)
        #expect(Set(IntentGuard.Event.allCases.map(\.name)).count == IntentGuard.Event.allCases.count)
        #expect(IntentState.resting.name == "resting" && IntentState.touched.name == "touched")
        #expect(IntentState.following.name == "following")
    }

    @Test func onlyAHandThatMovesOrIsJostledScrolls() {
        #expect(IntentState.allCases.filter(\.allowsScrolling) == [.holding, .jostled])
    }

    @Test func aTouchIsALayerOverTheStateUnderneath() {
        var g = IntentGuard()
        g.configure(deadZoneDegrees: 4, horizontalDeadZoneDegrees: 8, pauseOnTouch: true)
        g.touch(true)
        #expect(g.state == .touched && !g.allowsScrolling)
        #expect(g.motion == .holding)
        g.touch(false)
        #expect(g.state == .holding && g.allowsScrolling)
        g.configure(deadZoneDegrees: 4, horizontalDeadZoneDegrees: 8, pauseOnTouch: false)
        g.touch(true)
        #expect(g.state == .holding, "without PauseOnTouch a contact changes nothing here")
    }

    @Test func resetKeepsTheTouchLayerAndTheLearntNoise() {
        var engine = ScrollEngine(settings: ScrollSettings())
        var random = SeededRandom(seed: 3)
        for i in 0..<200 {
            let t = Double(i) / 50
            engine.feed(Pose.gravity(away: 30) + Vector3(random.gaussian(sigma: 0.03), 0, 0), at: t)
        }
        engine.touch(true, at: 4)
        engine.halt()
        #expect(engine.readout.intent == .touched)
        engine.touch(false, at: 5)
        #expect(engine.readout.intent == .holding)
    }
}

/// A part whose axes are read one by one (lis3dh on a slow bus: 34 ms per
/// read, 10 samples a second) shows a quick change of pose as one sample
/// torn between the two poses, its magnitude off by 0.1 g or more. That is
/// not a put-down: the hand's next 1.4 s must not be judged as a table's.
@Suite struct TornSampleBehaviour {
    @Test func oneSampleTornBetweenTwoPosesIsNoPutDown() {
        var engine = ScrollEngine(settings: ScrollSettings())
        var random = SeededRandom(seed: 5)
        func noise() -> Vector3 { random.gaussianVector(sigma: 0.01) }
        var t = 0.0
        for _ in 0..<30 {
            engine.feed(Pose.gravity(away: 30) + noise(), at: t)
            t += 0.1
        }
        let before = Pose.gravity(away: 30)
        let after = Pose.gravity(away: 45)
        let torn = Vector3(before.x, before.y, after.z)
        #expect(abs(torn.length / standardGravity - 1) > 0.1, "the torn sample is off by more than a carry's threshold")
        engine.feed(torn, at: t)
        t += 0.1
        var states: Set<IntentState> = []
        for _ in 0..<35 {
            engine.feed(after + noise(), at: t)
            states.insert(engine.readout.intent)
            t += 0.1
        }
        #expect(!states.contains(.resting), "\(states)")
    }
}

@Suite struct SampleDemandBehaviour {
    @Test(arguments: [50.0, 100.0, 20.0, 10.0, 2.0])
    func followsTheStateWithinTheConfiguredRate(rate: Double) {
        var s = ScrollSettings()
        s.sampleRate = rate
        let engine = ScrollEngine(settings: s)
        #expect(engine.demandedRate(for: .holding) == rate)
        #expect(engine.demandedRate(for: .jostled) == rate)
        #expect(engine.demandedRate(for: .lifting) == rate)
        #expect(engine.demandedRate(for: .touched) == rate)
        #expect(engine.demandedRate(for: .resting) == min(rate, ScrollEngine.restingSampleRate))
        let held = engine.demandedRate(for: .following)
        #expect(held <= rate && held == min(rate, max(rate / 4, 10)))
        #expect(engine.sampleDemand == SampleDemand(rate: rate, state: .holding), "before any sample")
    }

    /// Put down: the demand drops to the resting rate; the daemon lowers the rate; the
    /// data never goes stale nor does the state flap; picked up, the demand
    /// is back to the full rate at the first sample that shows it.
    @Test func aDaemonThatFollowsTheDemandNeverGoesStale() {
        let scenario = FeelScenario.pickUpAtNewAngle
        var engine = ScrollEngine(settings: ScrollSettings())
        var source = SyntheticSensor(script: scenario.script(seed: 1), model: .kxcjk, seed: 1)
        var t = 0.0
        var rates: [(Double, Double)] = []
        while t < scenario.script.duration {
            engine.feed(source.acceleration(at: t), at: t)
            #expect(!engine.readout.isStale, "stale at \(t)")
            rates.append((t, engine.sampleDemand.rate))
            t += 1 / engine.sampleDemand.rate
        }
        #expect(
            rates.contains { $0.0 > 8 && $0.0 < 15 && $0.1 == ScrollEngine.restingSampleRate }, "resting on the table")
        let pickUp = rates.first { $0.0 > 15 && $0.1 == 50 }?.0 ?? 99
        #expect(pickUp < 15.5, "the pick-up is noticed within 0.5 s (at \(pickUp))")
    }

    @Test func aDaemonThatIgnoresTheDemandIsServedAsBefore() {
        // Every sample at 50 Hz, put down and left: it rests, and stale data
        // (the sensor gone silent) is still noticed in three of its periods.
        var engine = ScrollEngine(settings: ScrollSettings())
        var source = SyntheticSensor(script: FeelScenario.putDownFlat.script(seed: 1), model: .kxcjk, seed: 1)
        var t = 0.0
        while t < 20 {
            engine.feed(source.acceleration(at: t), at: t)
            t += 0.02
        }
        #expect(engine.readout.intent == .resting)
        #expect(engine.sampleDemand.rate == ScrollEngine.restingSampleRate)
        let period = 1 / ScrollEngine.restingSampleRate
        _ = engine.frame(at: t + 0.05)
        #expect(!engine.readout.isStale)
        _ = engine.frame(at: t + 2.5 * period)
        #expect(!engine.readout.isStale, "two and a half periods of the demanded rate")
        _ = engine.frame(at: t + 3.2 * period)
        #expect(engine.readout.isStale, "three periods of the demanded rate")
    }
}

@Suite struct NeutralPoseAfterAPickUp {
    @Test func awaitsStillnessKeepingTheDirectionAndConfirmsIt() {
        var n = NeutralPose()
        n.capture(Vector3(0, -1, -1), in: .normal)
        let direction = n.direction
        n.awaitStillness(anchor: Vector3(0, 0, -1), at: 10)
        #expect(!n.isSet)
        #expect(n.direction == direction)
        let early = n.settle(with: Vector3(0, 0, -9.8), at: 10.1)
        #expect(!early)
        let settled = n.settle(with: Vector3(0, 0, -9.8), at: 10.31)
        #expect(settled)
        n.confirm()
        #expect(n.isSet && n.direction == direction)
    }
}

/// Lying still, the first thing a lift shows is its acceleration: the
/// magnitude leaves 1 g before the tilt stands out of the noise. One such
/// sample is a carry there, so a slow resting rate still notices a pick-up
/// at its first sample; a tap on the table (a keyboard dock's keys, a few
/// hundredths of a g) is not.
@Suite struct LeavingRestBehaviour {
    /// An engine that has come to rest lying at its reading pose (the
    /// neutral one, well inside the dead zone), and the time of its next sample.
    private static func restingAtTheReadingPose() -> (ScrollEngine, Double, SeededRandom) {
        var engine = ScrollEngine(settings: ScrollSettings())
        var random = SeededRandom(seed: 11)
        var t = 0.0
        while t < 12 {
            let noise = random.gaussianVector(sigma: 0.02)
            engine.feed(Pose.gravity(away: 30) + noise, at: t)
            t += 1 / engine.sampleDemand.rate
        }
        return (engine, t, random)
    }

    @Test func oneSampleOffOneGIsALift() {
        var (engine, t, _) = Self.restingAtTheReadingPose()
        #expect(engine.readout.intent == .resting)
        engine.feed(Pose.gravity(away: 30) * 1.12, at: t)
        #expect(
            engine.readout.intent == .lifting,
            "a carry: lifting, though it lies inside the dead zone")
        #expect(engine.sampleDemand.rate == ScrollSettings().sampleRate)
    }

    /// Off the rest pose by a tilt alone (no carry), inside the dead zone
    /// of the neutral pose: a table never moves by itself, so it is a
    /// person picking it up (lifting at once, the full rate again, nothing
    /// scrolls), and where the hand then holds it is the neutral pose; a
    /// tilt from there scrolls.
    @Test func aDepartureFromRestIsAPickUpEvenWithoutACarry() {
        var (engine, t, _) = Self.restingAtTheReadingPose()
        #expect(engine.readout.intent == .resting)
        let rest = t
        var states: [(Double, IntentState)] = []
        var moved: [Double] = []
        func step(_ g: Vector3) {
            engine.feed(g, at: t)
            states.append((t - rest, engine.readout.intent))
            if engine.isFrameDue(at: t), let f = engine.frame(at: t), f.verticalHiRes != 0 { moved.append(t - rest) }
            t += 1 / engine.sampleDemand.rate
        }
        step(Pose.gravity(away: 42))
        #expect(states.first?.1 == .lifting, "a tilt alone off the rest pose is a pick-up")
        #expect(engine.sampleDemand.rate == ScrollSettings().sampleRate)
        while t < rest + 4 { step(Pose.held(away: 42, at: t)) }
        #expect(states.contains { $0.1 == .holding }, "settled in the hand")
        #expect(moved.isEmpty, "the pose it settled at is neutral: nothing scrolls on its own")
        let tilt = t
        while t < tilt + 2 { step(Pose.held(away: 54, at: t)) }
        #expect(moved.contains { $0 > tilt - rest }, "a tilt from the new neutral scrolls")
    }

    @Test func aTapOnTheTableLeavesItResting() {
        var (engine, t, random) = Self.restingAtTheReadingPose()
        #expect(engine.readout.intent == .resting)
        for i in 0..<20 {
            let noise = random.gaussianVector(sigma: 0.02)
            let tap = i % 4 == 0 ? 1.03 : 1.0
            engine.feed(Pose.gravity(away: 30) * tap + noise, at: t)
            t += 1 / engine.sampleDemand.rate
        }
        #expect(engine.readout.intent == .resting)
    }
}
