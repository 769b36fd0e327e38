import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct AxisMotionBehaviour {
    let plain = MotionLimits(acceleration: 60)

    @Test func rampsAtTheAccelerationLimit() {
        var m = AxisMotion()
        m.target = 12
        let d = m.advance(by: 0.1, limits: plain)
        #expect(abs(m.speed - 6) < 1e-12)
        #expect(abs(d - 0.3) < 1e-12)
        let d2 = m.advance(by: 0.2, limits: plain)
        #expect(m.speed == 12)
        // 0.1 s from 6 to 12 (0.9 detents), then 0.1 s at 12 (1.2 detents).
        #expect(abs(d2 - 2.1) < 1e-12)
    }

    @Test func distanceDoesNotDependOnHowTimeIsSplit() {
        var random = SeededRandom(seed: 3)
        for limits in [plain, MotionLimits(settings: inertiaSettings(ms: 600))] {
            for _ in 0..<50 {
                var whole = AxisMotion()
                var split = AxisMotion()
                whole.speed(set: random.uniform(-12...12))
                split.speed(set: whole.speed)
                let target = random.uniform(-12...12)
                whole.target = target
                split.target = target
                let span = random.uniform(0.01...2)
                let dWhole = whole.advance(by: span, limits: limits)
                var dSplit = 0.0
                var left = span
                while left > 0 {
                    let step = min(left, random.uniform(0.0001...0.05))
                    dSplit += split.advance(by: step, limits: limits)
                    left -= step
                }
                #expect(abs(dWhole - dSplit) < 1e-9)
                #expect(abs(whole.speed - split.speed) < 1e-9)
            }
        }
    }

    @Test func coastsToRestInTheInertiaTimeWithoutOvershoot() {
        // Acceleration high enough not to cut the coast short.
        var s = inertiaSettings(ms: 500)
        s.maxAcceleration = 100_000
        let limits = MotionLimits(settings: s)
        var m = AxisMotion()
        m.speed(set: 12)
        m.target = 0
        var t = 0.0
        var previous = m.speed
        while m.speed != 0, t < 2 {
            _ = m.advance(by: 0.001, limits: limits)
            t += 0.001
            #expect(m.speed <= previous)
            #expect(m.speed >= 0, "overshoot at \(t)")
            previous = m.speed
        }
        #expect(abs(t - 0.5) < 0.002)
    }

    @Test func inertiaNeverBrakesHarderThanTheAccelerationLimit() {
        let limits = MotionLimits(settings: inertiaSettings(ms: 100))  // wants ~277 detents/s^2 at full speed
        var m = AxisMotion()
        m.speed(set: 12)
        m.target = 0
        var previous = m.speed
        for _ in 0..<400 {
            _ = m.advance(by: 0.001, limits: limits)
            #expect(previous - m.speed <= 60 * 0.001 + 1e-9)
            previous = m.speed
        }
        #expect(m.speed == 0)
    }

    @Test func brakesActivelyWhenTheTargetReverses() {
        let limits = MotionLimits(settings: inertiaSettings(ms: 2000))
        var m = AxisMotion()
        m.speed(set: 6)
        m.target = -6
        _ = m.advance(by: 0.1, limits: limits)
        #expect(abs(m.speed - 0) < 1e-12)  // 6 detents/s at 60 detents/s^2: exactly 0.1 s
        _ = m.advance(by: 0.1, limits: limits)
        #expect(abs(m.speed + 6) < 1e-12)
    }

    @Test func emergencyBrakingIgnoresInertia() {
        let limits = MotionLimits(settings: inertiaSettings(ms: 3000))
        var m = AxisMotion()
        m.speed(set: 500)
        m.target = 0
        m.emergencyDeceleration = 500 / 0.2
        _ = m.advance(by: 0.2, limits: limits)
        #expect(m.speed == 0)
        #expect(!m.isMoving)
    }

    private func inertiaSettings(ms: Double) -> ScrollSettings {
        var s = ScrollSettings()
        s.inertiaMilliseconds = ms
        return s
    }
}

extension AxisMotion {
    /// Test set-up: start at a speed by ramping there with no limit.
    mutating func speed(set value: Double) {
        target = value
        _ = advance(by: 1, limits: MotionLimits(acceleration: 1e12))
    }
}
