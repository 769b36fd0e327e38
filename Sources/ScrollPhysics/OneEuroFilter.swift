/// The 1-euro filter (Casiez, Roussel and Vogel, "1 € Filter: A Simple
/// Speed-based Low-pass Filter for Noisy Input in Interactive Systems", CHI
/// 2012): a first-order low-pass whose cutoff rises with the signal's speed,
/// so a still hand gives a steady angle and a moving one gets little lag.
///
/// Time is passed in with each value, so uneven or slow sample rates (a 10 Hz
/// HID sensor, a dropped sample) are filtered correctly.
public struct OneEuroFilter: Sendable, Equatable {
    /// Cutoff at rest, Hz.
    public var minCutoff: Double
    /// Cutoff increase per unit of speed of the signal (Hz per unit/s).
    public var beta: Double
    /// Cutoff of the speed estimate, Hz; the paper's recommended 1 Hz.
    public var derivativeCutoff: Double

    /// The filtered value; nil until the first value.
    public private(set) var value: Double?
    /// Filtered speed of the signal, units per second.
    public private(set) var speed: Double = 0
    private var lastTime: Double = 0

    public init(minCutoff: Double, beta: Double, derivativeCutoff: Double = 1) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// Forget the history and start at `x` (a new sensor, a gap, a new frame of reference).
    public mutating func reset(to x: Double, at time: Double) {
        value = x
        speed = 0
        lastTime = time
    }

    /// Forget everything; the next value passes through unfiltered.
    public mutating func clear() {
        value = nil
        speed = 0
    }

    /// Feeds `x` observed at `time`, returns the filtered value. A time that
    /// does not advance leaves the state unchanged (there is no interval to
    /// filter over).
    @discardableResult
    public mutating func filter(_ x: Double, at time: Double) -> Double {
        guard let previous = value else {
            reset(to: x, at: time)
            return x
        }
        let dt = time - lastTime
        guard dt > 0 else { return previous }
        let rawSpeed = (x - previous) / dt
        speed += Self.smoothingFactor(cutoff: derivativeCutoff, interval: dt) * (rawSpeed - speed)
        let cutoff = minCutoff + beta * abs(speed)
        let filtered = previous + Self.smoothingFactor(cutoff: cutoff, interval: dt) * (x - previous)
        value = filtered
        lastTime = time
        return filtered
    }

    /// The exponential smoothing factor of a first-order low-pass with this
    /// cutoff over `interval` seconds: 1 / (1 + tau / interval), tau = 1 / (2 pi cutoff).
    @inline(__always)
    static func smoothingFactor(cutoff: Double, interval: Double) -> Double {
        let r = 2 * Double.pi * cutoff * interval
        return r / (r + 1)
    }
}
