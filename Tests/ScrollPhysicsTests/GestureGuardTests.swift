import Testing

@testable import ScrollPhysics

@Suite struct GestureGuardBehaviour {
    func sine(_ degrees: Double) -> Double { MathFunctions.sine(degrees: degrees) }

    func guarded(neutralRoll: Double = 0) -> GestureGuard {
        var g = GestureGuard()
        g.configure(for: ScrollSettings())  // max tilt 25: disarm beyond 35, re-arm within 8
        g.recentre(neutralRoll: neutralRoll)
        return g
    }

    @Test func disarmsBeyondFullSpeedPlusTenAndRearmsInsideTheWidestDeadZone() {
        var g = guarded()
        #expect(g.limitDegrees == 35 && g.rearmDegrees == 8)
        g.observe(sinRoll: sine(34), smoothedRoll: nil)
        #expect(g.isArmed)
        g.observe(sinRoll: sine(36), smoothedRoll: nil)
        #expect(!g.isArmed)
        g.observe(sinRoll: sine(9), smoothedRoll: nil)
        #expect(!g.isArmed)
        g.observe(sinRoll: sine(7), smoothedRoll: nil)
        #expect(g.isArmed)
    }

    @Test func bandsFollowTheNeutralRoll() {
        var g = guarded(neutralRoll: 20)
        g.observe(sinRoll: sine(54), smoothedRoll: nil)
        #expect(g.isArmed)
        g.observe(sinRoll: sine(-16), smoothedRoll: nil)
        #expect(!g.isArmed)
        g.observe(sinRoll: sine(25), smoothedRoll: nil)
        #expect(g.isArmed)
    }

    @Test func withHorizontalScrollingTheSmoothedRollMustBeBackToo() {
        var g = guarded()
        g.observe(sinRoll: sine(60), smoothedRoll: 60)
        #expect(!g.isArmed)
        g.observe(sinRoll: sine(2), smoothedRoll: 20)
        #expect(!g.isArmed, "the filter still lags behind")
        g.observe(sinRoll: sine(2), smoothedRoll: .nan)
        #expect(!g.isArmed)
        g.observe(sinRoll: sine(2), smoothedRoll: 5)
        #expect(g.isArmed)
    }
}
