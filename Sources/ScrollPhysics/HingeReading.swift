/// One look at the hinge of a 360-degree convertible: the angle between its
/// two halves from the gravity its two accelerometers read, or why this
/// pair of readings cannot show it.
///
/// The frames are systemd's (`hwdb.d/60-sensor.hwdb`, `ACCEL_LOCATION`):
/// each sensor's reading is taken through its own mount matrix; the
/// display's axes are those of `Vector3` (x towards the right edge, y
/// towards the top edge, z out of the screen), and the base's are such that
/// with the lid closed it reads exactly what the display reads. The hinge
/// runs along the display's bottom edge, its x axis. Opening the lid by an
/// angle turns the display's y and z about x against the base's, so one
/// and the same gravity reads `display = Rx(angle) * base`: equal along the
/// hinge, and turned by the angle across it. The angle is the one from the
/// base's cross-hinge component to the display's, 0 to 360: about 110 for a
/// laptop on a table, 180 opened flat, about 270-320 a tent or a stand, 360
/// folded back into a tablet.
///
/// Whatever accelerates both halves alike (a walk's bounce, a car) reads as
/// one vector in two frames, just as gravity does, and leaves the angle
/// true. What spoils it is what differs between the halves: the fold
/// itself, a twist or a swing whose rotation pushes one half more than the
/// other. Where that shows, as readings that are not one vector seen twice
/// (they differ along the hinge, or in length across it), the pair is
/// rejected: `halvesDisagree`. Where it does not (a push across gravity, in
/// the plane the lid turns in, only turns the reading, as the lid would),
/// the angle is off for a moment by the push over gravity in radians: the
/// detector's agreement over several readings is what absorbs that.
/// Three more things make a reading unusable: a magnitude far from 1 g (a
/// shake: `notGravity`), a hinge near vertical (gravity along the hinge has
/// no component across it to turn: `hingeNearVertical`), and the last 20
/// degrees either side of closed, where a lid just closed and a tablet
/// folded flat read the same (`closedOrFolded`: the angle is given, what it
/// means is the detector's business, `HingePostureDetector`).
public enum HingeReading: Equatable, Sendable, CustomStringConvertible {
    /// Nothing read yet.
    case none
    /// The halves are `degrees` apart, in [20, 340].
    case open(degrees: Double)
    /// Within `ambiguousDegrees` of 0 or 360: closed, or folded flat into
    /// a tablet; `degrees` as measured, in [0, 20) or (340, 360).
    case closedOrFolded(degrees: Double)
    /// No angle from this pair.
    case rejected(HingeRejection)

    /// A magnitude further than this from 1 g is a shake (ChromeOS allows
    /// 1.1 g on an axis; a walk's bounce reaches 0.15-0.2 g, and whatever
    /// accelerates both halves alike leaves the angle true, so the bound
    /// is for violent motion, whose rotation pushes the halves apart).
    public static let gravityToleranceG = 0.2
    /// The two readings must be one vector seen from two frames within
    /// this, g: along the hinge and in length across it (ChromeOS: the
    /// magnitudes within 1 m/s^2, about 0.1 g). A fold at 150 degrees/s
    /// pushes a display sensor 15 cm from the hinge by 0.1 g; a part's
    /// noise and offsets stay within a few hundredths.
    public static let halvesToleranceG = 0.1
    /// The least component of gravity across the hinge that shows the
    /// angle, g: half of gravity, a hinge at least 30 degrees from vertical
    /// (ChromeOS: 27 degrees). The angle's error grows as its inverse: noise
    /// and a mount matrix off by a degree count at most twice what they do
    /// with the hinge level.
    public static let acrossHingeMinimumG = 0.5
    /// How close to 0 or 360 degrees closed and folded cannot be told
    /// apart: ChromeOS's figure. A closed lid reads 0 plus the noise and the
    /// two parts' offsets, which may put it at 358; a tablet folded flat
    /// reads 360 minus the gap its halves leave, which may put it at 2.
    public static let ambiguousDegrees = 20.0

    /// The reading of one pair: `display` and `base` in m/s^2, each through
    /// its own mount matrix, taken at (nearly) the same moment.
    public static func measure(display: Vector3, base: Vector3) -> HingeReading {
        let d = display * (1 / standardGravity)
        let b = base * (1 / standardGravity)
        // x * 0 is NaN for an infinite or NaN x: one test for all six.
        guard d.x * 0 + d.y * 0 + d.z * 0 + b.x * 0 + b.y * 0 + b.z * 0 == 0 else {
            return .rejected(.notFinite)
        }
        let displayG = d.length
        let baseG = b.length
        let displayOff = abs(displayG - 1)
        let baseOff = abs(baseG - 1)
        guard displayOff <= gravityToleranceG, baseOff <= gravityToleranceG else {
            return .rejected(.notGravity(magnitudeG: displayOff >= baseOff ? displayG : baseG))
        }
        let displayAcross = (d.y * d.y + d.z * d.z).squareRoot()
        let baseAcross = (b.y * b.y + b.z * b.z).squareRoot()
        let alongDifference = d.x - b.x
        let acrossDifference = displayAcross - baseAcross
        let disagreement = alongDifference * alongDifference + acrossDifference * acrossDifference
        guard disagreement <= halvesToleranceG * halvesToleranceG else {
            return .rejected(.halvesDisagree(byG: disagreement.squareRoot()))
        }
        guard min(displayAcross, baseAcross) >= acrossHingeMinimumG else {
            let fromVertical = MathFunctions.atan2Degrees(displayAcross + baseAcross, abs(d.x + b.x))
            return .rejected(.hingeNearVertical(degreesFromVertical: fromVertical))
        }
        let degrees = angle(display: d, base: b)
        return isAmbiguous(degrees) ? .closedOrFolded(degrees: degrees) : .open(degrees: degrees)
    }

