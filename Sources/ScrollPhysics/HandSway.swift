/// How much the hand holding the device sways, as one of the stillness
/// windows sees it (`IntentGuard` keeps one for the short window and one
/// for the medium one): what it needs to tell, from one still window
/// without a carry, that the hand has let go.
///
/// A hand never holds a pose as still as a table (`StillnessMeter`), but
/// its sway is slow (below 1 Hz), so over a short window (1.4 s) it now and
/// then moves little: the steadiest hand promised (0.3 degrees rms) on a
/// part with 3 mg of noise looks still in about 2 % of those windows, on one
/// with 6 mg in 17 %; a hand with 0.6 degrees on 3 mg never did in
/// thousands. So one still window says "the hand has gone" only for a hand
/// whose sway, even in its quieter moments, stands far out of the part's
/// noise in such a window. This keeps the `excess` sway
/// (`StillnessMeter.Sway`, squared radians, whatever the rate) of the last
/// `capacity` windows judged while the hand held the device and turned it
/// in none of their blocks, and gives their lower quartile: the sway the
/// hand shows in a quiet moment, robust against the windows of a slow
/// deliberate tilt (up to three quarters of them).
struct HandSway: Sendable {
    /// 16 windows, one a block: 5.6 s of holding (and the first window's
    /// length before them).
    static let capacity = 16
    /// The fewest windows a quartile is taken of: 8, 3.85 s of holding
    /// without a turn for the short window, 5.25 s for the medium one.
    static let fewest = 8

    private var excesses:
        (
            Double, Double, Double, Double, Double, Double, Double, Double,
            Double, Double, Double, Double, Double, Double, Double, Double
        ) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var next = 0
    private var held = 0

    init() {}

    /// One window's excess sway, judged while a hand held the device.
    mutating func add(_ excess: Double) {
        withUnsafeMutableBytes(of: &excesses) { $0.storeBytes(of: excess, toByteOffset: next * 8, as: Double.self) }
        next = next == Self.capacity - 1 ? 0 : next + 1
        if held < Self.capacity { held += 1 }
    }

    /// The lower quartile of the windows held (the 2nd smallest of 8 to
    /// the 4th of 16), once there are `fewest`; nil before.
    var quietQuarter: Double? {
        guard held >= Self.fewest else { return nil }
        // The four smallest, kept sorted: a = smallest ... d = 4th.
        var a = Double.infinity
        var b = Double.infinity
        var c = Double.infinity
        var d = Double.infinity
        withUnsafeBytes(of: excesses) { bytes in
            for i in 0..<held {
                let x = bytes.load(fromByteOffset: i * 8, as: Double.self)
                guard x < d else { continue }
                if x < a {
                    (a, b, c, d) = (x, a, b, c)
                } else if x < b {
                    (b, c, d) = (x, b, c)
                } else if x < c {
                    (c, d) = (x, c)
                } else {
                    d = x
                }
            }
        }
        switch held / 4 {
        case 2: return b
        case 3: return c
        default: return d
        }
    }

    /// Forget the hand (another may take the device next).
    mutating func forget() {
        next = 0
        held = 0
    }
}
