import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct MathFunctionsAccuracy {
    @Test func atan2MatchesTheCLibraryEverywhere() {
        var random = SeededRandom(seed: 17)
        var worst = 0.0
        for _ in 0..<200_000 {
            let y = random.uniform(-1...1) * pow(10, random.uniform(-6...3))
            let x = random.uniform(-1...1) * pow(10, random.uniform(-6...3))
            let error = abs(MathFunctions.atan2Degrees(y, x) - atan2(y, x) * 180 / .pi)
            worst = max(worst, error)
        }
        #expect(worst < 1e-9)
    }

    @Test(arguments: [
        (0.0, 1.0, 0.0), (1.0, 0.0, 90.0), (0.0, -1.0, 180.0), (-1.0, 0.0, -90.0), (1.0, 1.0, 45.0),
        (-1.0, -1.0, -135.0), (1.0, -1.0, 135.0), (0.0, 0.0, 0.0), (1e-300, 1e300, 0.0),
    ])
    func atan2GetsTheQuadrantsAndAxesRight(y: Double, x: Double, degrees: Double) {
        #expect(abs(MathFunctions.atan2Degrees(y, x) - degrees) < 1e-12)
    }

    @Test func atan2OfNaNIsNaN() {
        #expect(MathFunctions.atan2Degrees(.nan, 1).isNaN)
        #expect(MathFunctions.atan2Degrees(1, .nan).isNaN)
        #expect(MathFunctions.atan2Degrees(.nan, .nan).isNaN)
    }

    @Test func powerIsAccurateOverTheTransferCurvesDomain() {
        var random = SeededRandom(seed: 29)
        var worst = 0.0
        for i in 0..<100_000 {
            let x = i % 2 == 0 ? random.uniform(1e-9...1) : pow(10, random.uniform(-9...0))
            let c = random.uniform(ScrollSettings.curveRange)
            worst = max(worst, abs(MathFunctions.power(x, c) / pow(x, c) - 1))
        }
        #expect(worst < 1e-13)
        #expect(MathFunctions.power(1, 1.7) == 1)
    }

    @Test func wrapsDegreesIntoOneTurn() {
        #expect(MathFunctions.wrappedDegrees(190) == -170)
        #expect(MathFunctions.wrappedDegrees(-190) == 170)
        #expect(MathFunctions.wrappedDegrees(180) == 180)
        #expect(MathFunctions.wrappedDegrees(-180) == 180)
        #expect(MathFunctions.wrappedDegrees(725) == 5)
        #expect(MathFunctions.wrappedDegrees(12.5) == 12.5)
    }
}
