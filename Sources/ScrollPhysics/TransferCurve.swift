/// Rate control: how fast to scroll for a tilt angle.
///
/// v = maxSpeed * sign(t) * clamp((|t| - deadZone) / (maxTilt - deadZone), 0, 1)^exponent.
/// The dead zone is subtracted rather than cut out, so the speed rises from
/// zero at its edge with no jump; at `maxTilt` and beyond it is `maxSpeed`.
public struct TransferCurve: Equatable, Sendable {
    public var deadZoneDegrees: Double
    public var maxTiltDegrees: Double
    public var exponent: Double
    /// Detents per second at and beyond `maxTiltDegrees`.
    public var maxSpeed: Double

    public init(deadZoneDegrees: Double, maxTiltDegrees: Double, exponent: Double, maxSpeed: Double) {
        self.deadZoneDegrees = deadZoneDegrees
        self.maxTiltDegrees = maxTiltDegrees
        self.exponent = exponent
        self.maxSpeed = maxSpeed
    }

    /// Signed speed, detents per second, with the sign of `tiltDegrees`;
    /// exactly 0 inside the dead zone and for a non-finite angle.
    @inline(__always)
    public func speed(forTilt tiltDegrees: Double) -> Double {
        let magnitude = abs(tiltDegrees)
        guard magnitude > deadZoneDegrees else { return 0 }  // false for NaN too
        let span = maxTiltDegrees - deadZoneDegrees
        let fraction = span > 0 ? min((magnitude - deadZoneDegrees) / span, 1) : 1
        let shaped = exponent == 1 ? fraction : MathFunctions.power(fraction, exponent)
        let v = maxSpeed * shaped
        return tiltDegrees < 0 ? -v : v
    }
}
