import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct OneEuroFilterBehaviour {
    @Test func passesTheFirstValueThroughAndHoldsAConstant() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0.02)
        #expect(f.filter(12.5, at: 0) == 12.5)
        for i in 1...100 { f.filter(12.5, at: Double(i) * 0.02) }
        #expect(f.value == 12.5)
        #expect(f.speed == 0)
    }

    /// One step by hand: speed estimate, then the cutoff it raises, then the value.
    @Test func computesOneStepAsThePaperDefinesIt() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0.5)
        f.filter(0, at: 0)
        let out = f.filter(10, at: 0.1)
        let dt = 0.1
        func alpha(_ fc: Double) -> Double { 1 / (1 + 1 / (2 * .pi * fc * dt)) }
        let edx = alpha(1) * (10 / dt)
        let cutoff = 1 + 0.5 * abs(edx)
        #expect(abs(out - alpha(cutoff) * 10) < 1e-12)
        #expect(abs(f.speed - edx) < 1e-12)
    }

    @Test func reducesJitterAtRest() {
        var random = SeededRandom(seed: 7)
        var f = OneEuroFilter(minCutoff: 1, beta: 0.02)
        var rawSquares = 0.0
        var filteredSquares = 0.0
        for i in 0..<2000 {
            let x = 20 + random.gaussian(sigma: 0.5)
            let y = f.filter(x, at: Double(i) / 50)
            if i >= 100 {
                rawSquares += (x - 20) * (x - 20)
                filteredSquares += (y - 20) * (y - 20)
            }
        }
        // At 1 Hz cutoff and 50 Hz, the jitter's standard deviation drops about fourfold.
        #expect(filteredSquares.squareRoot() < rawSquares.squareRoot() / 3)
    }

    @Test func lagsLessWhenBetaIsHigher() {
        func lagAtEndOfRamp(beta: Double) -> Double {
            var f = OneEuroFilter(minCutoff: 1, beta: beta)
            var y = 0.0
            for i in 0...50 { y = f.filter(Double(i) * 0.6, at: Double(i) / 50) }  // 30 degrees/s for 1 s
            return 30 - y
        }
        let slow = lagAtEndOfRamp(beta: 0)
        let fast = lagAtEndOfRamp(beta: 0.1)
        #expect(slow > 4)
        #expect(fast < slow / 2)
    }

    @Test func ignoresATimeThatDoesNotAdvance() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0.02)
        f.filter(1, at: 1)
        let a = f.filter(5, at: 1.02)
        #expect(f.filter(100, at: 1.02) == a)
        #expect(f.filter(100, at: 0.5) == a)
    }

    @Test func handlesUnevenIntervalsByTime() {
        // The same signal sampled at 10 Hz and at 100 Hz settles to the same value at the same time.
        func settled(rate: Double) -> Double {
            var f = OneEuroFilter(minCutoff: 1, beta: 0)
            var y = 0.0
            for i in 0...Int(rate) { y = f.filter(i == 0 ? 0 : 10, at: Double(i) / rate) }
            return y
        }
        #expect(abs(settled(rate: 10) - settled(rate: 100)) < 0.25)
    }
}
