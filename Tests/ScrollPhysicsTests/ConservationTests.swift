import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// "Over any interval the sum of emitted hi-res units equals the integral of
/// velocity to within one unit: nothing lost, nothing duplicated."
@Suite struct Conservation {
    /// A random motion: tilts forwards, back and sideways, at random times.
    private func motion(seed: UInt64) -> (Double) -> Vector3 {
        var random = SeededRandom(seed: seed)
        let moves = (0..<8).map { i in
            (start: Double(i) + random.uniform(0...0.5), away: random.uniform(-40...40), side: random.uniform(-30...30))
        }
        return { t in
            var away = 30.0
            var side = 0.0
            for m in moves where t >= m.start {
                let k = ease(t, m.start, m.start + 0.4)
                away += (m.away - (away - 30)) * k
                side += (m.side - side) * k
            }
            return Pose.gravity(away: away, rightDown: side)
        }
    }

    private var settings: ScrollSettings {
        var s = ScrollSettings()
        s.horizontal = true
        s.inertiaMilliseconds = 400
        return s
    }

    /// Frames taken at random moments (early, late, between samples, several
    /// per sample) sum to the same as frames on the regular clock, and each
    /// run's sum is the integral of its speed.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func emittedTotalsDoNotDependOnWhenFramesAreTaken(seed: UInt64) {
        let pose = motion(seed: seed)
        let regular = simulate(settings, to: 10, pose: pose)

        var random = SeededRandom(seed: seed &* 977)
        var engine = ScrollEngine(settings: settings)
        var vertical = 0
        var horizontal = 0
        var frameTime = 0.0
        for i in 0...500 {
            let t = Double(i) / 50
            while frameTime < t {
                if let f = engine.frame(at: frameTime) {
                    vertical += Int(f.verticalHiRes)
                    horizontal += Int(f.horizontalHiRes)
                }
                frameTime += random.uniform(0.0005...0.05)
            }
            engine.feed(pose(t), at: t)
        }
        while frameTime < 12 {
            if let f = engine.frame(at: frameTime) {
                vertical += Int(f.verticalHiRes)
                horizontal += Int(f.horizontalHiRes)
            }
            frameTime += random.uniform(0.0005...0.05)
        }
        #expect(abs(regular.verticalTotal) > 500)
        #expect(abs(regular.horizontalTotal) > 200)
        #expect(abs(vertical - regular.verticalTotal) <= 1)
        #expect(abs(horizontal - regular.horizontalTotal) <= 1)
        let r = engine.readout
        #expect(abs(Double(vertical) - r.verticalDistance) < 1)
        #expect(abs(Double(horizontal) - r.horizontalDistance) < 1)
        #expect(abs(Double(regular.verticalTotal) - regular.engine.readout.verticalDistance) < 1)
    }

    /// Frames taken the coalescing way (on sample wake-ups when due, on the
    /// timer at frameDeadline) sum to what the regular output clock emits,
    /// for sensors faster and slower than the output.
    @Test(arguments: [(50.0, 1 as UInt64), (100.0, 2), (10.0, 3), (30.0, 4)])
    func coalescedFramesSumToTheRegularClocksTotal(rate: Double, seed: UInt64) {
        var s = settings
        s.sampleRate = rate
        let pose = motion(seed: seed)
        let regular = simulate(s, to: 10, sampleRate: rate, pose: pose)
        var engine = ScrollEngine(settings: s)
        var vertical = 0
        var horizontal = 0
        var frames = 0
        func take(_ f: ScrollFrame?) {
            guard let f else { return }
            vertical += Int(f.verticalHiRes)
            horizontal += Int(f.horizontalHiRes)
            frames += 1
        }
        var i = 0
        while Double(i) / rate <= 10 + 1e-9 {
            let t = Double(i) / rate
            while let due = engine.frameDeadline, due <= t { take(engine.frame(at: due)) }
            engine.feed(pose(t), at: t)
            if engine.isFrameDue(at: t) { take(engine.frame(at: t)) }
            i += 1
        }
        while let due = engine.frameDeadline, due < 12 { take(engine.frame(at: due)) }
        #expect(abs(regular.verticalTotal) > 500)
        #expect(abs(vertical - regular.verticalTotal) <= 1)
        #expect(abs(horizontal - regular.horizontalTotal) <= 1)
        #expect(abs(Double(vertical) - engine.readout.verticalDistance) < 1)
        #expect(abs(Double(horizontal) - engine.readout.horizontalDistance) < 1)
        #expect(frames > 0)
    }

    /// Over random sub-intervals of a run, the frames inside sum to the
    /// integral of the speed over that interval, taken independently from the
    /// readout at 1 kHz (trapezoid rule), to within one unit plus the
    /// numerical error of that check.
    @Test func everyIntervalMatchesTheIntegralOfSpeed() {
        let pose = motion(seed: 9)
        var engine = ScrollEngine(settings: settings)
        var frames: [(Double, Int)] = []
        var speeds: [(Double, Double)] = []
        var frameTime = 0.0
        for i in 0...500 {
            let t = Double(i) / 50
            while frameTime < t {
                let f = engine.frame(at: frameTime)
                frames.append((frameTime, Int(f?.verticalHiRes ?? 0)))
                speeds.append((frameTime, engine.readout.speed))
                frameTime += 0.001
            }
            engine.feed(pose(t), at: t)
        }
        var random = SeededRandom(seed: 99)
        for _ in 0..<200 {
            let a = Int(random.uniform(0...9000))
            let b = a + Int(random.uniform(1...999))
            let emitted = frames[(a + 1)...b].reduce(0) { $0 + $1.1 }
            var integral = 0.0
            for k in a..<b {
                integral += (speeds[k].1 + speeds[k + 1].1) / 2 * (speeds[k + 1].0 - speeds[k].0) * 120
            }
            // Sub-unit remainders at both ends: within one unit each, plus the trapezoid error.
            #expect(abs(Double(emitted) - integral) < 2.05, "interval \(a)...\(b)")
        }
    }

    @Test func constantSpeedEmitsExactlyItsDistance() {
        let r = simulate(to: 6) { t in Pose.gravity(away: 20 + 40 * ease(t, 0.2, 0.5)) }
        // Full speed, 12 detents/s, from well after the ramp to well before the end.
        let steady = r.frames(in: 2.0001...5.0)
        let sum = steady.reduce(0) { $0 + Int($1.frame.verticalHiRes) }
        #expect(abs(sum - (-12 * 120 * 3)) <= 1)
        #expect(steady.allSatisfy { $0.frame.verticalHiRes == -24 })
        // 24 units a frame: a detent every fifth frame.
        #expect(steady.reduce(0) { $0 + Int($1.frame.verticalDetents) } == -12 * 3)
    }

    @Test func carriesSubUnitRemaindersAcrossFrames() {
        var s = ScrollSettings()
        s.speed = 0.3  // 36 units/s: 0.6 of a unit per 60 Hz frame
        let r = simulate(s, to: 12) { t in Pose.held(away: 20 + 40 * ease(t, 0.2, 0.5), at: t) }
        let steady = r.frames(in: 2.0001...12)
        #expect(steady.allSatisfy { $0.frame.verticalHiRes == -1 })
        let calls = r.clock.filter { $0.time > 2.0001 && $0.time <= 12 }.count
        #expect(abs(Double(steady.count) - Double(calls) * 0.6) <= 1)  // 3 units every 5 frames
        #expect(abs(r.verticalTotal + 36 * 12) < 36)
        #expect(abs(Double(r.verticalTotal) - r.engine.readout.verticalDistance) < 1)
    }
}
