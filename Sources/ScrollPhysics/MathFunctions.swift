// The few elementary functions the standard library lacks (atan2, pow, exp,
// log) come from the C library; nothing else in this module touches it.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Thin names over libm so the rest of the module reads as plain Swift and
/// stays free of platform imports.
enum MathFunctions {
    static let degreesPerRadian = 180 / Double.pi

    /// atan2(y, x) in degrees, in (-180, 180].
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        atan2(y, x) * degreesPerRadian
    }

    @inline(__always)
    static func power(_ base: Double, _ exponent: Double) -> Double { pow(base, exponent) }

    /// e^x - 1, exact for small x.
    @inline(__always)
    static func expMinusOne(_ x: Double) -> Double { expm1(x) }

    /// ln(1 + x), exact for small x.
    @inline(__always)
    static func logOnePlus(_ x: Double) -> Double { log1p(x) }

    static func sine(degrees: Double) -> Double { sin(degrees / degreesPerRadian) }
    static func cosine(degrees: Double) -> Double { cos(degrees / degreesPerRadian) }

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
