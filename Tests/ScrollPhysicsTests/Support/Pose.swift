import Foundation

@testable import ScrollPhysics
@testable import SyntheticMotion

/// Gravity as the accelerometer reads it for a device held a certain way,
/// written out independently of the code under test.
///
/// `away` is how far the top edge (of the edge that is up in `orientation`)
/// is tilted away from the user, from upright (0) through flat face up (90);
/// `rightDown` is the sideways tilt, positive when the right edge is lower.
enum Pose {
    static let g = 9.80665

    static func gravity(away: Double, rightDown: Double = 0, orientation: ScreenOrientation = .normal) -> Vector3 {
        let a = away * .pi / 180
        let r = rightDown * .pi / 180
        // In the user's frame: right, up, out of the screen.
        let right = sin(r)
        let up = -cos(r) * cos(a)
        let out = -cos(r) * sin(a)
        // Into display axes: which display axis is the user's right and up.
        let v: Vector3
        switch orientation {
        case .normal: v = Vector3(right, up, out)
        case .leftUp: v = Vector3(-up, right, out)  // up is -x, right is +y
        case .rightUp: v = Vector3(up, -right, out)  // up is +x, right is -y
        case .bottomUp: v = Vector3(-right, -up, out)  // up is -y, right is -x
        }
        return v * g
    }

    /// The same pose held in a hand (`Hand.typical`: sway below 1 Hz and
    /// tremor at 8-12 Hz on top) at time `t`. A pose held exactly still is a
    /// device lying on a table to the engine, which stops scrolling; tests
    /// of hand-held behaviour that hold a pose for seconds use this.
    static func held(
        away: Double, rightDown: Double = 0, orientation: ScreenOrientation = .normal, at t: Double
    ) -> Vector3 {
        let w = Hand.typical.wobble(at: t)
        return gravity(away: away + w.pitch, rightDown: rightDown + w.roll, orientation: orientation)
    }

    /// Gravity for a device upright-ish at `away`, turned in the screen plane
    /// by `turn` degrees clockwise from `.normal` (90 = left edge up).
    static func turned(_ turn: Double, away: Double = 0) -> Vector3 {
        let t = turn * .pi / 180
        let a = away * .pi / 180
        let inPlane = cos(a)
        // Normal: down is -y. Turning clockwise by t moves down towards +x.
        return Vector3(inPlane * sin(t), -inPlane * cos(t), -sin(a)) * g
    }
}
