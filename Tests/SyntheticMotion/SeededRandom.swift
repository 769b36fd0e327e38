import ScrollPhysics

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny deterministic generator,
/// so synthetic traces and randomized properties are the same on every
/// machine and a failure can be replayed from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// Roughly normal (sum of uniforms), mean 0, standard deviation `sigma`.
    public mutating func gaussian(sigma: Double) -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += uniform(0...1) }
        return (sum - 6) * sigma
    }

    /// Three draws of `gaussian(sigma:)`, x first: white noise on each axis.
    public mutating func gaussianVector(sigma: Double) -> Vector3 {
        let x = gaussian(sigma: sigma)
        let y = gaussian(sigma: sigma)
        return Vector3(x, y, gaussian(sigma: sigma))
    }
}
