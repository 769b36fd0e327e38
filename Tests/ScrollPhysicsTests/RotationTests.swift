import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// The user turns the device to another orientation while holding it.
@Suite struct ScreenRotation {
    private var settings: ScrollSettings {
        var s = ScrollSettings()
        s.horizontal = true
        return s
    }

    /// Turned to left-up over half a second at 1 s, re-gripped 10 degrees
    /// further back, held; then, from 4 s, tilted away by 20 degrees.
    private func rotateAndRegrip(away: Double) -> (Double) -> Vector3 {
        { t in Pose.turned(90 * ease(t, 1, 1.5), away: away + 10 * ease(t, 1.5, 1.8) + 20 * ease(t, 4, 4.4)) }
    }

    @Test(arguments: [0.0, 30.0, 60.0])
    func aRotationDerivesANewNeutralWithoutScrolling(away: Double) {
        let r = simulate(settings, to: 6, pose: rotateAndRegrip(away: away))
        #expect(r.engine.readout.orientation == .leftUp)
        // Turning is not a gesture: less than a detent leaks out while the
        // rotation is still ambiguous, and no legacy detent at all.
        let turning = r.frames(in: 0...4)
        #expect(abs(turning.reduce(0) { $0 + Int($1.frame.verticalHiRes) }) < 60)
        #expect(abs(turning.reduce(0) { $0 + Int($1.frame.horizontalHiRes) }) < 120)
        #expect(turning.allSatisfy { $0.frame.verticalDetents == 0 && $0.frame.horizontalDetents == 0 })
        // Settled on the new grip: nothing moves from 1.8 s (+ settle) to 4 s.
        #expect(r.frames(in: 2.3...4).isEmpty)
        // Then the contract holds in the new orientation.
        let after = r.frames(in: 4...10)
        #expect(after.reduce(0) { $0 + Int($1.frame.verticalHiRes) } < -600)
        #expect(after.allSatisfy { $0.frame.horizontalHiRes == 0 })
    }

    @Test func theNeutralPoseIsReDerivedInTheNewOrientation() {
        var engine = ScrollEngine(settings: settings)
        var run = Run(engine: engine)
        let pose = rotateAndRegrip(away: 30)
        drive(&engine, to: 1.5, until: 1.5, into: &run, pose: pose)
        // Mid-turn: the switch is pending or has just happened; the neutral is provisional.
        drive(&engine, from: 1.52, to: 3.5, into: &run, pose: pose)
        #expect(engine.readout.neutral == .set)
        let held = Pose.turned(90, away: 40).normalized!
        #expect(engine.neutral!.dot(held) > 0.9995)  // within 2 degrees of the new grip
    }

    @Test func theNeutralIsCarriedOverWhileItSettles() {
        var engine = ScrollEngine(settings: settings)
        engine.feed(Pose.gravity(away: 30), at: 0)
        // Pin a new orientation: same pose in the user's new frame, then settle.
        var pinned = settings
        pinned.orientation = .fixed(.rightUp)
        engine.apply(pinned)
        #expect(engine.readout.orientation == .rightUp)
        guard case .settling = engine.readout.neutral else {
            Issue.record("expected settling, got \(engine.readout.neutral.name)")
            return
        }
        let carried = Pose.gravity(away: 30, orientation: .rightUp).normalized!
        #expect(engine.neutral!.dot(carried) > 1 - 1e-12)
    }

    @Test func aRestoredNeutralFromAnotherOrientationSettlesInsteadOfScrolling() {
        var engine = ScrollEngine(settings: settings)
        engine.restoreNeutral(Pose.gravity(away: 10, orientation: .normal))
        var run = Run(engine: engine)
        drive(&engine, to: 3, into: &run) { _ in Pose.gravity(away: 35, orientation: .leftUp) }
        #expect(engine.readout.orientation == .leftUp)
        #expect(engine.readout.neutral == .set)
        #expect(run.frames.isEmpty)
    }

    @Test func aFlatRestoredNeutralIsValidInEveryOrientation() {
        for o in ScreenOrientation.allCases {
            var engine = ScrollEngine(settings: settings)
            engine.restoreNeutral(Vector3(0, 0, -1))
            var run = Run(engine: engine)
            drive(&engine, to: 3, into: &run) { _ in Pose.gravity(away: 60, orientation: o) }
            #expect(engine.readout.orientation == o)
            #expect(run.verticalTotal > 600, "\(o): lifting the top edge from flat scrolls up")
        }
    }

    @Test func aLargeSidewaysTiltDisarmsUntilTheDeviceComesBack() {
        // 40 degrees sideways, well past full speed but short of a rotation:
        // nothing, until the device has come back near neutral.
        let r = simulate(settings, to: 6) { t in
            Pose.gravity(away: 20, rightDown: 40 * ease(t, 1, 1.3) - 40 * ease(t, 3, 3.3) + 15 * ease(t, 4.5, 4.8))
        }
        #expect(r.engine.readout.orientation == .normal)
        #expect(abs(r.frames(in: 1.6...4.5).reduce(0) { $0 + Int($1.frame.horizontalHiRes) }) == 0)
        #expect(r.frames(in: 4.5...10).reduce(0) { $0 + Int($1.frame.horizontalHiRes) } > 100)
    }
}
