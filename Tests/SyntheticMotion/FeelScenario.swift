import ScrollPhysics

/// The situations the feel report and the intent tests play: a person
/// reading and tilting on purpose, putting the device down, picking it up,
/// slumping, walking, riding. Each is a `MotionScript` plus what the right
/// behaviour is, so a report can say how far a run is from it.
public struct FeelScenario: Sendable {
    public var name: String
    public var summary: String
    public var script: MotionScript
    /// The reading pose the person starts in (the engine's first neutral).
    public var readingPitch: Double
    /// Where nothing should be emitted: put down (from 2 s after the
    /// touchdown), picked up at a new angle, drifting, walking, riding,
    /// touched. Deliberate tilts out of the dead zone should scroll.
    public var unwanted: [ClosedRange<Double>]
    /// When the pose held becomes the neutral one in the script (a finger
    /// lifting with `ZeroOnTouch`): tilts are measured from it afterwards.
    public var rezero: (time: Double, pitch: Double)?

    public init(
        _ name: String, _ summary: String, script: MotionScript, readingPitch: Double,
        unwanted: [ClosedRange<Double>] = [], rezero: (time: Double, pitch: Double)? = nil
    ) {
        self.name = name
        self.summary = summary
        self.script = script
        self.readingPitch = readingPitch
        self.unwanted = unwanted
        self.rezero = rezero
    }

    /// The pitch tilts are measured from at `time`.
    public func neutralPitch(at time: Double) -> Double {
        if let r = rezero, time >= r.time { return r.pitch }
        return readingPitch
    }

    /// Times the device came to rest on a surface from a hand.
    public var touchdowns: [Double] {
        let k = script.keyframes
        return (1..<max(k.count, 1)).compactMap { i in
            k[i].holder == .surface && k[i - 1].holder == .hand ? k[i].time : nil
        }
    }

    /// Times a hand took the device up from a surface (the lift begins).
    public var pickUps: [Double] {
        let k = script.keyframes
        return (1..<max(k.count, 1)).compactMap { i in
            k[i].holder == .hand && k[i - 1].holder == .surface ? k[i].time : nil
        }
    }

    /// Deliberate tilts: when the intended pose leaves and re-enters the
    /// dead zone around the reading pose while a hand holds it throughout
    /// (1 ms resolution). A put-down leaves the dead zone too, but the device
    /// ends on a surface: that is no deliberate tilt; nor is a pick-up to a
    /// new angle (it leaves the dead zone within 1.5 s of the lift, and the
    /// pose the hand settles at is the neutral one).
    public func tiltEpisodes(deadZoneDegrees: Double) -> [(exit: Double, reentry: Double?)] {
        var episodes: [(exit: Double, reentry: Double?)] = []
        var exit: Double?
        var steps = 0
        let end = script.duration
        while Double(steps) * 0.001 <= end {
            let t = Double(steps) * 0.001
            steps += 1
            let out = abs(script.intendedPose(at: t).pitch - neutralPitch(at: t)) > deadZoneDegrees
            if out, exit == nil {
                exit = t
            } else if !out, let start = exit {
                exit = nil
                if !touchdowns.contains(where: { $0 >= start && $0 <= t }),
                    !pickUps.contains(where: { start >= $0 && start <= $0 + 1.5 })
                {
                    episodes.append((start, t))
                }
            }
        }
        if let start = exit, !touchdowns.contains(where: { $0 >= start }),
            !pickUps.contains(where: { start >= $0 && start <= $0 + 1.5 })
        {
            episodes.append((start, nil))
        }
        return episodes
    }

    /// Spans of at least 3 s where the hand holds a constant tilt outside the
    /// dead zone: where the speed should be even.
    public func holds(deadZoneDegrees: Double) -> [ClosedRange<Double>] {
        let k = script.keyframes
        var spans: [ClosedRange<Double>] = []
        for i in 0..<max(k.count - 1, 0) {
            let a = k[i]
            let b = k[i + 1]
            guard a.holder == .hand, a.pitch == b.pitch, a.roll == b.roll, b.time - a.time >= 3,
                abs(a.pitch - neutralPitch(at: b.time)) > deadZoneDegrees
            else { continue }
            spans.append(a.time...b.time)
        }
        return spans
    }
}

