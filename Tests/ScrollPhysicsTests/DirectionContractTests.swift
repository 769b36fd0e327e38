import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// "Tilting the top edge of the display away from the user scrolls towards the
/// end of the document: negative REL_WHEEL_HI_RES / REL_WHEEL. Towards the
/// user: positive." In every orientation, followed or pinned.
@Suite struct DirectionContract {
    private func run(
        _ orientation: ScreenOrientation, from start: Double, to end: Double, rightDown: Double = 0,
        settings: ScrollSettings = ScrollSettings()
    ) -> Run {
        simulate(settings, to: 3) { t in
            Pose.gravity(
                away: start + (end - start) * ease(t, 0.5, 1), rightDown: rightDown * ease(t, 0.5, 1),
                orientation: orientation)
        }
    }

    @Test(arguments: ScreenOrientation.allCases)
    func awayFromTheUserScrollsTowardsTheEnd(_ o: ScreenOrientation) {
        let r = run(o, from: 20, to: 40)
        #expect(r.engine.readout.orientation == o)
        #expect(!r.frames.isEmpty)
        #expect(r.frames.allSatisfy { $0.frame.verticalHiRes <= 0 && $0.frame.verticalDetents <= 0 })
        #expect(r.verticalTotal < -600)
        #expect(r.verticalDetentTotal < -5)
        #expect(r.horizontalTotal == 0)
    }

    @Test(arguments: ScreenOrientation.allCases)
    func towardsTheUserScrollsTowardsTheStart(_ o: ScreenOrientation) {
        let r = run(o, from: 30, to: 10)
        #expect(r.frames.allSatisfy { $0.frame.verticalHiRes >= 0 })
        #expect(r.verticalTotal > 600)
    }

    @Test(arguments: ScreenOrientation.allCases)
    func holdsWhenTheOrientationIsPinned(_ o: ScreenOrientation) {
        var s = ScrollSettings()
        s.orientation = .fixed(o)
        #expect(run(o, from: 20, to: 40, settings: s).verticalTotal < -600)
        #expect(run(o, from: 30, to: 10, settings: s).verticalTotal > 600)
    }

    @Test func holdsNearFlat() {
        // Neutral lying flat on a lap; the top edge comes up towards the user, then goes past flat.
        #expect(run(.normal, from: 88, to: 70).verticalTotal > 600)
        #expect(run(.normal, from: 88, to: 106).verticalTotal < -600)
    }

    @Test func invertReversesIt() {
        var s = ScrollSettings()
        s.invert = true
        #expect(run(.normal, from: 20, to: 40, settings: s).verticalTotal > 600)
        #expect(run(.leftUp, from: 30, to: 10, settings: s).verticalTotal < -600)
    }

    @Test(arguments: ScreenOrientation.allCases)
    func rightEdgeDownScrollsRight(_ o: ScreenOrientation) {
        var s = ScrollSettings()
        s.horizontal = true
        let right = run(o, from: 30, to: 30, rightDown: 20, settings: s)
        #expect(right.engine.readout.orientation == o)
        #expect(right.horizontalTotal > 400)
        #expect(right.frames.allSatisfy { $0.frame.horizontalHiRes >= 0 })
        #expect(abs(right.verticalTotal) == 0)
        #expect(run(o, from: 30, to: 30, rightDown: -20, settings: s).horizontalTotal < -400)
    }

    @Test func sidewaysTiltIsSilentWhenHorizontalIsOff() {
        let r = run(.normal, from: 30, to: 30, rightDown: 20)
        #expect(r.frames.isEmpty)
        #expect(r.engine.nextFrameTime == nil)
    }

    @Test func sidewaysTiltHasItsOwnDeadZone() {
        var s = ScrollSettings()
        s.horizontal = true
        s.horizontalDeadZoneDegrees = 8
        #expect(run(.normal, from: 30, to: 30, rightDown: 7, settings: s).frames.isEmpty)
        #expect(run(.normal, from: 30, to: 30, rightDown: 12, settings: s).horizontalTotal > 0)
        // A forward tilt with a little sideways wobble scrolls only vertically.
        let forward = run(.normal, from: 20, to: 40, rightDown: 6, settings: s)
        #expect(forward.horizontalTotal == 0)
        #expect(forward.verticalTotal < -600)
    }
}
