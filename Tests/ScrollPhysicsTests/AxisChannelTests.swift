import Testing

@testable import ScrollPhysics

@Suite struct AxisChannelBehaviour {
    let curve = TransferCurve(deadZoneDegrees: 4, maxTiltDegrees: 25, exponent: 1.7, maxSpeed: 12)
    let limits = MotionLimits(acceleration: 60)

    @Test func emitsTheIntegralOfItsSpeedInWholeUnits() {
        var channel = AxisChannel(curve: curve)
        channel.target = channel.curve.speed(forTilt: 25)
        var emitted = 0
        for _ in 0..<60 {
            channel.integrate(1.0 / 60, limits: limits)
            emitted += Int(channel.take().hiRes)
        }
        // 0.2 s ramp to 12 detents/s (1.2 detents), 0.8 s at 12 (9.6): 10.8 detents.
        #expect(abs(channel.distance - 10.8 * 120) < 1e-6)
        #expect(abs(Double(emitted) - channel.distance) < 1)
    }

    @Test func needsFramesWhileMovingOrHoldingAWholeUnit() {
        var channel = AxisChannel(curve: curve)
        #expect(!channel.needsFrame)
        channel.target = 1
        #expect(channel.needsFrame)
        channel.integrate(0.5, limits: limits)
        channel.target = 0
        channel.integrate(1, limits: limits)
        #expect(channel.speed == 0)
        #expect(channel.needsFrame, "a whole unit waits")
        _ = channel.take()
        #expect(!channel.needsFrame)
    }

    @Test func brakesToRestWithinTheGivenTimeHoweverFast() {
        var channel = AxisChannel(curve: curve)
        channel.target = 1000
        channel.integrate(20, limits: limits)
        #expect(channel.speed == 1000)
        channel.brake(within: 0.2, limits: limits)
        #expect(channel.target == 0)
        channel.integrate(0.2 + 1e-9, limits: limits)
        #expect(channel.speed == 0)
    }

    @Test func haltDropsTheRemainderButKeepsTheDistance() {
        var channel = AxisChannel(curve: curve)
        channel.target = 12
        channel.integrate(0.1, limits: limits)
        let distance = channel.distance
        channel.halt()
        #expect(channel.speed == 0 && channel.target == 0)
        #expect(!channel.needsFrame)
        #expect(channel.take() == (0, 0))
        #expect(channel.distance == distance)
    }
}
