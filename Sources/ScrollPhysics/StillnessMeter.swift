/// Tells a device lying on something from one in a hand, by what the sensor
/// shows, with thresholds taken from the sensor's own noise.
///
/// A hand never holds a pose as steadily as a table: postural sway moves the
/// pose by tenths of a degree to a degree or so below 1 Hz; tremor (8-12 Hz)
/// adds hundredths to tenths. A table shows only the sensor's noise, which
/// differs per part (a few mg rms, field notes): a fixed threshold would be
/// too tight for a noisy part and too loose for a quiet one. So the meter
/// compares two measurements of the same samples:
///
/// - the noise, from successive differences (the mean square successive
///   difference, von Neumann 1941): white noise of variance s^2 per axis
///   gives each difference 2 s^2, while a slow movement (sway, a slow tilt)
///   barely changes from one sample to the next; so the noise is learnt from
///   the data of every window, hand-held or not, at any rate;
/// - the slow movement, from the scatter of the means of 0.2 s blocks about
///   their common mean: white noise gives each block mean s^2 / n per axis,
///   so Q = sum(n_k |m_k - M|^2) has the expectation 3 (k - 1) s^2 for k
///   blocks, and anything the pose really does adds to it.
///
/// Their ratio R = Q / (3 (k - 1) s^2) is about 1 on a table for every part
/// and rate, and grows with the sway in a hand. Still also needs the
/// magnitude's block means to stay within 0.025 g rms of their mean (half of
/// what counts as jostled, `JostleMeter.onG`, and several times any part's
/// noise): tilting keeps the magnitude at 1 g, so this costs a hand nothing,
/// and the ringing of a keyboard dock's keys is gone from a 0.2 s mean, but
/// a walk sampled slowly (10 Hz against a 2 Hz bounce) has successive
/// differences as large as noise would and must not pass for a table. And s^2
/// is taken at most 4 times the noise floor, the quietest short window seen
/// (rising by e every 5 minutes, so that it follows a new part or a warmer
/// one): a walk's bounce and wobble, fast against a slow sampling, would
/// otherwise pass for noise. "Still" is R <= 3: a table
/// fails that by chance in about 0.1 % of windows (Q / s^2 is then a
/// chi-square variable with 3 (k - 1) degrees of freedom), and noise that is
/// not quite white (a part's low-pass filter) still passes.
///
/// How long a window must be depends on the sensor: over 1.6 s a hand with
/// 0.3 degrees rms of sway gives R below 3 in 4 % of windows on a 3 mg part
/// and in half of them on a 6 mg part or a hub that reports hundredths of a
/// g; over 6.4 s in well under 1 % at 50 Hz (measured on the synthetic hand
/// of `Hand`). So the meter keeps two sliding windows, `shortSeconds` of 0.2 s
/// blocks and `longSeconds` of 0.8 s blocks, and `IntentGuard` takes the
/// short one only right after the device was carried (a put-down lowers it
/// onto the table), the long one otherwise.
///
/// s^2 never counts below the sensor's quantization, resolution^2 / 12 per
/// axis (when the daemon passes the resolution): a coarse part that reads
/// the same counts over and over has no measurable noise, and one count of
/// change is then the smallest movement it can show. A reading repeated
/// exactly is no new sample (a polling loop faster than the part's rate
/// reads the same register twice) and is left out; blocks of repeats only
/// are still.
///
/// Resting, the device has moved when one sample leaves the rest pose by
/// more than sqrt(40) s (chi-square with 3 degrees of freedom: by chance once
/// in 10^8 samples), or a block mean by more than 5 s / sqrt(n) (once in
/// 10^5 blocks).
struct StillnessMeter: Equatable, Sendable {
    static let blockSeconds = 0.2
    /// The windows: `BlockWindow.capacity` blocks of at least `blockSeconds`
    /// (so at least `shortSeconds`), and as many of `longBlockSeconds`.
    static let shortSeconds = 1.6
    static let longBlockSeconds = 0.8
    static let longSeconds = 6.4
    /// The largest ratio of slow movement to noise that is still.
    static let stillRatio = 3.0
    /// Departure thresholds in units of the noise variance.
    static let sampleDepartureVariances = 40.0
    static let blockDepartureVariances = 25.0
    /// The noise variance a window is judged by is at most this many times the floor.
    static let floorFactor = 4.0
    /// The floor rises by e over this many seconds unless a quieter window comes.
    static let floorRiseSeconds = 300.0
    /// (0.025 g)^2: more variance of the magnitude's block means than this is being carried.
    static let carriedVariance = 0.025 * 0.025

    /// resolution^2 / 12, m^2/s^4 per axis; 0 when the resolution is unknown.
    var quantizationVariance = 0.0
    /// The smallest noise variance per axis of a full short window, m^2/s^4;
    /// +infinity until measured.
    private(set) var noiseFloor = Double.infinity

