import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct StillnessMeterBehaviour {
    /// Feeds the meter `seconds` of samples at `rate`: pitch (radians) and
    /// sine of roll from `pose(t)`, plus white noise of `noise` (in units of
    /// g, as the angles are), rounded to `resolution` when it is not 0;
    /// blocks close as `IntentGuard` closes them. Returns the verdicts.
    private func feed(
        _ meter: inout StillnessMeter, from start: Double = 0, seconds: Double, rate: Double, noise: Double,
        resolution: Double = 0, seed: UInt64 = 1, magnitude: (Double) -> Double = { _ in 0 },
        pose: (Double) -> (pitch: Double, sinRoll: Double) = { _ in (0.5, 0) }
    ) -> [(time: Double, verdict: StillnessMeter.Verdict)] {
        var random = SeededRandom(seed: seed)
        var verdicts: [(time: Double, verdict: StillnessMeter.Verdict)] = []
        var blockStart = start
        var magnitudes = Moments()
        var i = 0
        while Double(i) / rate <= seconds {
            let t = start + Double(i) / rate
            i += 1
            if t - blockStart >= StillnessMeter.blockSeconds - 0.5 / rate {
                let v = meter.closeBlock(
                    started: blockStart, at: t, magnitude: magnitudes, judgeShort: true, judgeLong: true)
                verdicts.append((t, v))
                blockStart = t
                magnitudes = Moments()
            }
            func quantized(_ x: Double) -> Double { resolution > 0 ? (x / resolution).rounded() * resolution : x }
            let p = pose(t)
            meter.add(
                pitch: quantized(p.pitch + random.gaussian(sigma: noise)),
                sinRoll: quantized(p.sinRoll + random.gaussian(sigma: noise)))
            magnitudes.add(magnitude(t) + random.gaussian(sigma: noise))
        }
        return verdicts
    }

    @Test(arguments: [(0.001, 50.0), (0.003, 50.0), (0.006, 50.0), (0.003, 10.0), (0.003, 200.0)])
    func aTableIsStillWithinAWindowWhateverItsNoise(noise: Double, rate: Double) {
        var meter = StillnessMeter()
        let verdicts = feed(&meter, seconds: 20, rate: rate, noise: noise)
        let firstShort = verdicts.first { $0.verdict.shortStill != nil }
        #expect(firstShort != nil && firstShort!.time < StillnessMeter.shortSeconds + 2 * StillnessMeter.blockSeconds)
        let firstLong = verdicts.first { $0.verdict.longStill != nil }
        #expect(firstLong != nil && firstLong!.time < StillnessMeter.longSeconds + 3)
        // And stays so, but for the odd window a chi-square lets through.
        let judged = verdicts.filter { $0.time > 3 }
        let still = judged.filter { $0.verdict.shortStill != nil }
        #expect(Double(still.count) >= 0.97 * Double(judged.count))
        // The noise it learns is the noise there is.
        let floor = meter.noiseFloor
        #expect(floor > 0.5 * noise * noise && floor < 1.2 * noise * noise, "floor \(floor) for \(noise * noise)")
    }

    @Test func aHandThatSwaysIsNeverStill() {
        // 0.6 degrees rms of postural sway on a 3 mg part at 50 Hz.
        let hand = Hand.typical
        var meter = StillnessMeter()
        let verdicts = feed(
            &meter, seconds: 60, rate: 50, noise: 0.003,
            pose: { t in
                let w = hand.wobble(at: t)
                return (0.5 + w.pitch / 57.3, sin(w.roll / 57.3))
            })
        #expect(verdicts.allSatisfy { $0.verdict.shortStill == nil && $0.verdict.longStill == nil })
    }

    @Test func aPartThatReadsTheSameCountsIsStillAndRestsOnThem() {
        var meter = StillnessMeter()
        meter.quantizationVariance = 0.01 * 0.01 / 12
        // A hub's hundredths of a g, no noise under them: every reading the same.
        let verdicts = feed(&meter, seconds: 10, rate: 50, noise: 0, resolution: 0.01, pose: { _ in (0.5, 0.1) })
        guard let still = verdicts.first(where: { $0.verdict.longStill != nil })?.verdict.longStill else {
            Issue.record("never still")
            return
        }
        #expect(abs(still.pose.pitch - 0.5) < 1e-12 && abs(still.pose.sinRoll - 0.1) < 1e-12)
        #expect(still.variance == meter.quantizationVariance)
    }

    @Test func readingsRepeatedByAFastLoopDoNotMakeATableLookMoving() {
        // A 25 Hz part polled at 50 Hz: every reading twice.
        var meter = StillnessMeter()
        var random = SeededRandom(seed: 4)
        var last = (0.5, 0.0)
        var blockStart = 0.0
        var stillWindows = 0
        var windows = 0
        for i in 0..<1000 {
            let t = Double(i) / 50
            if t - blockStart >= StillnessMeter.blockSeconds - 0.01 {
                let v = meter.closeBlock(
                    started: blockStart, at: t, magnitude: Moments(), judgeShort: true, judgeLong: false)
                if t > 3 {
                    windows += 1
                    if v.shortStill != nil { stillWindows += 1 }
                }
                blockStart = t
            }
            if i % 2 == 0 { last = (0.5 + random.gaussian(sigma: 0.003), random.gaussian(sigma: 0.003)) }
            meter.add(pitch: last.0, sinRoll: last.1)
        }
        #expect(Double(stillWindows) >= 0.95 * Double(windows))
    }

    /// A hub in hundredths of a g lying flat, 3 mg of noise under its
    /// counts: most readings repeat the one before. Counted as readings,
    /// the repeats give the window the noise the part has (each angle
    /// reads 0 or one count either side, a variance of about 0.096 counts
    /// squared), where the distinct readings alone made it several times
    /// that; and the window is still by that measure too.
    @Test func aTableOnAPartThatReadsWholeCountsShowsItsNoiseWhenEveryReadingCounts() {
        var meter = StillnessMeter()
        let count = 0.01
        meter.quantizationVariance = count * count / 12
        let verdicts = feed(&meter, seconds: 30, rate: 50, noise: 0.003, resolution: count, pose: { _ in (0.5, 0) })
        let sways = verdicts.filter { $0.time > 3 }.compactMap { $0.verdict.shortSway }
        #expect(sways.count > 70)
        // P(|noise| > half a count) = 0.0956 per angle; 4 blocks of 17.5 readings.
        let perReading = 0.0956 * count * count
        let expected = perReading * 6 / 70
        let noises = sways.map(\.noise).sorted()
        let median = noises[noises.count / 2]
        #expect(median > 0.7 * expected && median < 1.4 * expected, "\(median) for \(expected)")
        let still = sways.filter(\.stillByNoise).count
        #expect(Double(still) >= 0.95 * Double(sways.count), "\(still) of \(sways.count)")
        // The meter's own judgement, by distinct readings, is unchanged: still.
        let judged = verdicts.filter { $0.time > 3 && $0.verdict.shortSway != nil }
        #expect(judged.allSatisfy { $0.verdict.shortStill != nil })
    }

    /// The same hub read three times as often as it samples: every reading
    /// comes three times. Counted as readings, those repeats shrink the
    /// noise the hand's going is judged against (to the quantization's
    /// floor, about a third of the fresh readings' noise per reading), but
    /// the block means scatter as a third of the readings would, which
    /// fills that noise's room for a sway: the window looks still by that
    /// measure less often than a hub read at its own rate (95 % and more,
    /// above). The meter's own judgement, by distinct readings, stays
    /// still.
    @Test func aCoarsePartReadFasterThanItSamplesIsNoStillerForIt() {
        var meter = StillnessMeter()
        let count = 0.01
        meter.quantizationVariance = count * count / 12
        var random = SeededRandom(seed: 9)
        var reading = (0.5, 0.0)
        var blockStart = 0.0
        var sways: [StillnessMeter.Sway] = []
        var meterStill = 0
        for i in 0..<1500 {
            let t = Double(i) / 50
            if t - blockStart >= StillnessMeter.blockSeconds - 0.01 {
                let v = meter.closeBlock(
                    started: blockStart, at: t, magnitude: Moments(), judgeShort: true, judgeLong: false)
                if t > 3, let sway = v.shortSway {
                    sways.append(sway)
                    if v.shortStill != nil { meterStill += 1 }
                }
                blockStart = t
            }
            if i % 3 == 0 {
                func quantized(_ x: Double) -> Double { (x / count).rounded() * count }
                reading = (quantized(0.5 + random.gaussian(sigma: 0.003)), quantized(random.gaussian(sigma: 0.003)))
            }
            meter.add(pitch: reading.0, sinRoll: reading.1)
        }
        #expect(sways.count > 70)
        #expect(Double(meterStill) >= 0.95 * Double(sways.count))
        let fresh = 0.0956 * count * count * 6 / (70 / 3)
        let still = sways.filter(\.stillByNoise)
        #expect(Double(still.count) <= 0.8 * Double(sways.count), "\(still.count) of \(sways.count)")
        for s in sways { #expect(s.noise >= 0.25 * fresh && s.noise < fresh, "\(s.noise) for \(fresh)") }
    }

    /// The short window, that is: its 1.4 s blocks smooth a 2 Hz bounce out
    /// of the long one, which `IntentGuard` does not judge while jostled.
    @Test func aWalksBounceIsNotStillEvenSampledSlowly() {
        // 0.2 g at 1.9 Hz in the magnitude, the pose unchanged, 10 Hz.
        var meter = StillnessMeter()
        let verdicts = feed(&meter, seconds: 20, rate: 10, noise: 0.003, magnitude: { 0.2 * sin(2 * .pi * 1.9 * $0) })
        #expect(verdicts.allSatisfy { $0.verdict.shortStill == nil })
    }

    /// The medium window is the short one and the four blocks before it:
    /// judged from the eighth block on, still on a table, and its sway is
    /// the scatter of eight block means; a hand's sway shows in it more
    /// than in the short one.
    @Test func theMediumWindowSpansEightBlocks() {
        var meter = StillnessMeter()
        let table = feed(&meter, seconds: 10, rate: 50, noise: 0.003)
        let firstMedium = table.first { $0.verdict.mediumSway != nil }
        #expect(firstMedium != nil && firstMedium!.time > 7 * StillnessMeter.blockSeconds)
        #expect(firstMedium!.time < 9 * StillnessMeter.blockSeconds)
        let judged = table.filter { $0.verdict.mediumSway != nil }
        #expect(Double(judged.filter { $0.verdict.mediumStill != nil }.count) >= 0.97 * Double(judged.count))
        if let still = judged.last?.verdict.mediumStill, let time = judged.last?.time {
            #expect(abs(time - still.since - 8 * StillnessMeter.blockSeconds) < 0.05)
        }
        let hand = Hand.typical
        var held = StillnessMeter()
        let swaying = feed(
            &held, seconds: 30, rate: 50, noise: 0.003,
            pose: { t in
                let w = hand.wobble(at: t)
                return (0.5 + w.pitch / 57.3, sin(w.roll / 57.3))
            })
        #expect(swaying.allSatisfy { $0.verdict.mediumStill == nil })
        let short = swaying.compactMap { $0.verdict.shortSway.map { $0.excess / $0.noise } }.sorted()
        let medium = swaying.compactMap { $0.verdict.mediumSway.map { $0.excess / $0.noise } }.sorted()
        #expect(medium[medium.count / 4] > 1.3 * short[short.count / 4], "the quieter quarter stands out more")
    }

    /// A turn is 3 degrees between the means of a block and the block
    /// before the previous one: a hand's tilt or a put-down, not its sway.
    @Test func aTurnIsATiltNotASway() {
        let hand = Hand.typical
        var meter = StillnessMeter()
        let swaying = feed(
            &meter, seconds: 20, rate: 50, noise: 0.003,
            pose: { t in
                let w = hand.wobble(at: t)
                return (0.5 + w.pitch / 57.3, sin(w.roll / 57.3))
            })
        #expect(swaying.allSatisfy { !$0.verdict.turned })
        var tilted = StillnessMeter()
        let tilt = feed(
            &tilted, seconds: 6, rate: 50, noise: 0.003, pose: { t in (0.5 + ease(t, 2, 3) * 10 / 57.3, 0) })
        let turns = tilt.filter(\.verdict.turned).map(\.time)
        #expect(!turns.isEmpty && turns.allSatisfy { $0 > 2 && $0 < 3.8 }, "\(turns)")
    }

    @Test func restingItDepartsOnAMovementAndNotOnNoise() {
        var meter = StillnessMeter()
        let verdicts = feed(&meter, seconds: 3, rate: 50, noise: 0.003)
        guard let still = verdicts.last(where: { $0.verdict.shortStill != nil })?.verdict.shortStill else {
            Issue.record("never still")
            return
        }
        meter.settle(at: still.pose, variance: still.variance)
        var random = SeededRandom(seed: 9)
        var departures = 0
        for _ in 0..<10_000 {
            if meter.departs(pitch: 0.5 + random.gaussian(sigma: 0.003), sinRoll: random.gaussian(sigma: 0.003)) {
                departures += 1
            }
        }
        #expect(departures == 0)
        #expect(meter.departs(pitch: 0.5 + 1.0 / 57.3, sinRoll: 0), "one degree")
        // A slow creep of a third of a degree shows in the block means.
        let creep = feed(&meter, from: 3, seconds: 3, rate: 50, noise: 0.003, pose: { t in (0.5 + (t - 3) * 0.002, 0) })
        #expect(creep.contains { $0.verdict.departed })
    }
}

@Suite struct JostleMeterBehaviour {
    private func run(seconds: Double, rate: Double = 50, magnitude: (Double) -> Double) -> [(Double, Bool)] {
        var meter = JostleMeter()
        var moments = Moments()
        var start = 0.0
        var states: [(Double, Bool)] = []
        var i = 0
        while Double(i) / rate <= seconds {
            let t = Double(i) / rate
            i += 1
            if t - start >= StillnessMeter.blockSeconds {
                _ = meter.closeBlock(moments, seconds: t - start, at: t)
                states.append((t, meter.isJostled))
                moments = Moments()
                start = t
            }
            moments.add(JostleMeter.deviation(magnitude(t)))
        }
        return states
    }

    @Test func aStillHandOrATableIsNotJostledNorAScaleThatIsALittleOff() {
        var random = SeededRandom(seed: 2)
        let states = run(seconds: 30) { _ in 1.03 + random.gaussian(sigma: 0.006) }
        #expect(states.allSatisfy { !$0.1 })
    }

    @Test func aWalkIsJostledWithinASecondAndCalmAgainAFewSecondsAfter() {
        let states = run(seconds: 20) { t in t >= 2 && t < 10 ? 1 + 0.15 * sin(2 * .pi * 1.9 * t) : 1 }
        let began = states.first { $0.1 }?.0 ?? 99
        #expect(began > 2 && began < 3)
        // The level decays with 1 s (to half the threshold in about 3.4 s), then 2 s calm.
        let ended = states.last { $0.1 }?.0 ?? 0
        #expect(ended > 12 && ended < 16)
    }

    @Test func oneGlitchIsNoWalk() {
        let states = run(seconds: 10) { t in abs(t - 5) < 0.01 ? 1.3 : 1 }
        #expect(states.allSatisfy { !$0.1 })
    }
}
