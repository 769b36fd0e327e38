/// How much something other than the hand's tilting moves the device:
/// walking (a vertical bounce of 0.1-0.3 g near 2 Hz at the hand, field
/// notes), riding in a vehicle (bumps up to 1 g), a knock.
///
/// Tilting turns gravity but keeps its magnitude at 1 g; being carried
/// changes the magnitude. So the meter watches the magnitude of every
/// accepted sample (within the 1 g gate: a walk and a ride show there, and a
/// part that glitches now and then does not), each taken at most 0.3 g from
/// 1 g: per 0.35 s block its variance about the block mean plus the block
/// mean's distance from the slow mean (time constant 2 s, so a part whose
/// scale is a little off is no jostle); the level is that energy averaged
/// with a time constant of 1 s, in g rms.
///
/// Jostled above 0.05 g: a walk gives 0.07-0.2, a still hand a few
/// thousandths (the noise of the noisiest part here, 6 mg, is an eighth of
/// it), the tangential acceleration of a brisk deliberate tilt stays below
/// it. A physical figure rather than one learnt from the noise: a noise
/// estimate taken while walking is the walk's, and would lift the threshold
/// out of its reach. Calm again once below half that for 2 s (bumps come
/// every second or two on a ride).
struct JostleMeter: Equatable, Sendable {
    static let onG = 0.05
    static let levelSeconds = 1.0
    static let slowMeanSeconds = 2.0
    static let calmSeconds = 2.0
    /// The most one sample's magnitude counts away from 1 g.
    static let largestDeviationG = 0.3

    /// Slow mean of the magnitude minus 1, g.
    private var slowMagnitude: Double?
    /// The magnitude's slow mean, g (1 until measured).
    private(set) var slowMagnitudeG = 1.0
    /// Mean square of the magnitude's movement, g^2.
    private(set) var levelSquared = 0.0
    private(set) var isJostled = false
    private var calmSince: Double?

    init() {}

    /// What one sample's magnitude (g) counts as: g - 1, at most 0.3 g either way
    /// (the gate lets 0.25 g through by default, up to 0.9 g when configured so).
    @inline(__always)
    static func deviation(_ g: Double) -> Double { min(max(g - 1, -largestDeviationG), largestDeviationG) }

    /// Closes a block of `seconds` at `time` whose magnitudes (`deviation`s)
    /// are `magnitude`. Returns true when the jostled state changed.
    mutating func closeBlock(_ magnitude: Moments, seconds: Double, at time: Double) -> Bool {
        let fast = seconds / (Self.levelSeconds + seconds)
        let slow = seconds / (Self.slowMeanSeconds + seconds)
        if magnitude.count > 0 {
            // Variance about the block mean, plus the mean's offset from the slow mean.
            let mean = magnitude.sum / Double(magnitude.count)
            let offset = mean - (slowMagnitude ?? mean)
            levelSquared += fast * (magnitude.variance + offset * offset - levelSquared)
            let updated = slowMagnitude.map { $0 + slow * (mean - $0) } ?? mean
            slowMagnitude = updated
            slowMagnitudeG = 1 + updated
        }
        let on = Self.onG
        if !isJostled {
            guard levelSquared > on * on else { return false }
            isJostled = true
            calmSince = nil
            return true
        }
        let off = on / 2
        guard levelSquared < off * off else {
            calmSince = nil
            return false
        }
        if let since = calmSince {
            guard time - since >= Self.calmSeconds else { return false }
            isJostled = false
            calmSince = nil
            return true
        }
        calmSince = time
        return false
    }
}
