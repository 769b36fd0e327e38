@testable import ScrollPhysics
@testable import SyntheticMotion

/// Golden traces of synthetic people, made from the model in
/// `Tests/SyntheticMotion` (sway, tremor, a sensor part's noise and
/// resolution, put-down, pick-up, walking, a finger on the screen; the
/// figures and their sources are in `HumanMotion.swift`). Regenerated like
/// the other synthetic traces (`GoldenTraces`).
struct HumanTrace: Sendable {
    var name: String
    var comments: [String]
    var script: MotionScript
    var sensor: SensorModel
    var seed: UInt64

    var trace: Trace {
        var source = SyntheticSensor(script: script, model: sensor, seed: seed)
        return source.trace()
    }

    var text: String {
        trace.text(comments: ["synthetic person: " + name, "sensor: " + sensor.name] + comments)
    }

    private static func held(_ t: Double, _ pitch: Double) -> MotionScript.Keyframe {
        MotionScript.Keyframe(t, pitch: pitch)
    }

    static let putDownAndPickUp = HumanTrace(
        name: "put-down-and-pick-up",
        comments: [
            "a hand reads at 35 degrees; puts the device down flat at 2 s (lowered 20 cm, a knock);",
            "picks it up at 8 s and holds it at 50; tilts it 12 further away at 11 s, back at 13 s",
        ],
        script: MotionScript(
            [
                held(0, 35), held(2, 35), MotionScript.Keyframe(2.7, pitch: 90, .surface), held(8, 90), held(8.8, 50),
                held(11, 50), held(11.5, 62), held(13, 62), held(13.5, 50), held(15, 50),
            ], hand: Hand(swayDegrees: 0.6, tremorDegrees: 0.1, seed: 11)),
        sensor: .kxcjk, seed: 606)

    static let walkAndTouch = HumanTrace(
        name: "walk-and-touch",
        comments: [
            "a hand reads at 30 degrees; walks from 1 s to 7 s (0.2 g bounce, 2 degrees of wobble) and tilts",
            "15 degrees away from 3 s to 5 s on the way; a finger on the screen from 8 s to 9 s while the hand",
            "settles at 36; from there a tilt 12 degrees away at 10.5 s, back at 12 s",
        ],
        script: MotionScript(
            [
                held(0, 30), held(3, 30), held(3.5, 45), held(5, 45), held(5.5, 30), held(8, 30), held(8.6, 36),
                held(10.5, 36), held(11, 48), held(12, 48), held(12.5, 36), held(14, 36),
            ], hand: Hand(swayDegrees: 0.6, tremorDegrees: 0.1, seed: 12),
            carriage: [(1...7, .walking(bounceG: 0.2, wobbleDegrees: 2))], contacts: [8...9]),
        sensor: .fine, seed: 707)

    static let all = [putDownAndPickUp, walkAndTouch]
}
