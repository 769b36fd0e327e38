import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

@Suite struct ScrollEngineBehaviour {
    /// Gravity with sensor noise of about 0.005 g per axis (a few tenths of a degree).
    private func noisy(_ v: Vector3, _ random: inout SeededRandom) -> Vector3 {
        v + random.gaussianVector(sigma: 0.05)
    }

    @Test func isSilentAndTimerFreeAtNeutralAndInsideTheDeadZone() {
        var random = SeededRandom(seed: 11)
        var engine = ScrollEngine(settings: ScrollSettings())
        for i in 0..<1500 {
            let t = Double(i) / 50
            // Drifts slowly within 3 degrees of where it started, with jitter.
            let away = 30 + 3 * sin(t / 3) + 0.3 * sin(t * 7)
            engine.feed(noisy(Pose.gravity(away: away, rightDown: 2 * sin(t / 2)), &random), at: t)
            #expect(engine.nextFrameTime == nil, "timer armed at \(t)")
            #expect(engine.frame(at: t + 0.01) == nil)
        }
        #expect(engine.readout.speed == 0)
        #expect(engine.readout.isNeutralSet)
    }

    @Test func stopsAtNeutralAndDisarmsTheClock() {
        let r = simulate(to: 5) { t in Pose.gravity(away: 25 + 20 * ease(t, 0.5, 1) - 20 * ease(t, 2, 2.5)) }
        #expect(r.verticalTotal < 0)
        let lastFrame = r.frames.last?.time ?? 0
        #expect(lastFrame < 3.2)
        #expect(r.frames(in: 3.2...10).isEmpty)
        #expect(r.engine.nextFrameTime == nil)
        #expect(r.engine.readout.speed == 0)
        #expect(r.clock.last!.time < 3.3)  // no frame calls once it stopped
    }

    @Test(arguments: [(50.0, 12.0, 60.0), (10.0, 12.0, 60.0), (50.0, 1000.0, 100_000.0), (1.4, 40.0, 60.0)])
    func staleDataStopsScrollingWithin250Milliseconds(rate: Double, speed: Double, acceleration: Double) {
        var s = ScrollSettings()
        s.sampleRate = rate
        s.speed = speed
        s.maxAcceleration = acceleration
        s.inertiaMilliseconds = 3000  // no coasting on dead data either
        let silentFrom = 20.0
        let r = simulate(s, to: 30, sampleRate: rate, until: 40) { t in
            t < silentFrom ? Pose.held(away: 20 + 30 * ease(t, 0.5, 1), at: t) : nil
        }
        let scrollingBefore = r.frames.filter { $0.time < silentFrom }.last?.time ?? 0
        #expect(scrollingBefore > silentFrom - 0.1, "it was scrolling when the sensor went silent")
        let limit = silentFrom + 3 / rate + 0.25
        #expect(r.frames(in: limit...100).isEmpty)
        #expect(r.engine.nextFrameTime == nil)
        #expect(r.engine.readout.isStale)
        #expect(r.engine.readout.speed == 0)
    }

    @Test func ridesThroughAShortShakeButStopsWhenItGoesOn() {
        // Scrolling at full speed; from 2 s every sample is 1.6 g (shaking, walking).
        func run(shakeFor seconds: Double) -> Run {
            simulate(to: 5) { t in
                let g = Pose.gravity(away: 20 + 30 * ease(t, 0.2, 0.6))
                return t >= 2 && t < 2 + seconds ? g * 1.6 : g
            }
        }
        let bump = run(shakeFor: 0.3)
        #expect(bump.clock.filter { $0.time > 1 && $0.time < 5 }.allSatisfy { $0.readout.speed == -12 })
        let walk = run(shakeFor: 2)
        // Stale half a second after the last good sample, at rest 0.2 s later, until good samples return.
        #expect(walk.frames(in: (2 + 0.5 + 0.25)...4).isEmpty)
        #expect(walk.clock.first { $0.time > 2.5 && $0.time < 2.52 }?.readout.isStale == true)
        #expect(walk.frames(in: 4.1...5).count > 40)
    }

