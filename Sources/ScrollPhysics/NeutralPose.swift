/// The pose at which nothing scrolls: a 3-D gravity direction, and the
/// orientation whose frame it was taken in.
///
/// A direction rather than one axis value, so the tilt measured from it is
/// right at any holding angle, near flat included. Its life:
///
///     awaitingSample --first accepted sample--> set
///     set --recalibrate--> set (the current smoothed pose)
///     set --orientation changed--> settling --held still 0.3 s--> set
///     set --picked up after resting--> settling --held still 0.3 s--> set
///
/// After a rotation the user has changed grip and holds the device at a new
/// angle; the old neutral, even carried over into the new frame, would read
/// that as a tilt and scroll. So the engine carries it over (a fair guess
/// while waiting) and, without scrolling, waits for the device to be held
/// still within 3 degrees for 0.3 s; that pose becomes the neutral.
public struct NeutralPose: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// The next accepted sample becomes the neutral pose.
        case awaitingSample
        /// Waiting for the device to be still; `anchor` is where it has stayed since `since`.
        case settling(anchor: Vector3?, since: Double)
        case set

        /// `*_to_str` for logs.
        public var name: String {
            switch self {
            case .awaitingSample: "awaiting-sample"
            case .settling: "settling"
            case .set: "set"
            }
        }
    }

    /// How long the pose must hold still after a rotation.
    public static let settleSeconds = 0.3
    /// How still: the gravity direction stays within this angle of the anchor.
    public static let settleConeDegrees = 3.0
    private static let settleConeCosine = 0.9986295347545738  // cos 3

    public private(set) var state: State = .awaitingSample {
        didSet {
            if case .set = state { isSet = true } else { isSet = false }
        }
    }
    /// `state == .set`, kept stored: the engine asks several times a sample.
    public private(set) var isSet = false
    /// Unit gravity direction in display axes; provisional while settling.
    public private(set) var direction: Vector3?
    /// The frame `direction` belongs to; nil for a restored direction that
    /// lies too flat to say (a flat pose is neutral in every orientation).
    public private(set) var orientation: ScreenOrientation?

    public init() {}

    /// Makes `gravity` (any non-zero length) the neutral pose of `orientation`.
    public mutating func capture(_ gravity: Vector3, in orientation: ScreenOrientation) {
        guard let unit = gravity.normalized else { return }
        direction = unit
        self.orientation = orientation
        state = .set
    }

    /// A persisted direction; ignored unless finite and non-zero.
    public mutating func restore(_ gravity: Vector3) -> Bool {
        guard gravity.x.isFinite, gravity.y.isFinite, gravity.z.isFinite, let unit = gravity.normalized else {
            return false
        }
        direction = unit
        let (nearest, down) = ScreenOrientation.nearest(to: unit)
        orientation = down >= 0.17364817766693033 ? nearest : nil  // sin 10 degrees
        state = .set
        return true
    }

    /// Forget the neutral pose: the next accepted sample becomes it.
    public mutating func awaitSample() {
        state = .awaitingSample
    }

    /// The orientation in use is now `orientation`: carry the direction over
    /// (same pitch and roll in the user's new frame) and settle.
    public mutating func reframe(to newOrientation: ScreenOrientation, anchor: Vector3?, at time: Double) {
        guard let unit = direction else { return }
        if let old = orientation, old != newOrientation {
            direction = newOrientation.displayVector(fromUser: old.userComponents(of: unit))
        }
        orientation = newOrientation
        if state != .awaitingSample { state = .settling(anchor: anchor?.normalized, since: time) }
    }

    /// Picked up after resting: keep the direction (provisional) and settle,
    /// from `anchor` at `time`.
    public mutating func awaitStillness(anchor: Vector3?, at time: Double) {
        guard direction != nil else { return }
        state = .settling(anchor: anchor?.normalized, since: time)
    }

    /// Settled near the provisional direction: it is the neutral pose again.
    public mutating func confirm() {
        if direction != nil { state = .set }
    }

    /// Binds a frame-less (flat) neutral to the orientation in use.
    public mutating func adopt(_ orientation: ScreenOrientation) {
        if self.orientation == nil, direction != nil { self.orientation = orientation }
    }

    /// Settling: feeds one accepted sample; returns true once the device has
    /// been still long enough (the caller then captures the settled pose).
    public mutating func settle(with gravity: Vector3, at time: Double) -> Bool {
        guard case .settling(let anchor, let since) = state else { return false }
        let length = gravity.length
        guard length > 0 else { return false }
        let unit = gravity * (1 / length)
        guard let anchor, anchor.dot(unit) >= Self.settleConeCosine else {
            state = .settling(anchor: unit, since: time)
            return false
        }
        return time - since >= Self.settleSeconds
    }
}
