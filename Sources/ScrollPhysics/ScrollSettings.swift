/// Which edge of the display points up, after the mount matrix.
public enum ScreenOrientation: String, CaseIterable, Equatable, Sendable {
    /// Top edge up: gravity reads (0, -g, 0).
    case normal
    /// Left edge up: gravity reads (+g, 0, 0).
    case leftUp = "left-up"
    /// Right edge up: gravity reads (-g, 0, 0).
    case rightUp = "right-up"
    /// Bottom edge up: gravity reads (0, +g, 0).
    case bottomUp = "bottom-up"
}

/// `[Scroll] Orientation=`: follow the screen's rotation, or pin one.
public enum OrientationSetting: Equatable, Sendable {
    case auto
    case fixed(ScreenOrientation)
}

/// Everything that shapes how tilt becomes scrolling. Units are in the names
/// or the comments; defaults are documented in tiltscroll.conf(5) and come
/// from the studies in the field notes (small angles of 2-13 degrees are what
/// people use; rate control with a dead zone of 3-6 degrees, full speed at
/// 25-30 degrees, a curve exponent of 1.5-2).
public struct ScrollSettings: Equatable, Sendable {
    /// Detents per second at full tilt (`Speed=`).
    public var speed: Double = 12
    /// Degrees around neutral that never scroll (`DeadZone=`).
    public var deadZoneDegrees: Double = 4
    /// Degrees from neutral at which the speed reaches `speed` (`MaxTilt=`).
    public var maxTiltDegrees: Double = 25
    /// Exponent of the response curve between the dead zone and `MaxTilt` (`Curve=`).
    public var curve: Double = 1.7
    /// Reverse the vertical direction (`Invert=`).
    public var invert: Bool = false
    /// Scroll horizontally from sideways tilt (`Horizontal=`).
    public var horizontal: Bool = false
    /// Dead zone of the sideways tilt, degrees (`HorizontalDeadZone=`).
    public var horizontalDeadZoneDegrees: Double = 8
    /// Follow the screen rotation or pin it (`Orientation=`).
    public var orientation: OrientationSetting = .auto
    /// 1-euro filter: cutoff frequency at rest, Hz (`SmoothingCutoff=`); lower is smoother.
    public var smoothingMinCutoff: Double = 1.0
    /// 1-euro filter: how fast the cutoff rises with angular speed (`SmoothingBeta=`); higher is less lag.
    public var smoothingBeta: Double = 0.02
    /// Milliseconds the speed takes to decay after returning to neutral; 0 disables inertia (`Inertia=`).
    public var inertiaMilliseconds: Double = 0
    /// Largest change of speed per second, detents/s^2, so scrolling starts and stops smoothly (`Acceleration=`).
    public var maxAcceleration: Double = 60
    /// Frames per second while scrolling (`OutputRate=`).
    public var outputRate: Double = 60
    /// Samples whose magnitude differs from 1 g by more than this fraction are ignored (`GravityTolerance=`).
    public var gravityTolerance: Double = 0.25
    /// Expected sensor rate, Hz; data older than three periods is stale.
    public var sampleRate: Double = 50

    public init() {}
}
