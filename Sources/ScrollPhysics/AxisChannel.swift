/// One wheel axis from target speed to emitted units: the transfer curve
/// that turns a tilt into the speed it asks for, the motion that follows it
/// within the limits, the accumulator that turns distance into whole hi-res
/// units, and the distance travelled. `ScrollEngine` has two, vertical and
/// horizontal, and treats them alike.
struct AxisChannel: Equatable, Sendable {
    var curve: TransferCurve
    private(set) var motion = AxisMotion()
    private(set) var output = HiResAccumulator()
    /// Integral of the speed since the engine started, hi-res units.
    private(set) var distance = 0.0

    init(curve: TransferCurve) { self.curve = curve }

    /// Current speed, detents/s.
    var speed: Double { motion.speed }
    /// The speed the tilt asks for, detents/s.
    var target: Double {
        get { motion.target }
        set { motion.target = newValue }
    }

    /// Whether `ScrollEngine.frame(at:)` has anything to do for this axis.
    @inline(__always)
    var needsFrame: Bool { motion.isMoving || output.hasWholeUnit }

    /// Lets `seconds` pass: the distance goes into the accumulator.
    @inline(__always)
    mutating func integrate(_ seconds: Double, limits: MotionLimits) {
        guard motion.isMoving else { return }
        let d = motion.advance(by: seconds, limits: limits) * Double(hiResUnitsPerDetent)
        output.add(d)
        distance += d
    }

    /// The whole units to emit now and the legacy detents they complete.
    @inline(__always)
    mutating func take() -> (hiRes: Int32, detents: Int32) { output.take() }

    /// The data went stale: brake to rest within `seconds` however fast,
    /// never slower than the acceleration limit, with no inertia.
    mutating func brake(within seconds: Double, limits: MotionLimits) {
        motion.target = 0
        motion.emergencyDeceleration = max(limits.acceleration, abs(motion.speed) / seconds)
    }

    /// Stop dead now (put down, a finger on the screen); whole units already
    /// travelled are still emitted.
    mutating func stopNow() { motion.stop() }

    /// Fresh data again: the normal limits apply.
    mutating func endBraking() { motion.emergencyDeceleration = nil }

    /// Stop dead and drop the sub-unit remainder (device lost, deactivation):
    /// the next output device starts from zero, as a fresh wheel would.
    mutating func halt() {
        motion.stop()
        output.reset()
    }
}
