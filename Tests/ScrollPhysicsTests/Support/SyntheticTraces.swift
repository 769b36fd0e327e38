import Foundation

@testable import ScrollPhysics
@testable import SyntheticMotion

/// The synthetic traces under Traces/, and how each was made: a motion in
/// display axes, sensor noise from a seeded generator, then the inverse of
/// the trace's own calibration (mount matrix, scale, offset) and rounding to
/// the integers a real `in_accel_*_raw` gives. The files are the test input;
/// `GoldenTraces.syntheticTracesAreUpToDate` checks they still match this.
struct SyntheticTrace: Sendable {
    var name: String
    var comments: [String]
    var rate: Double
    var duration: Double
    var scale: Vector3
    var offset: Vector3 = .zero
    var matrix: MountMatrix = .identity
    var noise: Double = 0.04  // m/s^2 per axis
    var seed: UInt64
    /// Gravity plus any other acceleration at time t, display axes, m/s^2; nil: no sample.
    var motion: @Sendable (Double) -> Vector3?

    var trace: Trace {
        var random = SeededRandom(seed: seed)
        var raw: [(time: Double, raw: Vector3)] = []
        var i = 0
        while Double(i) / rate <= duration + 1e-9 {
            let t = Double(i) / rate
            i += 1
            guard let a = motion(t) else { continue }
            let noisy = a + random.gaussianVector(sigma: noise)
            // The matrices used here are orthogonal: the inverse is the transpose.
            let m = matrix.rows
            let sensor = Vector3(
                m[0].x * noisy.x + m[1].x * noisy.y + m[2].x * noisy.z,
                m[0].y * noisy.x + m[1].y * noisy.y + m[2].y * noisy.z,
                m[0].z * noisy.x + m[1].z * noisy.y + m[2].z * noisy.z)
            let counts = Vector3(
                (sensor.x / scale.x - offset.x).rounded(), (sensor.y / scale.y - offset.y).rounded(),
                (sensor.z / scale.z - offset.z).rounded())
            raw.append(((t * 1000).rounded() / 1000, counts))
        }
        return Trace(scale: scale, offset: offset, mountMatrix: matrix, raw: raw)
    }

    var text: String { trace.text(comments: ["synthetic: " + name] + comments) }

    static let all: [SyntheticTrace] = [
        SyntheticTrace(
            name: "tilt-away-and-back",
            comments: [
                "50 Hz, 0.009582 m/s^2 per count (a 12-bit +-2 g part)",
                "held 25 degrees back from upright for 1 s, tilted 20 degrees further away over 0.5 s,",
                "held 1.5 s, brought back over 0.5 s, held 1.5 s",
            ],
            rate: 50, duration: 5, scale: Vector3(0.009582, 0.009582, 0.009582), seed: 101,
            motion: { t in Pose.gravity(away: 25 + 20 * ease(t, 1, 1.5) - 20 * ease(t, 3, 3.5)) }),
        SyntheticTrace(
            name: "hid-10hz-toward-user",
            comments: [
                "10 Hz like a HID sensor hub, 0.0980665 m/s^2 per count (centi-g)",
                "held 40 degrees back for 1 s, brought 18 degrees towards the user over 0.6 s, held 2.4 s",
            ],
            rate: 10, duration: 4, scale: Vector3(0.0980665, 0.0980665, 0.0980665), noise: 0.05, seed: 202,
            motion: { t in Pose.gravity(away: 40 - 18 * ease(t, 1, 1.6)) }),
        SyntheticTrace(
            name: "rotate-to-landscape",
            comments: [
                "50 Hz, sensor mounted rotated and mirrored (matrix below), raw offset",
                "held 20 degrees back for 1 s, turned to left-up over 0.6 s while re-gripping 10 degrees",
                "further back, held; from 3.5 s tilted 20 degrees away over 0.5 s, held 1.5 s, brought back",
            ],
            rate: 50, duration: 7, scale: Vector3(0.0023942, 0.0023942, 0.0023942), offset: Vector3(3, -2, 1),
            matrix: try! MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1"), seed: 303,
            motion: { t in
                Pose.turned(
                    90 * ease(t, 1, 1.6), away: 20 + 10 * ease(t, 1, 1.6) + 20 * ease(t, 3.5, 4) - 20 * ease(t, 5.5, 6))
            }),
        SyntheticTrace(
            name: "shake-and-silence",
            comments: [
                "50 Hz; held 30 degrees back, tilted 25 degrees away at 0.5 s; shaken hard (+-1.2 g at 6 Hz)",
                "from 1.5 s to 2 s; then the sensor goes silent at 3 s while the device is still tilted",
            ],
            rate: 50, duration: 3, scale: Vector3(0.009582, 0.009582, 0.009582), seed: 404,
            motion: { t in
                let g = Pose.gravity(away: 30 + 25 * ease(t, 0.5, 0.9))
                guard t >= 1.5, t < 2 else { return g }
                return g + Vector3(0, 0, 1.2 * 9.81 * sin(2 * .pi * 6 * t))
            }),
        SyntheticTrace(
            name: "flat-on-lap",
            comments: [
                "50 Hz; lying almost flat (80 degrees back); right edge down 15 degrees at 1 s, back at 2.5 s;",
                "left edge down 15 degrees at 3.5 s, back at 5 s; top edge raised 15 degrees at 6 s, back at 7.5 s",
            ],
            rate: 50, duration: 9, scale: Vector3(0.009582, 0.009582, 0.009582), seed: 505,
            motion: { t in
                let side = 15 * (ease(t, 1, 1.4) - ease(t, 2.5, 2.9) - ease(t, 3.5, 3.9) + ease(t, 5, 5.4))
                return Pose.gravity(away: 80 - 15 * ease(t, 6, 6.4) + 15 * ease(t, 7.5, 7.9), rightDown: side)
            }),
    ]
}
