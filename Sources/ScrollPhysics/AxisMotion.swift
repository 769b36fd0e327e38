/// How the speed of one wheel axis may change on its way to the speed the
/// tilt asks for.
public struct MotionLimits: Equatable, Sendable {
    /// Largest change of speed, detents/s^2: starts and stops are ramps, never steps.
    public var acceleration: Double
    /// Inertia time constant, seconds; 0 turns inertia off.
    public var inertiaTimeConstant: Double
    /// Constant friction while coasting, detents/s^2, so a coast ends at a
    /// definite time instead of creeping forever.
    public var inertiaFriction: Double

    public init(acceleration: Double, inertiaTimeConstant: Double = 0, inertiaFriction: Double = 0) {
        self.acceleration = acceleration
        self.inertiaTimeConstant = inertiaTimeConstant
        self.inertiaFriction = inertiaFriction
    }

    /// The limits for `settings` (already sanitized).
    ///
    /// Inertia: while slowing down the speed follows dv/dt = -(v - target) / tau - friction,
    /// an exponential decay that friction brings to rest in finite time and
    /// that can never overshoot. tau = Inertia / 2 and
    /// friction = Speed / (tau (e^2 - 1)) make a coast from full speed to rest
    /// last exactly `Inertia` milliseconds (when the acceleration limit does
    /// not cut it shorter: the deceleration never exceeds `acceleration`).
    public init(settings: ScrollSettings) {
        acceleration = settings.maxAcceleration
        guard settings.inertiaMilliseconds > 0 else {
            inertiaTimeConstant = 0
            inertiaFriction = 0
            return
        }
        let tau = settings.inertiaMilliseconds / 2000
        inertiaTimeConstant = tau
        let eSquaredMinusOne = 6.38905609893065  // e^2 - 1
        inertiaFriction = max(settings.speed / (tau * eSquaredMinusOne), 1e-6)
    }

    public var hasInertia: Bool { inertiaTimeConstant > 0 }
}

/// The speed of one wheel axis over time: it follows `target` within the
/// limits and integrates exactly into distance.
///
/// Between two changes of target the motion is a fixed function of time, and
/// `advance(by:)` integrates it in closed form (ramps and the inertia
/// exponential), so the distance travelled from A to C equals the distance
/// from A to B plus B to C whatever B is: the output does not depend on when
/// frames are taken.
public struct AxisMotion: Equatable, Sendable {
    /// Current speed, detents/s.
    public private(set) var speed: Double = 0
    /// The speed the tilt asks for, detents/s.
    public var target: Double = 0
    /// While set, the axis brakes to `target` at this constant rate, with no
    /// inertia: used when the data went stale.
    public var emergencyDeceleration: Double?

    public init() {}

    /// Whether anything moves or is about to.
    @inline(__always)
    public var isMoving: Bool { speed != 0 || target != 0 }

    /// Stop dead (device gone, deactivation).
    public mutating func stop() {
        speed = 0
        target = 0
        emergencyDeceleration = nil
    }

    /// Lets `seconds` pass and returns the distance travelled in detents.
    @inline(__always)
    public mutating func advance(by seconds: Double, limits: MotionLimits) -> Double {
        guard seconds > 0 else { return 0 }
        // Cruising (or at rest): nothing to solve.
        if speed == target { return speed * seconds }
        // The common case, here so that it costs no call, in closed form: a
        // plain ramp towards the target (no braking for a reversal, no
        // inertia to coast on, no emergency).
        let reversing = speed != 0 && target != 0 && (target > 0) != (speed > 0)
        if emergencyDeceleration == nil, !reversing, !limits.hasInertia || !(abs(target) < abs(speed)) {
            let gap = target - speed
            let reachIn = abs(gap) / limits.acceleration
            if reachIn >= seconds {
                let a = gap > 0 ? limits.acceleration : -limits.acceleration
                let d = speed * seconds + a * seconds * seconds / 2
                speed += a * seconds
                return d
            }
            let d = (speed + target) / 2 * reachIn + target * (seconds - reachIn)
            speed = target
            return d
        }
        return changeSpeed(over: seconds, limits: limits)
    }

