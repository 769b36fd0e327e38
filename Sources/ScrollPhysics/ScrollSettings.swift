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
///
/// Each property maps 1:1 onto a configuration key and names its valid range
/// (the `...Range` constants below, for the configuration parser). Besides the
/// per-key ranges, both dead zones must be less than `MaxTilt`
/// (`inconsistency` says so). `ScrollEngine` never trusts a value it is given:
/// it works with `sanitized()`, so an out-of-range or non-finite setting can
/// degrade the feel but never crash or run away.
public struct ScrollSettings: Equatable, Sendable {
    /// Detents per second at full tilt (`Speed=`), 0...1000; 0 turns scrolling off.
    public var speed: Double = 12
    /// Degrees around neutral that never scroll (`DeadZone=`), 0...45, less than `MaxTilt`.
    public var deadZoneDegrees: Double = 4
    /// Degrees from neutral at which the speed reaches `speed` (`MaxTilt=`), 1...90.
    public var maxTiltDegrees: Double = 25
    /// Exponent of the response curve between the dead zone and `MaxTilt` (`Curve=`), 0.25...5;
    /// 1 is linear, above 1 gives finer control at small angles.
    public var curve: Double = 1.7
    /// Reverse the vertical direction (`Invert=`).
    public var invert: Bool = false
    /// Scroll horizontally from sideways tilt (`Horizontal=`).
    public var horizontal: Bool = false
    /// Dead zone of the sideways tilt, degrees (`HorizontalDeadZone=`), 0...45, less than `MaxTilt`.
    /// Wider than the vertical one so that the small sideways wobble of a
    /// forward tilt does not scroll sideways.
    public var horizontalDeadZoneDegrees: Double = 8
    /// Follow the screen rotation or pin it (`Orientation=`).
    public var orientation: OrientationSetting = .auto
    /// 1-euro filter: cutoff frequency at rest, Hz (`SmoothingCutoff=`), 0.01...100; lower is smoother.
    public var smoothingMinCutoff: Double = 1.0
    /// 1-euro filter: how fast the cutoff rises with angular speed (`SmoothingBeta=`), 0...10, in Hz
    /// per degree/second of tilt speed; higher is less lag.
    public var smoothingBeta: Double = 0.02
    /// Milliseconds the speed takes to decay from full speed to zero after returning to neutral;
    /// 0 disables inertia (`Inertia=`), 0...5000.
    public var inertiaMilliseconds: Double = 0
    /// Largest change of speed per second, detents/s^2, so scrolling starts and stops smoothly
    /// (`Acceleration=`), 1...100000.
    public var maxAcceleration: Double = 60
    /// Frames per second while scrolling (`OutputRate=`), 10...500.
    public var outputRate: Double = 60
    /// Samples whose magnitude differs from 1 g by more than this fraction are ignored
    /// (`GravityTolerance=`), 0.01...0.9.
    public var gravityTolerance: Double = 0.25
    /// Expected sensor rate, Hz (`[Device] SampleRate=`), 1...1000: the full rate the engine asks
    /// for (`ScrollEngine.sampleDemand`); data older than three periods of the rate delivered is stale.
    public var sampleRate: Double = 50
    /// While a finger or pen is on a touchscreen or tablet, tilt does not scroll
    /// (`[Scroll] PauseOnTouch=`, yes or no): the hand is scrolling then. The pause
    /// begins within one output frame of `ScrollEngine.touch(true, at:)`.
    public var pauseOnTouch: Bool = true
    /// When the last contact lifts, the pose held then becomes the neutral one
    /// (`[Scroll] ZeroOnTouch=`, yes or no), so that after scrolling by hand the
    /// reader goes on from the angle they hold, without a jump.
    public var zeroOnTouch: Bool = true

    public init() {}
}

extension ScrollSettings {
    public static let speedRange: ClosedRange<Double> = 0...1000
    public static let deadZoneRange: ClosedRange<Double> = 0...45
    public static let maxTiltRange: ClosedRange<Double> = 1...90
    public static let curveRange: ClosedRange<Double> = 0.25...5
    public static let horizontalDeadZoneRange: ClosedRange<Double> = 0...45
    public static let smoothingMinCutoffRange: ClosedRange<Double> = 0.01...100
    public static let smoothingBetaRange: ClosedRange<Double> = 0...10
    public static let inertiaRange: ClosedRange<Double> = 0...5000
    public static let maxAccelerationRange: ClosedRange<Double> = 1...100_000
    public static let outputRateRange: ClosedRange<Double> = 10...500
    public static let gravityToleranceRange: ClosedRange<Double> = 0.01...0.9
    public static let sampleRateRange: ClosedRange<Double> = 1...1000

    /// A problem between keys that each are in range, phrased for a user
    /// ("DeadZone=30 must be less than MaxTilt=25"), or nil.
    public var inconsistency: String? {
        if deadZoneDegrees >= maxTiltDegrees {
            return "DeadZone=\(deadZoneDegrees) must be less than MaxTilt=\(maxTiltDegrees)"
        }
        if horizontalDeadZoneDegrees >= maxTiltDegrees {
            return "HorizontalDeadZone=\(horizontalDeadZoneDegrees) must be less than MaxTilt=\(maxTiltDegrees)"
        }
        return nil
    }

    /// These settings with every value brought into its range (a non-finite
    /// value becomes the default) and `MaxTilt` raised above both dead zones.
    public func sanitized() -> ScrollSettings {
        let defaults = ScrollSettings()
        func fit(_ value: Double, _ range: ClosedRange<Double>, _ fallback: Double) -> Double {
            guard value.isFinite else { return fallback }
            return min(max(value, range.lowerBound), range.upperBound)
        }
        var s = self
        s.speed = fit(speed, Self.speedRange, defaults.speed)
        s.deadZoneDegrees = fit(deadZoneDegrees, Self.deadZoneRange, defaults.deadZoneDegrees)
        s.maxTiltDegrees = fit(maxTiltDegrees, Self.maxTiltRange, defaults.maxTiltDegrees)
        s.curve = fit(curve, Self.curveRange, defaults.curve)
        s.horizontalDeadZoneDegrees = fit(
            horizontalDeadZoneDegrees, Self.horizontalDeadZoneRange, defaults.horizontalDeadZoneDegrees)
        s.smoothingMinCutoff = fit(smoothingMinCutoff, Self.smoothingMinCutoffRange, defaults.smoothingMinCutoff)
        s.smoothingBeta = fit(smoothingBeta, Self.smoothingBetaRange, defaults.smoothingBeta)
        s.inertiaMilliseconds = fit(inertiaMilliseconds, Self.inertiaRange, defaults.inertiaMilliseconds)
        s.maxAcceleration = fit(maxAcceleration, Self.maxAccelerationRange, defaults.maxAcceleration)
        s.outputRate = fit(outputRate, Self.outputRateRange, defaults.outputRate)
        s.gravityTolerance = fit(gravityTolerance, Self.gravityToleranceRange, defaults.gravityTolerance)
        s.sampleRate = fit(sampleRate, Self.sampleRateRange, defaults.sampleRate)
        let widestDeadZone = max(s.deadZoneDegrees, s.horizontalDeadZoneDegrees)
        if s.maxTiltDegrees <= widestDeadZone { s.maxTiltDegrees = widestDeadZone + 1 }
        return s
    }

    /// Three periods of the configured sensor rate: how long silence lasts
    /// before the data is stale at that rate. The engine itself counts in
    /// the periods it is actually delivered (`DataFreshness`), which may be
    /// longer while it asks for fewer samples.
    public var staleAfterSeconds: Double { 3 / sampleRate }
}