extension FeelScenario {
    private static func held(_ t: Double, _ pitch: Double) -> MotionScript.Keyframe {
        MotionScript.Keyframe(t, pitch: pitch)
    }
    private static func lying(_ t: Double, _ pitch: Double) -> MotionScript.Keyframe {
        MotionScript.Keyframe(t, pitch: pitch, .surface)
    }

    /// Read at 30 degrees, tilt `by` degrees (positive: away) over `over`
    /// seconds at 4 s, hold until 10 s, come back as fast, hold until 14 s.
    public static func deliberateTilt(
        _ name: String, by degrees: Double, over seconds: Double, hand: Hand = .typical
    ) -> FeelScenario {
        let summary =
            "read at 30, tilt \(degrees > 0 ? "away" : "towards") \(abs(degrees)) deg over \(seconds) s, hold 6 s, back"
        return FeelScenario(
            name, summary,
            script: MotionScript(
                [
                    held(0, 30), held(4, 30), held(4 + seconds, 30 + degrees), held(10, 30 + degrees),
                    held(10 + seconds, 30), held(14, 30),
                ], hand: hand),
            readingPitch: 30)
    }

    public static let tiltAway12 = deliberateTilt("tilt-away-12", by: 12, over: 0.5)
    public static let tiltToward8 = deliberateTilt("tilt-toward-8", by: -8, over: 0.4)
    public static let tiltAway20Fast = deliberateTilt("tilt-away-20-fast", by: 20, over: 0.3)
    /// Across the dead zone in about 2 s: still a deliberate tilt.
    public static let tiltAway10Slow = deliberateTilt("tilt-away-10-slow", by: 10, over: 2.5)

    /// A 30 s hold at 12 degrees with little sway.
    public static let hold30s = FeelScenario(
        "hold-12-for-30s", "read at 30, tilt away 12 deg at 3 s, hold 30 s with little sway, back",
        script: MotionScript(
            [held(0, 30), held(3, 30), held(3.5, 42), held(33.5, 42), held(34, 30), held(37, 30)], hand: .steady),
        readingPitch: 30)

    /// Reading at 35 degrees, then put down at `restPitch` and left for 30 s.
    public static func putDown(_ name: String, on what: String, at restPitch: Double, carriage: Carriage? = nil)
        -> FeelScenario
    {
        FeelScenario(
            name, "read at 35, put down \(what) (pitch \(restPitch)) at 3 s, left for 30 s",
            script: MotionScript(
                [held(0, 35), held(3, 35), lying(3.7, restPitch), lying(33.7, restPitch)],
                carriage: carriage.map { [(3.7...33.7, $0)] } ?? []),
            readingPitch: 35, unwanted: [(3.7 + 2)...Double.infinity])
    }

    public static let putDownFlat = putDown("put-down-flat", on: "flat on a table", at: 90)
    public static let putDownOnStand = putDown("put-down-stand", on: "leaned on a stand", at: 18)
    public static let putDownOnDock = putDown(
        "put-down-dock", on: "in a keyboard dock, typing", at: 20, carriage: .typing)

    /// Reading at 35 degrees (or held at `from`, tilted there at 2 s), then,
    /// at `start`, turned onto a surface at `restPitch` over `seconds` by a
    /// hand that neither lowers it nor lets it knock (no carry, no jolt: a
    /// pure rotation, `MotionScript.Keyframe.carried`), and left there for
    /// 20 s. The hand lets go when it arrives (`touchdowns`); from 2 s after
    /// that nothing may move.
    public static func putDownGently(
        _ name: String, _ what: String, from: Double = 35, to restPitch: Double, over seconds: Double,
        start: Double = 8, carriage: Carriage? = nil
    ) -> FeelScenario {
        var frames = [held(0, 35), held(2, 35)]
        if from != 35 { frames.append(held(2.5, from)) }
        let arrival = start + seconds
        frames += [
            held(start, from), MotionScript.Keyframe(arrival, pitch: restPitch, .surface, carried: false),
            lying(arrival + 20, restPitch),
        ]
        return FeelScenario(
            name,
            "read at 35\(from != 35 ? ", tilt to \(from) at 2 s" : ""), \(what) (pitch \(restPitch))"
                + " over \(seconds) s from \(start) s without a jolt, left for 20 s",
            script: MotionScript(frames, carriage: carriage.map { [(arrival...(arrival + 20), $0)] } ?? []),
            readingPitch: 35, unwanted: [(arrival + 2)...Double.infinity])
    }

