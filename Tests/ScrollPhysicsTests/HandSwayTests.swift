import Testing

@testable import ScrollPhysics

@Suite struct HandSwayBehaviour {
    @Test func theQuieterQuarterOnceEightWindowsAreIn() {
        var hand = HandSway()
        for i in 1...7 {
            hand.add(Double(i))
            #expect(hand.quietQuarter == nil, "\(i) windows")
        }
        hand.add(8)
        #expect(hand.quietQuarter == 2, "the 2nd smallest of 8")
        for i in 9...12 { hand.add(Double(i)) }
        #expect(hand.quietQuarter == 3, "the 3rd smallest of 12")
        for i in 13...16 { hand.add(Double(i)) }
        #expect(hand.quietQuarter == 4, "the 4th smallest of 16")
        hand.add(100)
        #expect(hand.quietQuarter == 5, "the oldest (1) gave way")
    }

    /// A deliberate tilt's windows sway enormously; up to three quarters of
    /// them leave the quieter quarter where the hand's own sway puts it.
    @Test func aTiltDoesNotMakeTheHandLookShakier() {
        var hand = HandSway()
        for i in 0..<16 { hand.add(i % 4 == 0 ? 1 : 1000) }
        #expect(hand.quietQuarter == 1)
        hand.forget()
        #expect(hand.quietQuarter == nil)
    }
}
