/// A gravity direction as the two angles that matter for scrolling, in the
/// user's frame of one orientation.
///
/// `pitch` is the rotation about the user's horizontal axis: 0 upright, +90
/// lying face up, growing as the top edge tilts away from the user. `roll` is
/// the rotation about the axis that runs up the screen: positive when the
/// right edge is lower. They are longitude and latitude on a sphere whose
/// poles are the user's left and right: pitch stays exact at any holding
/// angle, flat included, and a sideways tilt leaves it unchanged.
public struct PoseAngles: Equatable, Sendable {
    /// Degrees, (-180, 180].
    public var pitch: Double
    /// Degrees, [-90, 90].
    public var roll: Double

    public init(pitch: Double, roll: Double) {
        self.pitch = pitch
        self.roll = roll
    }

    /// The angles of `gravity` (any non-zero length) seen in `orientation`.
    @inline(__always)
    init(gravity: Vector3, in orientation: ScreenOrientation) {
        let c = orientation.userComponents(of: gravity)
        let upAndOut = (c.y * c.y + c.z * c.z).squareRoot()
        pitch = MathFunctions.atan2Degrees(-c.z, -c.y)
        roll = MathFunctions.atan2Degrees(c.x, upAndOut)
    }

    /// The unit gravity direction with these angles, in display axes.
    public func gravityDirection(in orientation: ScreenOrientation) -> Vector3 {
        let cosRoll = MathFunctions.cosine(degrees: roll)
        let user = Vector3(
            MathFunctions.sine(degrees: roll),
            -cosRoll * MathFunctions.cosine(degrees: pitch),
            -cosRoll * MathFunctions.sine(degrees: pitch))
        return orientation.displayVector(fromUser: user)
    }
}

/// The last accepted sample in the user's frame: its pitch is computed at
/// once, its roll only when something needs the angle (horizontal
/// scrolling, the readout). Thresholds on the roll are tested on its sine,
/// `RollBand`, which costs one division instead of an arctangent.
struct RawPose: Equatable, Sendable {
    /// Components (right, up, out of the screen).
    var user = Vector3(0, -1, 0)
    var length = 1.0
    var pitch = 0.0
    /// The sine of the roll, kept: the gesture guard, the intent guard and
    /// the pole check all ask for it.
    var sinRoll = 0.0

    init() {}

    @inline(__always)
    init(gravity: Vector3, length: Double, in orientation: ScreenOrientation) {
        user = orientation.userComponents(of: gravity)
        self.length = length
        pitch = MathFunctions.atan2Degrees(-user.z, -user.y)
        sinRoll = user.x / length
    }

    @inline(__always)
    var roll: Double { MathFunctions.atan2Degrees(user.x, (user.y * user.y + user.z * user.z).squareRoot()) }
    var angles: PoseAngles { PoseAngles(pitch: pitch, roll: roll) }
}

/// A band of roll angles [center - halfWidth, center + halfWidth] (clamped
/// to the poles), tested by the sine of the roll.
struct RollBand: Equatable, Sendable {
    var lowSine = -1.0
    var highSine = 1.0

    init() {}

    init(center: Double, halfWidth: Double) {
        lowSine = MathFunctions.sine(degrees: max(center - halfWidth, -90))
        highSine = MathFunctions.sine(degrees: min(center + halfWidth, 90))
    }

    @inline(__always)
    func contains(sine s: Double) -> Bool { s >= lowSine && s <= highSine }
}
