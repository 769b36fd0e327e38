import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct HiResAccumulatorBehaviour {
    @Test func carriesTheFractionAcrossFrames() {
        var acc = HiResAccumulator()
        var emitted: [Int32] = []
        for _ in 0..<10 {
            acc.add(0.3)
            emitted.append(acc.take().hiRes)
        }
        #expect(emitted == [0, 0, 0, 1, 0, 0, 1, 0, 0, 1])
        #expect(abs(acc.pending - 0.0) < 1e-9)
    }

    @Test func emitsADetentWhenTheTotalCrossesAMultipleOf120() {
        var acc = HiResAccumulator()
        acc.add(100)
        #expect(acc.take() == (100, 0))
        acc.add(30)
        #expect(acc.take() == (30, 1))
        #expect(acc.detentRemainder == 10)
        acc.add(-50)
        #expect(acc.take() == (-50, 0))
        #expect(acc.detentRemainder == -40)
        acc.add(-100)
        #expect(acc.take() == (-100, -1))
        #expect(acc.detentRemainder == -20)
        acc.add(480)
        #expect(acc.take() == (480, 3))
    }

    /// The kernel's hidinput_handle_scroll, written out as the reference.
    @Test func matchesTheKernelAccumulatorOnRandomFrames() {
        var random = SeededRandom(seed: 42)
        var acc = HiResAccumulator()
        var kernelAccumulated: Int32 = 0
        var totalIn = 0.0
        var totalOut = 0
        for _ in 0..<5000 {
            let d = random.uniform(-300...300)
            totalIn += d
            acc.add(d)
            let (hiRes, detents) = acc.take()
            totalOut += Int(hiRes)
            kernelAccumulated += hiRes
            let lowRes = kernelAccumulated / 120
            kernelAccumulated -= lowRes * 120
            #expect(detents == lowRes)
            #expect(abs(Double(totalOut) - totalIn) < 1)
        }
    }

    @Test func ignoresNonFiniteDistance() {
        var acc = HiResAccumulator()
        acc.add(.nan)
        acc.add(.infinity)
        acc.add(2.5)
        #expect(acc.take() == (2, 0))
    }

    @Test func capsOneFrameAndCarriesTheRest() {
        var acc = HiResAccumulator()
        acc.add(HiResAccumulator.maxUnitsPerFrame * 2.5)
        #expect(acc.take().hiRes == Int32(HiResAccumulator.maxUnitsPerFrame))
        #expect(acc.take().hiRes == Int32(HiResAccumulator.maxUnitsPerFrame))
        #expect(acc.take().hiRes == Int32(HiResAccumulator.maxUnitsPerFrame / 2))
    }
}
