/// Which display edge is up, from gravity, with hysteresis and a dwell time.
///
/// iio-sensor-proxy decides from one sample at a time: it switches once the
/// angle on the other axis passes 35 degrees (keeping its state in the
/// diagonal band), with no time filter and no check that the sample is
/// gravity at all, so a bump or a quick wobble rotates the screen. This
/// tracker differs in four ways:
///
/// - It measures the angle of gravity within the screen plane, so a device
///   held reclined switches at the same rotation as an upright one.
/// - Hysteresis: leaving an orientation takes an in-plane turn of more than
///   60 degrees from its "down" (15 degrees past the diagonal), and the new up
///   edge must be at least 25 degrees above horizontal, so a device lying
///   nearly flat, or tilted sideways to scroll, keeps its orientation.
/// - Dwell: the new orientation must hold on every accepted sample for
///   0.3 s before it is taken; a wobble shorter than that never flips it.
/// - It only sees samples that passed the 1 g check (`ScrollEngine` filters
///   them), so shaking and bumps are not evidence.
///
/// With `.fixed` the orientation is pinned and nothing is tracked.
///
/// Gravity alone cannot tell a rotation in the screen plane of a reclined
/// device from a sideways tilt plus a forward tilt; the dwell and the
/// engine's gesture guard keep the two apart in practice.
public struct OrientationTracker: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// No sample yet; `orientation` reads as `.normal` until the first one.
        case undetermined
        case stable(ScreenOrientation)
        /// Gravity has pointed towards `candidate` since `since`; the dwell is running.
        case pending(current: ScreenOrientation, candidate: ScreenOrientation, since: Double)

        /// `*_to_str` for logs.
        public var name: String {
            switch self {
            case .undetermined: "undetermined"
            case .stable: "stable"
            case .pending: "pending"
            }
        }
    }

    /// In-plane turn away from the current down beyond which another orientation may take over.
    public static let switchAngleDegrees = 60.0
    /// Minimum elevation of the new up edge above horizontal.
    public static let minimumEdgeElevationDegrees = 25.0
    /// Minimum elevation for the first sample to decide; below it (lying flat) we start in `.normal`.
    public static let initialEdgeElevationDegrees = 10.0
    /// How long the new orientation must hold.
    public static let dwellSeconds = 0.3

    // Cosines and sines of the angles above, written out so that no
    // trigonometry runs per sample.
    private static let switchCosine = 0.5  // cos 60
    private static let minimumElevationSine = 0.42261826174069944  // sin 25
    private static let initialElevationSine = 0.17364817766693033  // sin 10

    public private(set) var state: State = .undetermined
    public private(set) var setting: OrientationSetting
    private var lastTime: Double = 0

    public init(setting: OrientationSetting) {
        self.setting = setting
        if case .fixed(let o) = setting { state = .stable(o) }
    }

    /// The orientation in use.
    public var orientation: ScreenOrientation {
        switch state {
        case .undetermined: .normal
        case .stable(let o): o
        case .pending(let current, _, _): current
        }
    }

    /// Whether a different orientation is being considered: the device is
    /// probably being rotated, which is no scroll gesture.
    public var isPending: Bool {
        if case .pending = state { return true }
        return false
    }

    /// Whether at least one sample decided the orientation (or it is pinned).
    public var isDetermined: Bool {
        if case .undetermined = state { return false }
        return true
    }

    /// Changes the setting; returns true when the orientation in use changed.
    public mutating func apply(_ newSetting: OrientationSetting) -> Bool {
        let before = orientation
        let wasDetermined = isDetermined
        setting = newSetting
        switch newSetting {
        case .fixed(let o): state = .stable(o)
        case .auto: if case .pending(let current, _, _) = state { state = .stable(current) }
        }
        return wasDetermined && orientation != before
    }

    /// Abandon a pending switch (samples stopped, device lost).
    public mutating func cancelPending() {
        if case .pending(let current, _, _) = state { state = .stable(current) }
    }

    /// Feeds one accepted gravity sample (any non-zero length). Returns true
    /// when the orientation in use changed, including the first decision.
    /// `maximumGap` is the longest silence that still counts as continuous
    /// evidence for the dwell.
    public mutating func update(gravity g: Vector3, at time: Double, maximumGap: Double) -> Bool {
        update(gravity: g, magnitude: g.length, at: time, maximumGap: maximumGap)
    }

    /// `update(gravity:at:maximumGap:)` with |g| already known.
    @inline(__always)
    mutating func update(gravity g: Vector3, magnitude: Double, at time: Double, maximumGap: Double) -> Bool {
        guard case .auto = setting else { return false }
        let gap = time - lastTime
        lastTime = time
        guard magnitude > 0 else { return false }
        // The common case: gravity well within 60 degrees of the current down
        // (down >= |g| cos 60 >= in-plane cos 60): nothing to consider.
        if case .stable(let current) = state, current.downComponent(of: g) >= Self.switchCosine * magnitude {
            return false
        }
        let (nearest, nearestDown) = ScreenOrientation.nearest(to: g)
        switch state {
        case .undetermined:
            state = .stable(nearestDown >= Self.initialElevationSine * magnitude ? nearest : .normal)
            return orientation != .normal
        case .stable(let current):
            if let candidate = candidate(current: current, g, magnitude, nearest, nearestDown) {
                state = .pending(current: current, candidate: candidate, since: time)
            }
            return false
        case .pending(let current, let pendingCandidate, let since):
            guard let candidate = candidate(current: current, g, magnitude, nearest, nearestDown) else {
                state = .stable(current)
                return false
            }
            if candidate != pendingCandidate || gap > maximumGap {
                state = .pending(current: current, candidate: candidate, since: time)
                return false
            }
            if time - since >= Self.dwellSeconds {
                state = .stable(candidate)
                return true
            }
            return false
        }
    }

    /// The orientation gravity argues for, if it is far enough from `current`.
    @inline(__always)
    private func candidate(
        current: ScreenOrientation, _ g: Vector3, _ magnitude: Double,
        _ nearest: ScreenOrientation, _ nearestDown: Double
    ) -> ScreenOrientation? {
        guard nearest != current, nearestDown >= Self.minimumElevationSine * magnitude else { return nil }
        let inPlane = (g.x * g.x + g.y * g.y).squareRoot()
        // Turned more than 60 degrees in the plane away from the current down.
        guard current.downComponent(of: g) < Self.switchCosine * inPlane else { return nil }
        return nearest
    }
}
