import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// A finger or pen on the screen (issue 11 item 4, the engine's side):
/// `ScrollEngine.touch(_:at:)` pauses tilt within one output frame and, when
/// the last contact lifts, makes the pose held then the neutral one.
@Suite struct TouchBehaviour {
    /// Held at 30 degrees, tilted to `pitch(t)`, in a hand; samples at 50 Hz,
    /// frames when due, touches at the given times.
    private func run(
        _ settings: ScrollSettings = ScrollSettings(), to end: Double, touches: [(Double, Bool)],
        pitch: @escaping (Double) -> Double
    ) -> Run {
        var engine = ScrollEngine(settings: settings)
        var r = Run(engine: engine)
        var pending = touches
        var i = 0
        while true {
            let t = Double(i) / 50
            guard t <= end else { break }
            while let due = engine.nextFrameTime, due <= t {
                if let f = engine.frame(at: due) { r.frames.append((due, f)) }
                r.clock.append((due, engine.readout))
            }
            while let (time, touching) = pending.first, time <= t {
                pending.removeFirst()
                engine.touch(touching, at: time)
            }
            engine.feed(Pose.held(away: pitch(t), at: t), at: t)
            i += 1
        }
        r.engine = engine
        return r
    }

    private func tilted(_ t: Double) -> Double { 30 + 20 * ease(t, 1, 1.5) }

    @Test func aContactPausesScrollingWithinOneFrame() {
        let r = run(to: 6, touches: [(3.0, true)], pitch: tilted)
        #expect(r.frames(in: 2...3).count > 50, "it was scrolling")
        let after = r.frames.filter { $0.time > 3 }
        #expect(after.count <= 1, "frames after the touch: \(after.map(\.time))")
        if let f = after.first { #expect(f.time <= 3 + 1.0 / 60 + 1e-9) }
        #expect(r.engine.readout.intent == .touched)
        #expect(r.engine.readout.speed == 0)
        #expect(r.engine.nextFrameTime == nil)
    }

    @Test func liftingTheLastContactMakesThePoseHeldTheNeutralOne() {
        // Tilted to 50 from 1 s, touched at 3 s; while touched the hand goes
        // to 44; released at 5 s; from 8 s tilted 12 degrees further.
        let pitch = { (t: Double) in self.tilted(t) - 6 * ease(t, 3.2, 3.8) + 12 * ease(t, 8, 8.5) }
        let r = run(to: 12, touches: [(3.0, true), (5.0, false)], pitch: pitch)
        #expect(r.frames(in: 3.05...7.99).isEmpty, "the pose held at release is neutral: nothing scrolls")
        #expect(r.engine.readout.intent != .touched)
        let resumed = r.frames(in: 8...12).reduce(0) { $0 + Int($1.frame.verticalHiRes) }
        #expect(resumed < -600, "a tilt away from the new neutral scrolls towards the end (\(resumed))")
    }

    @Test func withoutZeroOnTouchItResumesFromTheOldNeutralWithoutABurst() {
        var s = ScrollSettings()
        s.zeroOnTouch = false
        let r = run(s, to: 7, touches: [(3.0, true), (4.0, false)], pitch: tilted)
        #expect(r.frames(in: 3.05...4.0).isEmpty)
        let before = r.clock.last { $0.time < 3 }!.readout.speed
        let resumed = r.clock.filter { $0.time > 4 }
        #expect(before < -5)
        #expect(resumed.contains { abs($0.readout.speed - before) < 0.05 * abs(before) }, "back to the speed before")
        // The speed comes back within the acceleration limit: no jump.
        for (a, b) in zip(resumed, resumed.dropFirst()) {
            #expect(abs(b.readout.speed - a.readout.speed) <= s.maxAcceleration * (b.time - a.time) + 1e-9)
        }
    }

    @Test func withoutPauseOnTouchAContactScrollsOnAndStillReZeroes() {
        var s = ScrollSettings()
        s.pauseOnTouch = false
        let r = run(s, to: 8, touches: [(3.0, true), (4.0, false)], pitch: tilted)
        #expect(r.frames(in: 3.1...3.9).count > 40, "touching does not pause")
        #expect(r.frames(in: 4.5...8).isEmpty, "the pose at release became neutral")
    }

    @Test func repeatingATouchChangesNothing() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.feed(Pose.held(away: 30, at: 0), at: 0)
        engine.touch(false, at: 0.01)
        #expect(engine.readout.intent != .touched)
        engine.touch(true, at: 0.02)
        engine.touch(true, at: 0.03)
        #expect(engine.readout.intent == .touched)
        engine.touch(false, at: 0.04)
        #expect(engine.readout.intent != .touched)
    }

    @Test func aTouchLineInATraceIsReplayedAtItsTime() throws {
        let scenario = FeelScenario.touchAndScroll
        var source = SyntheticSensor(script: scenario.script, model: .kxcjk, seed: 1)
        let trace = try Trace.parse(source.trace().text())
        #expect(trace.touches.map(\.time) == [6, 8])
        var replay = ScrollReplay(trace: trace, settings: ScrollSettings())
        var touched: [Double] = []
        var frames: [(Double, ScrollFrame)] = []
        while let step = replay.next() {
            if case .touch(true) = step.event { touched.append(step.time) }
            if let f = step.frame { frames.append((step.time, f)) }
        }
        #expect(touched == [6])
        #expect(frames.filter { $0.0 > 6 + 1.0 / 60 && $0.0 < 10.9 }.isEmpty)
        #expect(frames.filter { $0.0 > 11 }.count > 100)
    }
}