    /// Laid back slowly from the reading angle to flat on a table.
    public static let putDownFlatSlowly = putDownGently(
        "gentle-flat-slow", "laid back onto a table", to: 90, over: 2.5)
    /// Laid back quickly to flat.
    public static let putDownFlatQuickly = putDownGently(
        "gentle-flat-fast", "laid back onto a table", to: 90, over: 0.6)
    /// Tipped back 10 degrees onto a stand, slowly and quickly.
    public static let tipOntoStandSlowly = putDownGently(
        "gentle-stand-slow", "tipped back onto a stand", to: 45, over: 1.5)
    public static let tipOntoStandQuickly = putDownGently(
        "gentle-stand-fast", "tipped back onto a stand", to: 45, over: 0.4)
    /// Scrolling at 47 (12 degrees away), then let go where it is: a
    /// stand takes it at that very pose, nothing turns, only the hand's
    /// sway and tremor stop.
    public static let letGoOnStand = putDownGently(
        "gentle-stand-still", "let go onto a stand where it is", from: 47, to: 47, over: 0.01)
    /// Into a keyboard dock 10 degrees towards the user, gently, then typing.
    public static let intoDockGently = putDownGently(
        "gentle-dock", "set into a keyboard dock, typing", to: 25, over: 0.8, carriage: .typing)

    /// The gentle put-downs, for the property tests and the report.
    public static let gentlePutDowns: [FeelScenario] = [
        putDownFlatSlowly, putDownFlatQuickly, tipOntoStandSlowly, tipOntoStandQuickly, letGoOnStand, intoDockGently,
    ]

    /// Read at 35, put down at `restPitch` (flat by default) at `putDown`,
    /// picked up at `lift` and held at `pitch`. `gently`: put down and
    /// picked up without a jolt (turned onto the surface over 1.2 s and off
    /// it, `MotionScript.Keyframe.carried`); then what scrolls while the
    /// hand takes it is not counted as unwanted for 1.5 s from the lift (it
    /// must not scroll on its own after that).
    public static func pickUp(
        _ name: String, to pitch: Double, thenTilt: Bool, putDown: Double = 3, lift: Double = 15,
        restPitch: Double = 90, gently: Bool = false
    ) -> FeelScenario {
        let holdEnd = lift + 5
        let arrival = putDown + (gently ? 1.2 : 0.7)
        var frames = [
            held(0, 35), held(putDown, 35),
            MotionScript.Keyframe(arrival, pitch: restPitch, .surface, carried: !gently),
            MotionScript.Keyframe(lift, pitch: restPitch, carried: !gently), held(lift + 0.8, pitch),
            held(holdEnd, pitch),
        ]
        if thenTilt {
            frames += [held(holdEnd + 0.5, pitch + 12), held(holdEnd + 4, pitch + 12), held(holdEnd + 4.5, pitch)]
        }
        frames.append(held(frames.last!.time + 4, pitch))
        let end = thenTilt ? holdEnd : Double.infinity
        return FeelScenario(
            name,
            "read at 35, put down at \(restPitch) at \(putDown) s, picked up at \(lift) s and held at \(pitch)"
                + (thenTilt ? ", tilted 12 deg away at \(holdEnd) s" : "") + (gently ? ", no jolt" : ""),
            script: MotionScript(frames), readingPitch: 35,
            unwanted: gently ? [(arrival + 2)...lift, (lift + 1.5)...end] : [(arrival + 2)...end],
            rezero: (lift + 0.8, pitch))
    }

