import ScrollPhysics

/// A 360-degree convertible handled by a person, as its two accelerometers
/// read it: the display held as `display` says (a hand's sway and tremor,
/// put down, carried), the lid open by an angle that moves keyframe by
/// keyframe, eased as a hand moves.
///
/// The frames are systemd's (60-sensor.hwdb, `ACCEL_LOCATION`), both
/// readings through their mount matrices: the display's axes are
/// `Vector3`'s (x along the hinge, y to the top edge, z out of the screen);
/// with the lid closed the base reads what the display reads, and opening
/// it by an angle turns the display about x, so the base reads the
/// display's reading turned back about x by the angle. The whole device
/// sways and is carried as one; the fold itself moves the display's sensor
/// only, `sensorRadius` from the hinge: pulled towards the hinge by the
/// angular rate squared, pushed across the screen by its change.
public struct HingedMotion: Sendable {
    /// The lid open by `degrees` at `time`.
    public struct Fold: Equatable, Sendable {
        public var time: Double
        public var degrees: Double

        public init(_ time: Double, degrees: Double) {
            self.time = time
            self.degrees = degrees
        }
    }

    /// How the display is held.
    public var display: MotionScript
    /// The hinge angle's keyframes, in time order.
    public var folds: [Fold]
    /// How far the display's sensor sits from the hinge, metres.
    public var sensorRadius = 0.15

    public init(display: MotionScript, folds: [Fold]) {
        self.display = display
        self.folds = folds
    }

    /// The hinge angle at `time`, degrees.
    public func hinge(at time: Double) -> Double {
        var i = 0
        while i + 1 < folds.count, folds[i + 1].time <= time { i += 1 }
        let a = folds[i]
        guard i + 1 < folds.count else { return a.degrees }
        let b = folds[i + 1]
        return a.degrees + (b.degrees - a.degrees) * ease(time, a.time, b.time)
    }

    /// What an ideal display sensor reads at `time`, m/s^2.
    public func displayAcceleration(at time: Double) -> Vector3 {
        let h = 0.005
        let before = hinge(at: time - h)
        let now = hinge(at: time)
        let after = hinge(at: time + h)
        let omega = (after - before) / (2 * h) / MathFunctions.degreesPerRadian
        let alpha = (after - 2 * now + before) / (h * h) / MathFunctions.degreesPerRadian
        // Circling the hinge: accelerated towards it (-y) by omega^2 r and
        // along the screen's normal by alpha r; a reading shows minus the
        // acceleration.
        let pushed = Vector3(0, omega * omega * sensorRadius, -alpha * sensorRadius)
        return display.acceleration(at: time) + pushed
    }

    /// What an ideal base sensor reads at `time`, m/s^2.
    public func baseAcceleration(at time: Double) -> Vector3 {
        Self.turnedAboutHinge(display.acceleration(at: time), by: -hinge(at: time))
    }

    /// `v` turned about x by `degrees` (y towards z).
    public static func turnedAboutHinge(_ v: Vector3, by degrees: Double) -> Vector3 {
        let c = MathFunctions.cosine(degrees: degrees)
        let s = MathFunctions.sine(degrees: degrees)
        return Vector3(v.x, c * v.y - s * v.z, s * v.y + c * v.z)
    }

    /// One part's reading of `v`: its white noise and its resolution, m/s^2.
    public static func read(_ v: Vector3, by part: SensorModel, _ random: inout SeededRandom) -> Vector3 {
        let n = v + random.gaussianVector(sigma: part.noise)
        func counts(_ x: Double) -> Double { (x / part.scale).rounded() * part.scale }
        return Vector3(counts(n.x), counts(n.y), counts(n.z))
    }
}