    /// Everything but the plain ramp of `advance(by:limits:)`.
    private mutating func changeSpeed(over seconds: Double, limits: MotionLimits) -> Double {
        let reversing = speed != 0 && target != 0 && (target > 0) != (speed > 0)
        let slowing = !reversing && abs(target) < abs(speed)
        if emergencyDeceleration == nil, slowing, limits.hasInertia,
            abs(speed - target) <= limits.inertiaTimeConstant * (limits.acceleration - limits.inertiaFriction)
        {
            // Coasting within the acceleration limit: one exponential segment,
            // then cruising at the target if it comes to rest in time.
            var remaining = seconds
            let d = coast(towards: target, limits: limits, within: &remaining)
            return d + target * remaining
        }
        var remaining = seconds
        var distance = 0.0
        // At most: brake to zero, then coast-ramp, coast-exponential, speed up.
        var segments = 0
        while remaining > 0, speed != target, segments < 8 {
            segments += 1
            let reversing = speed != 0 && (target > 0) != (speed > 0) && target != 0
            let slowing = !reversing && abs(target) < abs(speed)
            if let braking = emergencyDeceleration {
                distance += ramp(towards: target, rate: braking, within: &remaining)
            } else if reversing {
                // The user tilted past neutral: brake actively, then speed up.
                distance += ramp(towards: 0, rate: limits.acceleration, within: &remaining)
            } else if slowing && limits.hasInertia {
                distance += coast(towards: target, limits: limits, within: &remaining)
            } else {
                distance += ramp(towards: target, rate: limits.acceleration, within: &remaining)
            }
        }
        if remaining > 0 { distance += speed * remaining }
        return distance
    }

    /// Constant-rate change of speed towards `goal`; consumes the time it takes
    /// (or all that remains) and returns the distance.
    private mutating func ramp(towards goal: Double, rate: Double, within remaining: inout Double) -> Double {
        let gap = goal - speed
        let reachIn = abs(gap) / rate
        if reachIn <= remaining {
            remaining -= reachIn
            let d = (speed + goal) / 2 * reachIn
            speed = goal
            return d
        }
        let dt = remaining
        remaining = 0
        let a = gap > 0 ? rate : -rate
        let d = speed * dt + a * dt * dt / 2
        speed += a * dt
        return d
    }

    /// Inertia: dv/dt = -(v - goal) / tau - friction, capped at the
    /// acceleration limit, until `goal` is reached.
    private mutating func coast(towards goal: Double, limits: MotionLimits, within remaining: inout Double) -> Double {
        let tau = limits.inertiaTimeConstant
        let friction = limits.inertiaFriction
        let excess = abs(speed - goal)
        // Far from the goal the exponential would brake harder than the limit
        // allows; ramp at the limit down to the excess where they agree.
        let agreeAt = tau * (limits.acceleration - friction)
        if excess > agreeAt * (1 + 1e-9), agreeAt > 0 || friction >= limits.acceleration {
            let intermediate = agreeAt > 0 ? goal + (speed > goal ? agreeAt : -agreeAt) : goal
            return ramp(towards: intermediate, rate: limits.acceleration, within: &remaining)
        }
        let side: Double = speed > goal ? 1 : -1
        let ft = friction * tau
        // excess(t) = (excess0 + f tau) e^(-t/tau) - f tau, at rest after
        // tau ln(1 + excess0 / (f tau)). Friction alone would stop it within
        // `remaining` when excess0 <= f remaining: then that time is needed
        // anyway; otherwise try the whole interval first and only look for
        // the moment of rest if it came to rest after all.
        var dt = remaining
        var decay = 0.0
        var left = 0.0
        if excess > friction * remaining {
            decay = MathFunctions.expMinusOne(-dt / tau)  // e^(-t/tau) - 1, in (-1, 0]
            left = (excess + ft) * (1 + decay) - ft
        }
        if left <= 0 {
            dt = min(remaining, tau * MathFunctions.logOnePlus(excess / ft))
            decay = MathFunctions.expMinusOne(-dt / tau)
            left = 0
        }
        let integral = -(excess + ft) * tau * decay - ft * dt
        remaining -= dt
        speed = left > 0 ? goal + side * left : goal
        return goal * dt + side * integral
    }
}