    /// Read at 35, put down flat, picked up at 15 s at the old angle and,
    /// half a second after the lift, tilted 12 degrees away for 5 s: a hand
    /// held still right after a lift is still a hand.
    public static let pickUpAndTilt = FeelScenario(
        "pick-up-and-tilt", "read at 35, put down flat at 3 s, picked up at 15 s, tilted 12 deg away at 16.3 s for 5 s",
        script: MotionScript(
            [
                held(0, 35), held(3, 35), lying(3.7, 90), held(15, 90), held(15.8, 35), held(16.3, 35),
                held(16.6, 47), held(21.6, 47), held(21.9, 35), held(25, 35),
            ]),
        readingPitch: 35, unwanted: [(3.7 + 2)...16.3])

    public static let pickUpAtNewAngle = pickUp("pick-up-new-angle", to: 55, thenTilt: false)
    public static let pickUpAtOldAngle = pickUp("pick-up-old-angle", to: 35, thenTilt: true)
    /// Set on a stand at nearly the reading angle (37, inside the dead
    /// zone) after reading for 8 s, taken up again without a jolt at 20 s,
    /// held at 49 and tilted 12 further: the pose it settles at is neutral
    /// (before issue 20, a departure without a carry from a rest pose
    /// inside the dead zone kept the old neutral, and 49 scrolled).
    public static let pickUpGently = pickUp(
        "gentle-pick-up", to: 49, thenTilt: true, putDown: 8, lift: 20, restPitch: 37, gently: true)

    /// 6 degrees over a minute.
    public static let slowSlump = FeelScenario(
        "slow-slump", "read at 30, slumping 6 deg away over a minute, then staying so for 10 s",
        script: MotionScript([held(0, 30), held(2, 30), held(62, 36), held(72, 36)]),
        readingPitch: 30, unwanted: [0...Double.infinity])

    public static let walking = FeelScenario(
        "walking", "read at 30 while walking for 20 s (0.2 g bounce, 2 deg wobble)",
        script: MotionScript(
            [held(0, 30), held(21, 30)], carriage: [(1...21, .walking(bounceG: 0.2, wobbleDegrees: 2))]),
        readingPitch: 30, unwanted: [0...Double.infinity])

    public static let walkingWithTilt = FeelScenario(
        "walking-tilt", "read at 30 while walking, tilt away 15 deg at 8 s for 4 s",
        script: MotionScript(
            [held(0, 30), held(8, 30), held(8.5, 45), held(12, 45), held(12.5, 30), held(21, 30)],
            carriage: [(1...21, .walking(bounceG: 0.2, wobbleDegrees: 2))]),
        readingPitch: 30, unwanted: [0...7.9, 13.5...Double.infinity])

    public static let riding = FeelScenario(
        "riding", "read at 30 on a bumpy ride (bumps up to 1 g) for 30 s",
        script: MotionScript([held(0, 30), held(31, 30)], carriage: [(1...31, .riding())], seed: 7),
        readingPitch: 30, unwanted: [0...Double.infinity])

    /// Read at 30, scrolling at 42 from 3 s; a finger on the screen from 6 s
    /// to 8 s while the hand settles to 38; tilted 12 degrees further at 11 s.
    public static let touchAndScroll = FeelScenario(
        "touch-and-scroll",
        "read at 30, tilt away 12 at 3 s; touch 6-8 s while settling at 38; from 38 tilt 12 away at 11 s",
        script: MotionScript(
            [
                held(0, 30), held(3, 30), held(3.5, 42), held(6, 42), held(6.8, 38), held(11, 38), held(11.5, 50),
                held(16, 50), held(16.5, 38), held(19, 38),
            ], contacts: [6...8]),
        readingPitch: 30, unwanted: [(6 + 1.0 / 60)...10.9], rezero: (8, 38))

    /// Every scenario, in the feel report's order.
    public static let all: [FeelScenario] =
        [tiltAway12, tiltToward8, tiltAway20Fast, tiltAway10Slow, hold30s, putDownFlat, putDownOnStand, putDownOnDock]
        + gentlePutDowns + [
            pickUpAtNewAngle, pickUpAtOldAngle, pickUpAndTilt, pickUpGently, slowSlump, walking, walkingWithTilt,
            riding, touchAndScroll,
        ]
}