    /// The reference the sums are taken from (the first sample since the
    /// meter last forgot), so that they stay small and exact.
    private var origin = Vector3.zero
    private var previous: Vector3?
    /// The 0.2 s block being filled and the 0.8 s one it goes into.
    private var block = BlockSums()
    private var longBlock = BlockSums()
    private var short = BlockWindow()
    private var long = BlockWindow()

    /// Where the device rests (mean of the still window, m/s^2) and the noise
    /// variance per axis measured there; nil while not resting.
    private(set) var rest: Rest?

    struct Rest: Equatable, Sendable {
        var pose: Vector3
        var variance: Double
    }

    /// A still window: when it began, its mean and its noise variance.
    struct Still: Equatable, Sendable {
        var since: Double
        var pose: Vector3
        var variance: Double
    }

    /// What the windows say after a block.
    struct Verdict: Equatable, Sendable {
        var shortStill: Still?
        /// Judged only when a long block closes; nil otherwise.
        var longStill: Still?
        /// Resting, the block left the rest pose.
        var departed = false
    }

    init() {}

    /// The noise variance per axis over the short window (not below the
    /// quantization), m^2/s^4; nil before two different samples.
    var noiseVariance: Double? { short.totals.noiseVariance(floor: quantizationVariance) }

    /// One accepted sample. A repeat of the previous one adds nothing.
    @inline(__always)
    mutating func add(_ a: Vector3) {
        guard let p = previous else {
            origin = a
            previous = a
            block.count = 1
            return
        }
        if p.x == a.x, p.y == a.y, p.z == a.z { return }
        let dx = a.x - p.x
        let dy = a.y - p.y
        let dz = a.z - p.z
        block.differences += dx * dx + dy * dy + dz * dz
        block.pairs += 1
        previous = a
        block.count += 1
        block.sum = block.sum + (a - origin)
    }

    /// Whether a sample, resting, is off the rest pose by more than noise allows.
    @inline(__always)
    func departs(_ a: Vector3) -> Bool {
        guard let rest else { return false }
        let d = a - rest.pose
        return d.x * d.x + d.y * d.y + d.z * d.z > Self.sampleDepartureVariances * rest.variance
    }

    /// Closes the 0.2 s block that began at `start`, at `time`, and judges
    /// the windows; `magnitude` holds the block's magnitudes (g - 1, every
    /// sample with finite components).
    mutating func closeBlock(started start: Double, at time: Double, magnitude: Moments) -> Verdict {
        var verdict = Verdict()
        guard previous != nil else { return verdict }
        var closed = block
        closed.begin = start
        closed.end = time
        closed.magnitudes = magnitude
        block = BlockSums()
        if let rest, closed.count > 0 {
            let n = Double(closed.count)
            let d = origin + closed.sum * (1 / n) - rest.pose
            verdict.departed = d.x * d.x + d.y * d.y + d.z * d.z > Self.blockDepartureVariances * rest.variance / n
        }
        short.push(closed)
        let full = short.isFull
        if full, let v = short.totals.noiseVariance(floor: quantizationVariance) {
            noiseFloor = min(v, noiseFloor * (1 + (time - start) / Self.floorRiseSeconds))
        }
        let ceiling = Self.floorFactor * noiseFloor
        if full { verdict.shortStill = short.stillness(floor: quantizationVariance, ceiling: ceiling, origin: origin) }
        longBlock.merge(closed)
        if longBlock.end - longBlock.begin >= Self.longBlockSeconds - 1e-9 {
            long.push(longBlock)
            longBlock = BlockSums()
            if long.isFull {
                verdict.longStill = long.stillness(floor: quantizationVariance, ceiling: ceiling, origin: origin)
            }
        }
        return verdict
    }

    /// The device came to rest at `pose` with noise `variance`.
    mutating func settle(at pose: Vector3, variance: Double) {
        rest = Rest(pose: pose, variance: variance)
    }

    /// The device is no longer resting: stillness must be shown afresh.
    mutating func leaveRest() {
        rest = nil
        forgetWindows()
    }

    /// Forget the windows (a gap in the data, a new time base); the rest
    /// pose, the quantization and the noise floor stay.
    mutating func forgetWindows() {
        previous = nil
        block = BlockSums()
        longBlock = BlockSums()
        short = BlockWindow()
        long = BlockWindow()
    }

    /// Forget everything but the quantization and the noise floor.
    mutating func reset() {
        rest = nil
        forgetWindows()
    }
}

/// Sums over a block of samples, taken relative to the meter's origin.
struct BlockSums: Equatable, Sendable {
    var begin = 0.0
    var end = 0.0
    var count = 0
    var sum = Vector3.zero
    /// Sum of squared successive differences, and how many.
    var differences = 0.0
    var pairs = 0
    /// The samples' magnitudes, g - 1 (rejected samples' too).
    var magnitudes = Moments()

    /// Adds a later block to this one.
    @inline(__always)
    mutating func merge(_ b: BlockSums) {
        if count == 0, pairs == 0 { begin = b.begin }
        end = b.end
        count += b.count
        sum = sum + b.sum
        differences += b.differences
        pairs += b.pairs
        magnitudes.merge(b.magnitudes)
    }