    @Test func speedIsBoundedByTheMaximumOverRandomMotion() {
        var random = SeededRandom(seed: 5)
        var away = 30.0
        var side = 0.0
        var s = ScrollSettings()
        s.horizontal = true
        let period = 1 / s.outputRate
        let r = simulate(s, to: 60) { _ in
            away = min(max(away + random.gaussian(sigma: 1.5), -10), 110)
            side = min(max(side + random.gaussian(sigma: 1), -40), 40)
            return Pose.gravity(away: away, rightDown: side)
        }
        #expect(r.frames.count > 100)
        for (_, readout) in r.clock {
            #expect(abs(readout.speed) <= s.speed)
            #expect(abs(readout.horizontalSpeed) <= s.speed)
        }
        for (_, f) in r.frames {
            #expect(abs(Double(f.verticalHiRes)) <= s.speed * 120 * period + 1)
            #expect(abs(Double(f.horizontalHiRes)) <= s.speed * 120 * period + 1)
        }
    }

    private func total(tilt: Double, settings: ScrollSettings = ScrollSettings()) -> Int {
        simulate(settings, to: 4) { t in Pose.gravity(away: 30 + tilt * ease(t, 0.2, 0.6)) }.verticalTotal
    }

    @Test func scrollsFasterTheFurtherItIsTilted() {
        var previous = 0
        for tilt in stride(from: 5.0, through: 40, by: 2.5) {
            let magnitude = -total(tilt: tilt)
            #expect(magnitude >= previous, "slower at \(tilt) degrees")
            previous = magnitude
        }
        #expect(previous > 3 * 12 * 120 * 9 / 10)  // about 3 s at full speed
    }

    @Test func isSymmetricAboutNeutral() {
        for tilt in [6.0, 12.0, 20.0, 35.0] {
            #expect(abs(total(tilt: tilt) + total(tilt: -tilt)) <= 1, "asymmetric at \(tilt)")
        }
    }

    @Test func recalibrationEasesToAStopWithoutAJump() {
        var engine = ScrollEngine(settings: ScrollSettings())
        var run = Run(engine: engine)
        let pose = { (t: Double) in Pose.gravity(away: 20 + 30 * ease(t, 0.2, 0.6)) }
        drive(&engine, to: 2, until: 2, into: &run, pose: pose)
        #expect(engine.readout.speed == -12)
        engine.recalibrate(at: 2)
        #expect(engine.readout.speed == -12)  // not a step
        #expect(engine.readout.targetSpeed == 0)
        drive(&engine, from: 2.02, to: 4, into: &run, pose: pose)
        let after = run.clock.filter { $0.time > 2 }
        var previous = -12.0
        for (_, r) in after {
            #expect(r.speed >= previous)
            #expect(r.speed - previous <= 60 / 60 + 1e-9)  // acceleration limit per frame
            previous = r.speed
        }
        #expect(engine.readout.speed == 0)
        #expect(engine.nextFrameTime == nil)
        #expect(run.frames(in: 2.25...10).isEmpty)
        // The recalibrated pose is neutral now: tilting further scrolls again.
        drive(&engine, from: 4.02, to: 6, into: &run) { t in Pose.gravity(away: 50 + 20 * ease(t, 4.2, 4.6)) }
        #expect(run.frames(in: 4.2...10).reduce(0) { $0 + Int($1.frame.verticalHiRes) } < -600)
    }

