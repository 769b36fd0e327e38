import Foundation
import Testing

@testable import ScrollPhysics

@Suite struct OrientationTracking {
    /// Feeds `pose(t)` at 50 Hz over [from, to] and returns the orientation after each sample.
    private func track(
        _ tracker: inout OrientationTracker, from: Double, to: Double, pose: (Double) -> Vector3
    ) -> [(Double, ScreenOrientation)] {
        var out: [(Double, ScreenOrientation)] = []
        var t = from
        while t <= to + 1e-9 {
            _ = tracker.update(gravity: pose(t), at: t, maximumGap: 0.06)
            out.append((t, tracker.orientation))
            t += 0.02
        }
        return out
    }

    @Test(arguments: ScreenOrientation.allCases)
    func firstSampleDecidesTheOrientation(_ o: ScreenOrientation) {
        var tracker = OrientationTracker(setting: .auto)
        let changed = tracker.update(gravity: Pose.gravity(away: 30, orientation: o), at: 0, maximumGap: 1)
        #expect(changed == (o != .normal))
        #expect(tracker.orientation == o)
    }

    @Test func startsNormalWhenLyingFlat() {
        var tracker = OrientationTracker(setting: .auto)
        _ = tracker.update(gravity: Pose.gravity(away: 85, orientation: .leftUp), at: 0, maximumGap: 1)
        #expect(tracker.orientation == .normal)
    }

    @Test func turnsAfterTheDwellTime() {
        var tracker = OrientationTracker(setting: .auto)
        let history = track(&tracker, from: 0, to: 1) { t in Pose.turned(t < 0.2 ? 0 : 90) }
        let switched = history.first { $0.1 == .leftUp }?.0
        #expect(switched != nil)
        #expect(abs((switched ?? 0) - 0.5) < 0.021)  // 0.2 s + 0.3 s dwell
    }

    @Test func aWobbleShorterThanTheDwellNeverFlips() {
        var tracker = OrientationTracker(setting: .auto)
        // Three 0.25 s swings to 80 degrees, as when the device is knocked or waved.
        let history = track(&tracker, from: 0, to: 3) { t in
            let phase = t.truncatingRemainder(dividingBy: 1)
            return Pose.turned(phase > 0.5 && phase < 0.75 ? 80 : 0)
        }
        #expect(history.allSatisfy { $0.1 == .normal })
    }

    /// iio-sensor-proxy's rule, as the field notes describe it: no time filter, switch at 35 degrees.
    private func proxyRule(_ g: Vector3, previous: ScreenOrientation) -> ScreenOrientation {
        let portrait = atan2(g.x, (g.y * g.y + g.z * g.z).squareRoot()) * 180 / .pi
        let landscape = atan2(g.y, (g.x * g.x + g.z * g.z).squareRoot()) * 180 / .pi
        if abs(portrait) >= 35, abs(landscape) >= 35 { return previous }
        if portrait >= 35 { return .leftUp }
        if portrait <= -35 { return .rightUp }
        if landscape <= -35 { return .normal }
        if landscape >= 35 { return .bottomUp }
        return previous
    }

    @Test func ignoresTheBumpThatFlipsIioSensorProxy() {
        let bump = Pose.turned(70)
        #expect(proxyRule(bump, previous: .normal) == .leftUp)
        var tracker = OrientationTracker(setting: .auto)
        let history = track(&tracker, from: 0, to: 1) { t in t >= 0.4 && t < 0.5 ? bump : Pose.turned(0) }
        #expect(history.allSatisfy { $0.1 == .normal })
    }

    @Test(arguments: [20.0, 40.0, 55.0, 59.0])
    func staysWithinTheHysteresisBand(_ turn: Double) {
        var tracker = OrientationTracker(setting: .auto)
        let history = track(&tracker, from: 0, to: 3) { t in Pose.turned(t < 0.1 ? 0 : turn) }
        #expect(history.allSatisfy { $0.1 == .normal })
        #expect(!tracker.isPending)
    }

    @Test func hysteresisKeepsTheNewOrientationOnTheWayBack() {
        var tracker = OrientationTracker(setting: .auto)
        _ = track(&tracker, from: 0, to: 1) { t in Pose.turned(t < 0.1 ? 0 : 65) }
        #expect(tracker.orientation == .leftUp)
        // Back to 40 degrees from normal: 50 degrees from left-up's down, inside its band.
        _ = track(&tracker, from: 1.02, to: 3) { _ in Pose.turned(40) }
        #expect(tracker.orientation == .leftUp)
        _ = track(&tracker, from: 3.02, to: 4) { _ in Pose.turned(25) }
        #expect(tracker.orientation == .normal)
    }

    @Test func aReclinedDeviceStillTurns() {
        var tracker = OrientationTracker(setting: .auto)
        _ = track(&tracker, from: 0, to: 1) { t in Pose.turned(t < 0.1 ? 0 : 90, away: 60) }
        #expect(tracker.orientation == .leftUp)
        _ = track(&tracker, from: 1.02, to: 2) { _ in Pose.turned(-90, away: 60) }
        #expect(tracker.orientation == .rightUp)
        _ = track(&tracker, from: 2.02, to: 3) { _ in Pose.turned(180, away: 50) }
        #expect(tracker.orientation == .bottomUp)
    }

    @Test func aSidewaysScrollTiltNearFlatKeepsTheOrientation() {
        var tracker = OrientationTracker(setting: .auto)
        _ = tracker.update(gravity: Pose.gravity(away: 20), at: 0, maximumGap: 1)
        // Lying almost flat (75 degrees back), tilted 20 degrees sideways for two seconds.
        let history = track(&tracker, from: 0.02, to: 2) { _ in Pose.gravity(away: 75, rightDown: 20) }
        #expect(history.allSatisfy { $0.1 == .normal })
    }

    @Test func aPinnedOrientationNeverChanges() {
        var tracker = OrientationTracker(setting: .fixed(.rightUp))
        let history = track(&tracker, from: 0, to: 2) { t in Pose.turned(t * 180) }
        #expect(history.allSatisfy { $0.1 == .rightUp })
        let changed = tracker.apply(.fixed(.normal))
        #expect(changed)
        #expect(tracker.orientation == .normal)
    }

    @Test func aGapInTheSamplesRestartsTheDwell() {
        var tracker = OrientationTracker(setting: .auto)
        _ = tracker.update(gravity: Pose.turned(0), at: 0, maximumGap: 0.06)
        _ = tracker.update(gravity: Pose.turned(90), at: 0.02, maximumGap: 0.06)
        #expect(tracker.isPending)
        // Silent for a second: the next sample is fresh evidence, not 1 s of it.
        let early = tracker.update(gravity: Pose.turned(90), at: 1.02, maximumGap: 0.06)
        #expect(!early)
        #expect(tracker.orientation == .normal)
        let late = tracker.update(gravity: Pose.turned(90), at: 1.34, maximumGap: 0.5)
        #expect(late)
        #expect(tracker.orientation == .leftUp)
    }
}