    /// Takes an earlier block out of running totals.
    @inline(__always)
    mutating func remove(_ b: BlockSums) {
        count -= b.count
        sum = sum - b.sum
        differences -= b.differences
        pairs -= b.pairs
        magnitudes.remove(b.magnitudes)
    }

    /// |sum|^2 / count: the block's share of the windows' scatter.
    var meanSquare: Double { count > 0 ? sum.dot(sum) / Double(count) : 0 }

    func noiseVariance(floor: Double) -> Double? {
        guard pairs > 0 else { return nil }
        return max(differences / (6 * Double(pairs)), floor)
    }
}

/// The last `capacity` blocks with running totals, so that judging the
/// window costs the same however many samples it holds, and nothing is
/// allocated.
struct BlockWindow: Equatable, Sendable {
    static let capacity = 8
    private var b0 = BlockSums(), b1 = BlockSums(), b2 = BlockSums(), b3 = BlockSums()
    private var b4 = BlockSums(), b5 = BlockSums(), b6 = BlockSums(), b7 = BlockSums()
    /// The slot the next block goes into (the oldest one once full).
    private var next = 0
    private var held = 0
    /// Sums over the blocks held.
    private(set) var totals = BlockSums()
    /// Sum of the blocks' `meanSquare` and of their magnitudes' sum^2 / count,
    /// and how many blocks have samples.
    private var squares = 0.0
    private var magnitudeSquares = 0.0
    private var blocksWithSamples = 0

    var isFull: Bool { held == Self.capacity }

    private subscript(slot: Int) -> BlockSums {
        get {
            switch slot {
            case 0: b0
            case 1: b1
            case 2: b2
            case 3: b3
            case 4: b4
            case 5: b5
            case 6: b6
            default: b7
            }
        }
        set {
            switch slot {
            case 0: b0 = newValue
            case 1: b1 = newValue
            case 2: b2 = newValue
            case 3: b3 = newValue
            case 4: b4 = newValue
            case 5: b5 = newValue
            case 6: b6 = newValue
            default: b7 = newValue
            }
        }
    }

    mutating func push(_ b: BlockSums) {
        if held == Self.capacity {
            let old = self[next]
            totals.remove(old)
            squares -= old.meanSquare
            magnitudeSquares -= old.magnitudes.meanSquare
            if old.count > 0 { blocksWithSamples -= 1 }
        } else {
            held += 1
        }
        self[next] = b
        next = next == Self.capacity - 1 ? 0 : next + 1
        totals.count += b.count
        totals.sum = totals.sum + b.sum
        totals.differences += b.differences
        totals.pairs += b.pairs
        totals.magnitudes.merge(b.magnitudes)
        totals.begin = held == Self.capacity ? self[next].begin : b0.begin  // the oldest block's
        totals.end = b.end
        squares += b.meanSquare
        magnitudeSquares += b.magnitudes.meanSquare
        if b.count > 0 { blocksWithSamples += 1 }
    }

    /// Whether the blocks held are still, judged with a noise variance
    /// within [floor, ceiling]; `origin` is what the sums are relative to.
    /// (Mutating only so that the window is not copied to judge it.)
    mutating func stillness(floor: Double, ceiling: Double, origin: Vector3) -> StillnessMeter.Still? {
        let all = totals
        guard all.count > 0 else { return nil }
        var variance = floor
        if all.pairs > 0 { variance = max(min(all.differences / (6 * Double(all.pairs)), ceiling), floor) }
        let n = Double(all.count)
        let limit = StillnessMeter.stillRatio * variance
        if blocksWithSamples >= 2 {
            let scatter = squares - all.sum.dot(all.sum) / n
            guard scatter <= limit * Double(3 * (blocksWithSamples - 1)) else { return nil }
            let m = all.magnitudes
            if m.count > 0 {
                let spread = (magnitudeSquares - m.sum * m.sum / Double(m.count)) / Double(m.count)
                guard spread <= StillnessMeter.carriedVariance else { return nil }
            }
        }
        return StillnessMeter.Still(since: all.begin, pose: origin + all.sum * (1 / n), variance: variance)
    }
}

/// Count, sum and sum of squares of a quantity.
struct Moments: Equatable, Sendable {
    var count = 0
    var sum = 0.0
    var squares = 0.0

    @inline(__always)
    mutating func add(_ x: Double) {
        count += 1
        sum += x
        squares += x * x
    }

    @inline(__always)
    mutating func merge(_ m: Moments) {
        count += m.count
        sum += m.sum
        squares += m.squares
    }

    @inline(__always)
    mutating func remove(_ m: Moments) {
        count -= m.count
        sum -= m.sum
        squares -= m.squares
    }

    /// sum^2 / count: this block's share of the scatter of block means.
    var meanSquare: Double { count > 0 ? sum * sum / Double(count) : 0 }

    /// Variance about the mean (0 for fewer than two values).
    var variance: Double {
        guard count > 1 else { return 0 }
        let n = Double(count)
        let mean = sum / n
        return max(squares / n - mean * mean, 0)
    }
}