    /// The angle a pair shows under guards three times as loose: each
    /// magnitude within `roughToleranceG` of 1 g, the halves agreeing
    /// within as much, and the hinge at least 30 degrees from vertical;
    /// nil otherwise. Not to be trusted (a push of 0.3 g across the hinge
    /// turns a half's reading by up to 25 degrees), but enough to tell which
    /// half of the circle the lid was in while it moved too fast for a
    /// trusted reading (`HingeApproach`).
    public static func roughDegrees(display: Vector3, base: Vector3) -> Double? {
        let d = display * (1 / standardGravity)
        let b = base * (1 / standardGravity)
        let displayG = d.length
        let baseG = b.length
        guard abs(displayG - 1) <= roughToleranceG, abs(baseG - 1) <= roughToleranceG else { return nil }
        let displayAcross = (d.y * d.y + d.z * d.z).squareRoot()
        let baseAcross = (b.y * b.y + b.z * b.z).squareRoot()
        let alongDifference = d.x - b.x
        let acrossDifference = displayAcross - baseAcross
        guard
            alongDifference * alongDifference + acrossDifference * acrossDifference <= roughToleranceG
                * roughToleranceG,
            min(displayAcross, baseAcross) >= acrossHingeMinimumG
        else { return nil }
        return angle(display: d, base: b)
    }

    /// The looser guards of `roughDegrees`, g.
    public static let roughToleranceG = 0.3

    /// Whether `degrees` lies within `ambiguousDegrees` of 0 or 360.
    @inline(__always)
    public static func isAmbiguous(_ degrees: Double) -> Bool {
        degrees < ambiguousDegrees || degrees > 360 - ambiguousDegrees
    }

    /// From the base's cross-hinge component to the display's, [0, 360).
    @inline(__always)
    private static func angle(display d: Vector3, base b: Vector3) -> Double {
        let cross = b.y * d.z - b.z * d.y
        let dot = b.y * d.y + b.z * d.z
        var degrees = MathFunctions.atan2Degrees(cross, dot)
        if degrees < 0 { degrees += 360 }
        if degrees >= 360 { degrees -= 360 }
        return degrees
    }

    /// The angle read, trusted or not; nil without one.
    public var degrees: Double? {
        switch self {
        case .open(let degrees), .closedOrFolded(let degrees): degrees
        case .none, .rejected: nil
        }
    }

    /// `*_to_str` for logs.
    public var description: String {
        switch self {
        case .none: "none"
        case .open(let degrees): "open(\(FixedPoint.format(degrees, decimals: 1)) deg)"
        case .closedOrFolded(let degrees): "closed-or-folded(\(FixedPoint.format(degrees, decimals: 1)) deg)"
        case .rejected(let why): "rejected:\(why)"
        }
    }
}

/// Why a pair of readings shows no hinge angle.
public enum HingeRejection: Equatable, Sendable, CustomStringConvertible {
    /// A component is NaN or infinite (a driver glitch, a bad scale).
    case notFinite
    /// A time stamp is NaN or infinite.
    case timeNotFinite
    /// Earlier than the previous pair, by this many seconds.
    case timeWentBackwards(by: Double)
    /// The two readings were taken this many seconds apart: too far to be
    /// one moment (`HingePostureDetector.pairingSeconds`).
    case readingsApart(seconds: Double)
    /// Shaken: a magnitude this far from 1 g (the one further off), in g.
    case notGravity(magnitudeG: Double)
    /// One half moves against the other (a fold in progress, a twist, a
    /// swing): the readings are not one vector seen from two frames, by
    /// this much, in g.
    case halvesDisagree(byG: Double)
    /// The hinge is this many degrees from vertical: too little of gravity
    /// lies across it to show the angle.
    case hingeNearVertical(degreesFromVertical: Double)

    /// `*_to_str` for logs.
    public var description: String {
        switch self {
        case .notFinite: "not-finite"
        case .timeNotFinite: "time-not-finite"
        case .timeWentBackwards(let s): "time-went-backwards(\(FixedPoint.format(s, decimals: 4)) s)"
        case .readingsApart(let s): "readings-apart(\(FixedPoint.format(s, decimals: 3)) s)"
        case .notGravity(let g): "not-gravity(\(FixedPoint.format(g, decimals: 2)) g)"
        case .halvesDisagree(let g): "halves-disagree(\(FixedPoint.format(g, decimals: 2)) g)"
        case .hingeNearVertical(let d): "hinge-near-vertical(\(FixedPoint.format(d, decimals: 0)) deg)"
        }
    }
}