    @Test func recalibratingBeforeAnySampleMakesTheFirstOneNeutral() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.recalibrate(at: 0)
        #expect(engine.readout.neutral == .awaitingSample)
        var run = Run(engine: engine)
        drive(&engine, to: 3, into: &run) { _ in Pose.gravity(away: 70) }
        #expect(run.frames.isEmpty)
        #expect(engine.readout.isNeutralSet)
        #expect(abs(engine.neutral!.dot(Pose.gravity(away: 70).normalized!) - 1) < 1e-12)
    }

    @Test func aRestoredNeutralIsUsedFromTheFirstSample() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.restoreNeutral(Pose.gravity(away: 10))
        var run = Run(engine: engine)
        drive(&engine, to: 2, into: &run) { _ in Pose.gravity(away: 30) }
        #expect(run.verticalTotal < -600)
        // Ramps up from rest: the first frame is small.
        #expect(abs(run.frames.first!.frame.verticalHiRes) <= 2)
    }

    @Test func ignoresAnInvalidRestoredNeutral() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.restoreNeutral(.zero)
        engine.restoreNeutral(Vector3(.nan, 1, 0))
        engine.restoreNeutral(Vector3(.infinity, 0, 0))
        #expect(engine.neutral == nil)
        #expect(engine.readout.neutral == .awaitingSample)
    }

    @Test func aTenHertzSensorStillScrollsAtTheOutputRate() {
        var s = ScrollSettings()
        s.sampleRate = 10
        let r = simulate(s, to: 4, sampleRate: 10) { t in Pose.gravity(away: 20 + 25 * ease(t, 0.5, 1.5)) }
        let steady = r.clock.filter { $0.time > 1 && $0.time < 3.9 }
        #expect(steady.count > 150)
        for (a, b) in zip(steady, steady.dropFirst()) {
            #expect(abs(b.time - a.time - 1.0 / 60) < 1e-9)
        }
        // Every frame while scrolling emits, and neighbours differ by little: smooth, not 10 Hz steps.
        let moving = r.frames(in: 1.2...3.9)
        #expect(moving.count >= Int(2.7 * 60) - 1)
        for (a, b) in zip(moving, moving.dropFirst()) {
            #expect(abs(Int(b.frame.verticalHiRes) - Int(a.frame.verticalHiRes)) <= 3)
        }
    }

    @Test func ignoresNaNAndGarbageSamples() {
        let pose = { (t: Double) in Pose.gravity(away: 20 + 25 * ease(t, 0.5, 1)) }
        let clean = simulate(to: 3, pose: pose)
        let garbage: [Vector3] = [
            Vector3(.nan, 0, 0), Vector3(0, .infinity, 0), .zero, Vector3(0, -3 * 9.81, 0), Vector3(0, -0.2, 0),
            Vector3(-.infinity, .nan, 1e308), Vector3(1e308, 1e308, 1e308), Vector3(0, 0, -20),
        ]
        // The daemon's loop, with a bad sample and a bad time stamp before every good sample.
        var engine = ScrollEngine(settings: ScrollSettings())
        var run = Run(engine: engine)
        for i in 0...150 {
            let t = Double(i) / 50
            while let due = engine.nextFrameTime, due <= t {
                if let f = engine.frame(at: due) { run.frames.append((due, f)) }
            }
            engine.feed(garbage[i % garbage.count], at: t - 0.001)
            #expect(engine.readout.lastSample != .accepted)
            engine.feed(pose(t), at: .nan)
            #expect(engine.readout.lastSample == .rejected(.timeNotFinite))
            engine.feed(pose(t), at: t)
            #expect(engine.readout.lastSample == .accepted)
        }
        while let due = engine.nextFrameTime, due <= 4 {
            if let f = engine.frame(at: due) { run.frames.append((due, f)) }
        }
        #expect(abs(run.verticalTotal - clean.verticalTotal) <= 1)
        // A sample a little back in time is rejected, not a new time base.
        engine.feed(pose(3), at: 2.99)
        #expect(engine.readout.lastSample == .rejected(.timeWentBackwards(by: 3 - 2.99)))
        engine.feed(Vector3(0, -3 * 9.81, 0), at: 3.1)
        guard case .rejected(.notGravity(let g)) = engine.readout.lastSample else {
            Issue.record("a 3 g sample was not rejected as not gravity")
            return
        }
        #expect(abs(g - 3 * 9.81 / 9.80665) < 1e-9)
    }

    @Test func isQuietBeforeTheFirstSample() {
        var engine = ScrollEngine(settings: ScrollSettings())
        #expect(engine.frame(at: 0) == nil)
        #expect(engine.frame(at: 100) == nil)
        #expect(engine.nextFrameTime == nil)
        #expect(engine.readout.isStale)
        #expect(engine.neutral == nil)
    }

    @Test func haltStopsAtOnceAndKeepsTheNeutralPose() {
        var engine = ScrollEngine(settings: ScrollSettings())
        var run = Run(engine: engine)
        let pose = { (t: Double) in Pose.gravity(away: 20 + 30 * ease(t, 0.2, 0.6)) }
        drive(&engine, to: 2, until: 2, into: &run, pose: pose)
        let neutral = engine.neutral
        #expect(engine.nextFrameTime != nil)
        engine.halt()
        #expect(engine.nextFrameTime == nil)
        #expect(engine.frame(at: 2.1) == nil)
        #expect(engine.readout.speed == 0)
        #expect(engine.neutral == neutral)
        // The device comes back still tilted: scrolling resumes, from rest.
        run.frames = []
        drive(&engine, from: 3, to: 5, into: &run, pose: pose)
        #expect(abs(run.frames.first!.frame.verticalHiRes) <= 2)
        #expect(run.verticalTotal < -1000)
    }

    @Test func survivesHugeGapsAndAClockThatJumpsBack() {
        var engine = ScrollEngine(settings: ScrollSettings())
        var run = Run(engine: engine)
        drive(&engine, to: 2, until: 2, into: &run) { t in Pose.gravity(away: 20 + 30 * ease(t, 0.2, 0.6)) }
        // The daemon was stopped for a long time: one frame covers the stale stop, then nothing.
        let late = engine.frame(at: 1e6)
        #expect(abs(Int(late?.verticalHiRes ?? 0)) <= Int(12 * 120 * (0.06 + 0.2 + 0.02)) + 1)
        #expect(engine.nextFrameTime == nil)
        #expect(engine.frame(at: 2e6) == nil)
        // Samples resume much later, then the clock restarts from zero.
        run.frames = []
        drive(&engine, from: 1e6, to: 1e6 + 2, into: &run) { _ in Pose.gravity(away: 45) }
        #expect(run.verticalTotal < -1000)
        run.frames = []
        drive(&engine, from: 0, to: 2, until: 2, into: &run) { _ in Pose.gravity(away: 45) }
        #expect(run.verticalTotal < -1000)
        #expect(engine.frame(at: .nan) == nil)
        #expect(engine.frame(at: .infinity) == nil)
        // The output clock jumps back while scrolling: a new time base, not 100 s of scrolling on old data.
        #expect(engine.nextFrameTime != nil)
        _ = engine.frame(at: -100)
        #expect(engine.nextFrameTime == nil)
        #expect(engine.frame(at: -99.9) == nil)
        #expect(engine.readout.isStale)
        #expect(engine.neutral != nil)
    }

    @Test func applyingNewSettingsKeepsTheMotionContinuous() {
        var engine = ScrollEngine(settings: ScrollSettings())
        var run = Run(engine: engine)
        let pose = { (t: Double) in Pose.gravity(away: 20 + 30 * ease(t, 0.2, 0.6)) }
        drive(&engine, to: 2, until: 2, into: &run, pose: pose)
        let neutral = engine.neutral
        var faster = ScrollSettings()
        faster.speed = 30
        faster.outputRate = 120
        engine.apply(faster)
        #expect(engine.neutral == neutral)
        #expect(engine.readout.speed == -12)
        #expect(engine.readout.targetSpeed == -30)
        drive(&engine, from: 2.02, to: 4, into: &run, pose: pose)
        let after = run.clock.filter { $0.time > 2 && $0.time <= 4 }
        var previous = (time: 2.0, speed: -12.0)
        for (t, r) in after {
            #expect(abs(r.speed - previous.speed) <= 60 * (t - previous.time) + 1e-9)
            previous = (t, r.speed)
        }
        #expect(previous.speed == -30)
        let spacing = after.suffix(10).map(\.time)
        for (a, b) in zip(spacing, spacing.dropFirst()) { #expect(abs(b - a - 1.0 / 120) < 1e-9) }
    }

    @Test func absurdSettingsAreBroughtIntoRange() {
        var s = ScrollSettings()
        s.speed = .nan
        s.deadZoneDegrees = -5
        s.maxTiltDegrees = 2
        s.curve = 0
        s.outputRate = 0
        s.maxAcceleration = -1
        s.sampleRate = .infinity
        s.gravityTolerance = 7
        s.smoothingMinCutoff = 0
        let engine = ScrollEngine(settings: s)
        let used = engine.settings
        #expect(used.speed == 12)
        #expect(used.deadZoneDegrees == 0)
        #expect(used.maxTiltDegrees == 9)  // above the 8 degree horizontal dead zone
        #expect(used.curve == 0.25)
        #expect(used.outputRate == 10)
        #expect(used.maxAcceleration == 1)
        #expect(used.sampleRate == 50)
        #expect(used.gravityTolerance == 0.9)
        #expect(used.smoothingMinCutoff == 0.01)
        let r = simulate(s, to: 3) { t in Pose.gravity(away: 20 + 30 * ease(t, 0.2, 0.6)) }
        #expect(r.verticalTotal < 0)
        #expect(ScrollSettings().inconsistency == nil)
        var bad = ScrollSettings()
        bad.deadZoneDegrees = 30
        #expect(bad.inconsistency == "DeadZone=30.0 must be less than MaxTilt=25.0")
    }
}
