/// Why a sample was not used.
public enum SampleRejection: Equatable, Sendable, CustomStringConvertible {
    /// A component is NaN or infinite (a driver glitch, a bad scale).
    case notFinite
    /// The magnitude is too far from 1 g to be gravity: the device is being
    /// shaken, carried, or was bumped. Carries the magnitude in g.
    case notGravity(magnitudeG: Double)
    /// The time stamp is NaN or infinite.
    case timeNotFinite
    /// The time stamp is earlier than the previous sample's, by this many seconds.
    case timeWentBackwards(by: Double)

    /// `*_to_str` for logs; no allocation beyond the string itself.
    public var description: String {
        switch self {
        case .notFinite: "not-finite"
        case .notGravity(let g): "not-gravity(\(FixedPoint.format(g, decimals: 2)) g)"
        case .timeNotFinite: "time-not-finite"
        case .timeWentBackwards(let s): "time-went-backwards(\(FixedPoint.format(s, decimals: 4)) s)"
        }
    }
}

/// What happened to the last sample fed to the engine.
public enum SampleVerdict: Equatable, Sendable, CustomStringConvertible {
    case none
    case accepted
    case rejected(SampleRejection)

    public var description: String {
        switch self {
        case .none: "none"
        case .accepted: "accepted"
        case .rejected(let why): "rejected:\(why)"
        }
    }
}

/// What the engine sees, for `--dry-run`, `--demo`, `--monitor` and logs.
///
/// Angles are degrees from the neutral pose in the user's frame of the
/// current orientation; speeds are detents per second with the kernel's
/// wheel signs (vertical positive scrolls up, towards the start of the
/// document; horizontal positive scrolls right).
public struct ScrollReadout: Equatable, Sendable {
    /// The latest time the engine has seen (sample, frame or recalibration), seconds.
    public var time: Double?
    /// Forward tilt of the last accepted sample: positive when the top edge is
    /// further away from the user than at neutral.
    public var tiltDegrees: Double
    /// The same after the 1-euro filter: what the transfer curve sees.
    public var smoothedTiltDegrees: Double
    /// Sideways tilt: positive when the right edge is lower than at neutral.
    public var horizontalTiltDegrees: Double
    /// The same after the 1-euro filter; equal to the raw one while horizontal
    /// scrolling is off (nothing then needs it smoothed, so it is not filtered).
    public var smoothedHorizontalTiltDegrees: Double
    /// Current vertical speed (`REL_WHEEL` sign), detents/s.
    public var speed: Double
    /// Current horizontal speed (`REL_HWHEEL` sign), detents/s.
    public var horizontalSpeed: Double
    /// The speeds the tilt asks for; the current ones follow within the acceleration limit.
    public var targetSpeed: Double
    public var targetHorizontalSpeed: Double
    public var orientation: ScreenOrientation
    /// A different orientation is held but its dwell has not elapsed.
    public var orientationPending: Bool
    public var lastSample: SampleVerdict
    /// Magnitude of the last sample with finite components, in g.
    public var lastMagnitudeG: Double
    /// No usable data (none yet, the sensor silent for three periods, or
    /// every sample rejected for half a second): nothing scrolls.
    public var isStale: Bool
    public var neutral: NeutralPose.State
    public var isNeutralSet: Bool { neutral == .set }
    /// False after a sideways tilt too large to be a scroll gesture (a
    /// rotation in progress), until the device comes back near neutral.
    public var gestureArmed: Bool
    /// Whether the person means to scroll (`IntentGuard`): holding, resting, touched, ...
    public var intent: IntentState
    /// Integral of the speed since the engine started, hi-res units.
    public var verticalDistance: Double
    public var horizontalDistance: Double
}

/// How often the engine needs samples (`ScrollEngine.sampleDemand`).
public struct SampleDemand: Equatable, Sendable, CustomStringConvertible {
    /// Samples per second.
    public var rate: Double
    /// The intent state it follows from.
    public var state: IntentState

    public init(rate: Double, state: IntentState) {
        self.rate = rate
        self.state = state
    }

    public var description: String { "\(FixedPoint.format(rate, decimals: 2)) Hz (\(state.name))" }
}
