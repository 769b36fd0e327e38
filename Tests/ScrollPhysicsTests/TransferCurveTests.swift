import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct TransferCurveBehaviour {
    let curve = TransferCurve(deadZoneDegrees: 4, maxTiltDegrees: 25, exponent: 1.7, maxSpeed: 12)

    @Test func isSilentInsideTheDeadZone() {
        for tilt in stride(from: -4.0, through: 4.0, by: 0.25) {
            #expect(curve.speed(forTilt: tilt) == 0)
        }
    }

    @Test func risesFromZeroAtTheDeadZoneEdgeWithNoJump() {
        #expect(curve.speed(forTilt: 4.000001) < 1e-8)
        #expect(curve.speed(forTilt: 4.01) < 0.001)
        #expect(curve.speed(forTilt: 4.01) > 0)
    }

    @Test func followsTheRescaledPowerLaw() {
        // (14.5 - 4) / (25 - 4) = 0.5; 12 * 0.5^1.7
        let expected = 12 * pow(0.5, 1.7)
        #expect(abs(curve.speed(forTilt: 14.5) - expected) < 1e-12)
        #expect(curve.speed(forTilt: 25) == 12)
    }

    @Test func isMonotonicSymmetricAndBoundedOverRandomAngles() {
        var random = SeededRandom(seed: 1)
        var angles = (0..<2000).map { _ in random.uniform(0...120) }
        angles.sort()
        var previous = 0.0
        for a in angles {
            let v = curve.speed(forTilt: a)
            #expect(v >= previous, "not monotonic at \(a)")
            #expect(v <= 12, "above the maximum speed at \(a)")
            #expect(curve.speed(forTilt: -a) == -v, "not symmetric at \(a)")
            previous = v
        }
    }

    @Test func linearCurveIsExactlyLinear() {
        let linear = TransferCurve(deadZoneDegrees: 0, maxTiltDegrees: 10, exponent: 1, maxSpeed: 10)
        #expect(linear.speed(forTilt: 2.5) == 2.5)
        #expect(linear.speed(forTilt: -7) == -7)
    }

    @Test func aNonFiniteAngleGivesNoSpeed() {
        #expect(curve.speed(forTilt: .nan) == 0)
        #expect(curve.speed(forTilt: .infinity) == 12)
        #expect(curve.speed(forTilt: -.infinity) == -12)
    }
}
