/// Tells a device lying on something from one in a hand, by what the sensor
/// shows, with thresholds taken from the sensor's own noise.
///
/// A hand never holds a pose as steadily as a table: postural sway moves the
/// pose by tenths of a degree to a degree or so below 1 Hz; tremor (8-12 Hz)
/// adds hundredths to tenths. A table shows only the sensor's noise, which
/// differs per part (a few mg rms, field notes): a fixed threshold would be
/// too tight for a noisy part and too loose for a quiet one. So the meter
/// compares two measurements of the same samples, of the pose as two angles
/// (the pitch in radians, continuous, and the sine of the roll: for small
/// angles both move by (noise in m/s^2) / g per sample):
///
/// - the noise, from successive differences (the mean square successive
///   difference, von Neumann 1941): white noise of variance s^2 gives each
///   difference 2 s^2, while a slow movement (sway, a slow tilt) barely
///   changes from one sample to the next; so the noise is learnt from the
///   data of every window, hand-held or not, at any rate;
/// - the slow movement, from the scatter of the means of 0.35 s blocks about
///   their common mean: white noise gives each block mean s^2 / n per angle,
///   so Q = sum(n_k |m_k - M|^2) has the expectation 2 (k - 1) s^2 for k
///   blocks, and anything the pose really does adds to it.
///
/// Their ratio R = Q / (2 (k - 1) s^2) is about 1 on a table for every part
/// and rate, and grows with the sway in a hand. Still also needs the
/// magnitude's block means to stay within 0.025 g rms of their mean (half of
/// what counts as jostled, `JostleMeter.onG`, and several times any part's
/// noise): tilting keeps the magnitude at 1 g, so this costs a hand nothing,
/// and the ringing of a keyboard dock's keys is gone from a 0.35 s mean, but
/// a walk sampled slowly (10 Hz against a 2 Hz bounce) has successive
/// differences as large as noise would and must not pass for a table. And s^2
/// is taken at most 4 times the noise floor, the quietest long window seen
/// (rising by e every 5 minutes, so that it follows a new part or a warmer
/// one): a walk's bounce and wobble, fast against a slow sampling, would
/// otherwise pass for noise. "Still" is R <= 3: a table fails that by chance
/// in under 1 % of windows (Q / s^2 is then a chi-square variable with
/// 2 (k - 1) degrees of freedom; the next window is judged a block later),
/// and noise that is not quite white (a part's low-pass filter) still passes.
///
/// How long a window must be depends on the sensor and the hand: over 1.4 s
/// a hand with 0.3 degrees rms of sway gives R below 3 in 2 % of windows on
/// a 3 mg part, 10 % on a hub that reports hundredths of a g and 17 % on a
/// 6 mg part; over 5.6-6.4 s in well under 1 % at 50 Hz (measured on the
/// synthetic hand of `Hand`). So the meter keeps two sliding windows of
/// four blocks, `shortSeconds` of 0.35 s blocks and `longSeconds` of 1.4 s
/// blocks, and a medium one (`mediumSeconds`, 2.8 s) of the short one and
/// the four blocks before it. `IntentGuard` takes the short one right after
/// the device was carried (a put-down lowers it onto the table), or where
/// the hand's own sway would have shown in it (the medium one likewise),
/// the long one otherwise. After a carry, scrolling stops within 0.35 + 1.4
/// s (a block with the touchdown, four still ones) and a frame of a
/// put-down: the promise is 2 s. A window with fewer than three readings a
/// block is not judged at all (below about 9 Hz for the short and medium
/// ones, 2 Hz for the long one): so few samples tell sway from noise no
/// better than chance.
///
/// s^2 never counts below the sensor's quantization, (resolution / g)^2 / 12
/// (when the daemon passes the resolution): a coarse part that reads the
/// same counts over and over has no measurable noise, and one count of
/// change is then the smallest movement it can show. A reading repeated
/// exactly is no new sample for the noise (a polling loop faster than the
/// part's rate reads the same register twice): it counts in the means but
/// not in the differences nor in a block's weight, its number of distinct
/// readings (at least one: a block of repeats still shows where the pose
/// is). A part that reads the same counts for a whole window is still.
/// Where the noise is within about a count, though, a part repeats
/// readings by chance, and the sway a window shows is also measured with
/// every reading a sample (`WindowSums.everyReading`), for `IntentGuard`
/// to tell a hand's going by.
///
/// Resting, the device has moved when one sample leaves the rest pose by
/// more than sqrt(40) s (chi-square with 2 degrees of freedom: by chance once
/// in 10^9 samples), or a block mean by more than 5 s / sqrt(n) (once in
/// 10^5 blocks).
struct StillnessMeter: Equatable, Sendable {
    static let blockSeconds = 0.35
    /// The windows: `BlockWindow.capacity` blocks of about `blockSeconds`
    /// (so about `shortSeconds`), and as many of `longBlockSeconds`.
    static let shortSeconds = 1.4
    static let longBlockSeconds = 1.4
    static let longSeconds = 5.6
    /// Two short windows, one after the other.
    static let mediumSeconds = 2.8
    /// The largest ratio of slow movement to noise that is still.
    static let stillRatio = 3.0
    /// The most noise variance, in units of the quantization's ((resolution
    /// / g)^2 / 12), that is within about one count: distinct readings then
    /// differ mostly by one count (3 units when one angle changes, 6 when
    /// both do); a part with 1.5 counts of noise (the kxcjk-like one) gives
    /// about 28.
    static let quantizedVariances = 8.0
    /// The fewest readings per block, on average, for a window to be judged.
    static let samplesPerBlock = 3
    /// Departure thresholds in units of the noise variance.
    static let sampleDepartureVariances = 40.0
    static let blockDepartureVariances = 25.0
    /// The noise variance a window is judged by is at most this many times the floor.
    static let floorFactor = 4.0
    /// The floor rises by e over this many seconds unless a quieter window comes.
    static let floorRiseSeconds = 300.0
    /// (0.025 g)^2: more variance of the magnitude's block means than this is being carried.
    static let carriedVariance = 0.025 * 0.025

    /// (resolution / g)^2 / 12 per angle; `unknownResolutionVariance` when
    /// the resolution is unknown.
    var quantizationVariance = StillnessMeter.unknownResolutionVariance
    /// The floor with no resolution known: (0.1 mrad)^2, a tenth of the noise of
    /// a 1 mg part, so that data with no noise at all (a synthetic trace, a
    /// register written by hand) still has a scale to be judged on.
    static let unknownResolutionVariance = 1e-8
    /// The smallest noise variance per angle of a full long window;
    /// +infinity until measured. In g^2 too, for a magnitude: noise of s m/s^2
    /// moves both angles and the magnitude by s / g.
    private(set) var noiseFloor = Double.infinity

    /// The reference the sums are taken from (the first sample since the
    /// meter last forgot), so that they stay small and exact.
    private var origin = Angles()
    private var previous = Angles()
    private var hasPrevious = false
    /// The 0.35 s block being filled and the 1.4 s one it goes into.
    private var block = BlockSums()
    private var longBlock = BlockSums()
    private var short = BlockWindow()
    private var long = BlockWindow()
    /// The sums of the short window at the last four block closes, the
    /// oldest first to be read (`nextEarlier`): the four blocks before the
    /// short window, for the medium window.
    private var earlier0 = WindowSums(), earlier1 = WindowSums(), earlier2 = WindowSums(), earlier3 = WindowSums()
    private var nextEarlier = 0

    /// Where the device rests (mean of the still window) and the noise
    /// variance measured there; nil while not resting.
    private(set) var rest: Rest?

    /// A pose as the meter sees it: pitch in radians (continuous), sine of the roll.
    struct Angles: Equatable, Sendable {
        var pitch = 0.0
        var sinRoll = 0.0
    }

    struct Rest: Equatable, Sendable {
        var pose: Angles
        var variance: Double
        /// The least squared distance of a block mean from `pose` that
        /// departs from it, whatever the noise (0: noise alone decides).
        var blockDeparture = 0.0
    }

    /// A still window: when it began, its mean and its noise variance.
    struct Still: Equatable, Sendable {
        var since: Double
        var pose: Angles
        var variance: Double
    }

    /// How much a window's pose moved beyond what its noise explains: the
    /// scatter of its block means per reading, less what noise alone
    /// gives (`excess`, which noise alone leaves about 0), and what noise
    /// alone gives (`noise`); squared radians, whatever the rate. Where
    /// the noise is within about a count, all three with every reading a
    /// sample (`WindowSums.everyReading`), so that the hand's sway
    /// (`HandSway`) and the window it is held against are measured alike.
    struct Sway: Equatable, Sendable {
        var excess: Double
        var noise: Double
        /// When the window began.
        var since: Double
        /// Whether the window is still as `noise` measures it (the same as
        /// the window's own judgement but on a part that reads whole
        /// counts: `WindowSums.everyReading`).
        var stillByNoise = false
    }

    /// What the windows say after a block.
    struct Verdict: Equatable, Sendable {
        var shortStill: Still?
        /// The short window's sway, whenever it is judged.
        var shortSway: Sway?
        /// The medium window (the short one and the four blocks before
        /// it), judged with the short one once it spans 8 blocks.
        var mediumStill: Still?
        var mediumSway: Sway?
        /// Judged only when a long block closes; nil otherwise.
        var longStill: Still?
        /// Resting, the block left the rest pose.
        var departed = false
        /// The block's mean pose is more than `turnRadians` from that of
        /// the block before the previous one: the device was turned.
        var turned = false
    }

    /// A turn of the device (3 degrees within two blocks, 0.7 s) that a
    /// hand's sway does not make: a put-down or a deliberate tilt.
    static let turnRadians = 3 / 57.29577951308232
    /// The mean poses of the last two blocks with samples.
    private var olderMean: Angles?
    private var newerMean: Angles?

    init() {}

    /// The noise variance per angle over the short window (not below the
    /// quantization); nil before two different samples.
    var noiseVariance: Double? { short.totals.noiseVariance(floor: quantizationVariance) }

    /// One accepted sample: the pitch in radians (continuous) and the sine of
    /// the roll. A repeat of the previous one adds nothing.
    @inline(__always)
    mutating func add(pitch: Double, sinRoll: Double) {
        guard hasPrevious else {
            origin = Angles(pitch: pitch, sinRoll: sinRoll)
            previous = origin
            hasPrevious = true
            block = BlockSums()
            block.count = 1
            block.holdsOrigin = true
            return
        }
        block.count += 1
        block.pitch += pitch
        block.sinRoll += sinRoll
        let dp = pitch - previous.pitch
        let ds = sinRoll - previous.sinRoll
        if dp == 0, ds == 0 { return }
        block.differences += dp * dp + ds * ds
        block.pairs += 1
        previous = Angles(pitch: pitch, sinRoll: sinRoll)
    }

    /// Whether a sample, resting, is off the rest pose by more than noise allows.
    @inline(__always)
    func departs(pitch: Double, sinRoll: Double) -> Bool {
        guard let rest else { return false }
        let dp = pitch - rest.pose.pitch
        let ds = sinRoll - rest.pose.sinRoll
        return dp * dp + ds * ds > Self.sampleDepartureVariances * rest.variance
    }

    /// Closes the 0.35 s block that began at `start`, at `time`, and judges
    /// the windows (`judgeShort`, `judgeLong`: whether to judge each at all);
    /// `magnitude` holds the block's magnitudes (`JostleMeter.deviation`).
    mutating func closeBlock(
        started start: Double, at time: Double, magnitude: Moments, judgeShort: Bool, judgeLong: Bool
    ) -> Verdict {
        var verdict = Verdict()
        guard hasPrevious else { return verdict }
        var closed = block
        block = BlockSums()
        // Absolute sums while filling (the origin's own sample left out);
        // relative to the origin from here on, which keeps them exact.
        let n = Double(closed.count)
        let summed = closed.holdsOrigin ? n - 1 : n
        closed.pitch -= summed * origin.pitch
        closed.sinRoll -= summed * origin.sinRoll
        closed.distinct = closed.pairs + (closed.holdsOrigin ? 1 : 0)
        closed.begin = start
        closed.end = time
        closed.magnitudes = magnitude
        if closed.count > 0 {
            let mean = Angles(pitch: origin.pitch + closed.pitch / n, sinRoll: origin.sinRoll + closed.sinRoll / n)
            if let rest {
                let dp = mean.pitch - rest.pose.pitch
                let ds = mean.sinRoll - rest.pose.sinRoll
                verdict.departed =
                    dp * dp + ds * ds > max(Self.blockDepartureVariances * rest.variance / n, rest.blockDeparture)
            }
            if let then = olderMean {
                let dp = mean.pitch - then.pitch
                let ds = mean.sinRoll - then.sinRoll
                verdict.turned = dp * dp + ds * ds > Self.turnRadians * Self.turnRadians
            }
            olderMean = newerMean
            newerMean = mean
        }
        short.push(closed)
        let full = short.isFull
        // The floor from the long window: four times the pairs of the short
        // one, so that its minimum over many windows is not biased low (at
        // 10 Hz the short window's minimum is half the noise).
        if long.isFull, let v = long.totals.noiseVariance(floor: quantizationVariance) {
            noiseFloor = min(v, noiseFloor * (1 + (time - start) / Self.floorRiseSeconds))
        }
        let ceiling = Self.floorFactor * noiseFloor
        if full, judgeShort {
            let judged = short.judge(floor: quantizationVariance, ceiling: ceiling, origin: origin)
            verdict.shortStill = judged.still
            verdict.shortSway = judged.sway
            let before = takeEarlier(replacingWith: short.sums)
            if before.blocks == BlockWindow.capacity,
                let medium = short.sums.sway(after: before, floor: quantizationVariance, ceiling: ceiling)
            {
                verdict.mediumSway = medium.sway
                if medium.quiet {
                    verdict.mediumStill =
                        short.sums.merged(after: before)
                        .judge(floor: quantizationVariance, ceiling: ceiling, origin: origin).still
                }
            }
        } else {
            _ = takeEarlier(replacingWith: full ? short.sums : WindowSums())
        }
        longBlock.merge(closed)
        if longBlock.end - longBlock.begin >= Self.longBlockSeconds - 1e-9 {
            long.push(longBlock)
            longBlock = BlockSums()
            if long.isFull, judgeLong {
                verdict.longStill = long.judge(floor: quantizationVariance, ceiling: ceiling, origin: origin).still
            }
        }
        return verdict
    }

    /// The short window's sums four block closes ago, stored in its place:
    /// the newest ones.
    private mutating func takeEarlier(replacingWith newest: WindowSums) -> WindowSums {
        defer { nextEarlier = nextEarlier == 3 ? 0 : nextEarlier + 1 }
        switch nextEarlier {
        case 0:
            defer { earlier0 = newest }
            return earlier0
        case 1:
            defer { earlier1 = newest }
            return earlier1
        case 2:
            defer { earlier2 = newest }
            return earlier2
        default:
            defer { earlier3 = newest }
            return earlier3
        }
    }

    /// The device came to rest at `pose` with noise `variance`; a block
    /// mean departs from it by more than noise allows and at least
    /// `blockDeparture` (squared radians).
    mutating func settle(at pose: Angles, variance: Double, blockDeparture: Double = 0) {
        rest = Rest(pose: pose, variance: variance, blockDeparture: blockDeparture)
    }

    /// The device is no longer resting: stillness must be shown afresh.
    mutating func leaveRest() {
        rest = nil
        forgetWindows()
    }

    /// Forget the windows (a gap in the data, a new time base); the rest
    /// pose, the quantization and the noise floor stay.
    mutating func forgetWindows() {
        hasPrevious = false
        (earlier0, earlier1, earlier2, earlier3) = (WindowSums(), WindowSums(), WindowSums(), WindowSums())
        olderMean = nil
        newerMean = nil
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

/// Sums over a block of samples.
struct BlockSums: Equatable, Sendable {
    var begin = 0.0
    var end = 0.0
    var count = 0
    /// Sums of the angles relative to the origin (once closed).
    var pitch = 0.0
    var sinRoll = 0.0
    /// Whether the block holds the origin's own sample (counted, not summed).
    var holdsOrigin = false
    /// Sum of squared successive differences, and how many.
    var differences = 0.0
    var pairs = 0
    /// How many distinct readings (set when the block closes).
    var distinct = 0
    /// The samples' magnitudes, g - 1.
    var magnitudes = Moments()
    /// How many blocks were merged into this one.
    var merged = 0

    /// Adds a later block to this one.
    @inline(__always)
    mutating func merge(_ b: BlockSums) {
        if merged == 0 { begin = b.begin }
        merged += 1
        end = b.end
        count += b.count
        pitch += b.pitch
        sinRoll += b.sinRoll
        differences += b.differences
        pairs += b.pairs
        distinct += b.distinct
        magnitudes.merge(b.magnitudes)
    }

    /// Takes an earlier block out of running totals.
    @inline(__always)
    mutating func remove(_ b: BlockSums) {
        count -= b.count
        pitch -= b.pitch
        sinRoll -= b.sinRoll
        differences -= b.differences
        pairs -= b.pairs
        distinct -= b.distinct
        magnitudes.remove(b.magnitudes)
    }

    /// At least one: a block of repeats still shows where the pose is.
    var weight: Int { count > 0 ? max(distinct, 1) : 0 }

    /// The block's mean times its `weight`, and |mean|^2 likewise: its share
    /// of the window's scatter.
    var weightedMean: (pitch: Double, sinRoll: Double, square: Double) {
        guard count > 0 else { return (0, 0, 0) }
        let k = Double(weight) / Double(count)
        let mp = pitch / Double(count)
        let ms = sinRoll / Double(count)
        return (k * pitch, k * sinRoll, k * (pitch * mp + sinRoll * ms))
    }

    /// |sum|^2 / count: the block's share of the scatter of block means
    /// when every reading weighs one (`WindowSums.everyReading`).
    var readingSquare: Double { count > 0 ? (pitch * pitch + sinRoll * sinRoll) / Double(count) : 0 }

    func noiseVariance(floor: Double) -> Double? {
        guard pairs > 0 else { return nil }
        return max(differences / (4 * Double(pairs)), floor)
    }
}

/// What judging a window of blocks takes, as running sums: those of two
/// windows that follow each other add up to those of the window that spans
/// both (`merged(after:)`).
struct WindowSums: Equatable, Sendable {
    /// Sums over the blocks.
    var totals = BlockSums()
    /// Sums of the blocks' `weight`s and `weightedMean`s and of their
    /// magnitudes' sum^2 / count, and how many blocks have samples.
    var weights = 0
    var weightedPitch = 0.0
    var weightedSinRoll = 0.0
    var squares = 0.0
    var magnitudeSquares = 0.0
    /// Sum of the blocks' |sum|^2 / count (`BlockSums.readingSquare`).
    var readingSquares = 0.0
    var blocksWithSamples = 0
    /// How many blocks (with samples or not).
    var blocks = 0

    @inline(__always)
    mutating func add(_ b: BlockSums) {
        totals.count += b.count
        totals.pitch += b.pitch
        totals.sinRoll += b.sinRoll
        totals.differences += b.differences
        totals.pairs += b.pairs
        totals.distinct += b.distinct
        totals.magnitudes.merge(b.magnitudes)
        totals.end = b.end
        let w = b.weightedMean
        weightedPitch += w.pitch
        weightedSinRoll += w.sinRoll
        squares += w.square
        weights += b.weight
        magnitudeSquares += b.magnitudes.meanSquare
        readingSquares += b.readingSquare
        if b.count > 0 { blocksWithSamples += 1 }
        blocks += 1
    }

    @inline(__always)
    mutating func remove(_ b: BlockSums) {
        totals.remove(b)
        let w = b.weightedMean
        weightedPitch -= w.pitch
        weightedSinRoll -= w.sinRoll
        squares -= w.square
        weights -= b.weight
        magnitudeSquares -= b.magnitudes.meanSquare
        readingSquares -= b.readingSquare
        if b.count > 0 { blocksWithSamples -= 1 }
        blocks -= 1
    }

    /// The sums of the window made of `earlier` and then this one.
    func merged(after earlier: WindowSums) -> WindowSums {
        var m = self
        m.totals.begin = earlier.totals.begin
        m.totals.count += earlier.totals.count
        m.totals.pitch += earlier.totals.pitch
        m.totals.sinRoll += earlier.totals.sinRoll
        m.totals.differences += earlier.totals.differences
        m.totals.pairs += earlier.totals.pairs
        m.totals.distinct += earlier.totals.distinct
        m.totals.magnitudes.merge(earlier.totals.magnitudes)
        m.weights += earlier.weights
        m.weightedPitch += earlier.weightedPitch
        m.weightedSinRoll += earlier.weightedSinRoll
        m.squares += earlier.squares
        m.magnitudeSquares += earlier.magnitudeSquares
        m.readingSquares += earlier.readingSquares
        m.blocksWithSamples += earlier.blocksWithSamples
        m.blocks += earlier.blocks
        return m
    }

    /// The sway of the window made of `earlier` and then this one, and
    /// whether its scatter is small enough for it to be still, as
    /// `merged(after:).judge` would find them (nil where it finds no sway),
    /// without building the merged sums: asked at every block, while the
    /// rest of the judgement is needed only when it is quiet.
    func sway(after earlier: WindowSums, floor: Double, ceiling: Double) -> (
        sway: StillnessMeter.Sway, quiet: Bool
    )? {
        let count = totals.count + earlier.totals.count
        let withSamples = blocksWithSamples + earlier.blocksWithSamples
        guard count >= StillnessMeter.samplesPerBlock * (blocks + earlier.blocks), withSamples >= 2 else {
            return nil
        }
        let pairs = totals.pairs + earlier.totals.pairs
        var variance = floor
        if pairs > 0 {
            variance = max(min((totals.differences + earlier.totals.differences) / (4 * Double(pairs)), ceiling), floor)
        }
        let w = Double(weights + earlier.weights)
        let pitch = weightedPitch + earlier.weightedPitch
        let sinRoll = weightedSinRoll + earlier.weightedSinRoll
        let scatter = squares + earlier.squares - (pitch * pitch + sinRoll * sinRoll) / w
        let noiseScatter = variance * Double(2 * (withSamples - 1))
        let quiet = scatter <= StillnessMeter.stillRatio * noiseScatter
        var sway = StillnessMeter.Sway(
            excess: (scatter - noiseScatter) / w, noise: noiseScatter / w, since: earlier.totals.begin,
            stillByNoise: quiet)
        if variance <= StillnessMeter.quantizedVariances * floor {
            (sway.excess, sway.noise, sway.stillByNoise) = Self.everyReading(
                count: count, pitch: totals.pitch + earlier.totals.pitch,
                sinRoll: totals.sinRoll + earlier.totals.sinRoll, squares: readingSquares + earlier.readingSquares,
                differences: totals.differences + earlier.totals.differences, blocks: withSamples, floor: floor,
                ceiling: ceiling)
        }
        return (sway, quiet)
    }

    /// The window's excess sway and noise per reading and whether it is
    /// still, as `judge` finds them, but with every reading a sample, a
    /// repeat included (a difference of 0, and a block weighs as many
    /// readings as it holds): from the sums of the window's readings
    /// relative to the origin (`count`, `pitch`, `sinRoll`), of its blocks'
    /// |sum|^2 / count (`squares`), of its squared differences, and its
    /// blocks with samples.
    ///
    /// Asked where the noise is within about one count (a variance of at
    /// most `StillnessMeter.quantizedVariances` times the quantization's,
    /// `floor`): there the part reads whole counts and repeats many of them
    /// by chance (a hub in hundredths of a g lying flat, 3 mg of noise
    /// under its counts, repeats half to three quarters of its readings),
    /// so a repeat is a reading like any other, and evidence of stillness.
    /// Counting only distinct readings made such a window's noise six to
    /// twelve times what it is (synthetic hub, `Benchmarks/README.md`),
    /// and a hand's quiet sway, less that noise, smaller than it is
    /// (`HandSway`): no hand's sway stood out of it (`IntentGuard.handGone`).
    /// That count stays the meter's own judgement: a part read faster than it
    /// samples repeats what it read, and those repeats are no samples.
    /// Judged this way, such a window's noise seems smaller, but its block
    /// means scatter as its fresh readings do, which fills that noise's
    /// room for a sway: it is not still more often (the hand's going then
    /// waits for the long window, as before), and when it is, a sway had
    /// less room in it.
    static func everyReading(
        count: Int, pitch: Double, sinRoll: Double, squares: Double, differences: Double, blocks: Int,
        floor: Double, ceiling: Double
    ) -> (excess: Double, noise: Double, still: Bool) {
        let n = Double(count)
        let variance = max(min(differences / (4 * n), ceiling), floor)
        let noiseScatter = variance * Double(2 * (blocks - 1))
        let scatter = squares - (pitch * pitch + sinRoll * sinRoll) / n
        return ((scatter - noiseScatter) / n, noiseScatter / n, scatter <= StillnessMeter.stillRatio * noiseScatter)
    }

    /// Whether the blocks are still, judged with a noise variance within
    /// [floor, ceiling], and how much they swayed (nil with too few
    /// readings or blocks); `origin` is what the sums are relative to.
    func judge(floor: Double, ceiling: Double, origin: StillnessMeter.Angles) -> (
        still: StillnessMeter.Still?, sway: StillnessMeter.Sway?
    ) {
        let all = totals
        // Fewer than 3 readings a block (a part sampled below about 9 Hz in
        // the short window, 2 Hz in the long one) tell sway from noise no
        // better than chance: nothing is judged still then.
        guard all.count >= StillnessMeter.samplesPerBlock * blocks else { return (nil, nil) }
        var variance = floor
        if all.pairs > 0 { variance = max(min(all.differences / (4 * Double(all.pairs)), ceiling), floor) }
        let n = Double(all.count)
        var sway: StillnessMeter.Sway?
        if blocksWithSamples >= 2 {
            // sum(w_k |m_k - M|^2) with M the weighted mean: sum(w |m|^2) - |sum(w m)|^2 / sum(w).
            let w = Double(weights)
            let scatter = squares - (weightedPitch * weightedPitch + weightedSinRoll * weightedSinRoll) / w
            let noiseScatter = variance * Double(2 * (blocksWithSamples - 1))
            let quiet = scatter <= StillnessMeter.stillRatio * noiseScatter
            var swayed = StillnessMeter.Sway(
                excess: (scatter - noiseScatter) / w, noise: noiseScatter / w, since: all.begin, stillByNoise: quiet)
            if variance <= StillnessMeter.quantizedVariances * floor {
                (swayed.excess, swayed.noise, swayed.stillByNoise) = Self.everyReading(
                    count: all.count, pitch: all.pitch, sinRoll: all.sinRoll, squares: readingSquares,
                    differences: all.differences, blocks: blocksWithSamples, floor: floor, ceiling: ceiling)
            }
            sway = swayed
            guard quiet else { return (nil, sway) }
            let m = all.magnitudes
            if m.count > 0 {
                let spread = (magnitudeSquares - m.sum * m.sum / Double(m.count)) / Double(m.count)
                guard spread <= StillnessMeter.carriedVariance else { return (nil, sway) }
            }
        }
        let pose = StillnessMeter.Angles(pitch: origin.pitch + all.pitch / n, sinRoll: origin.sinRoll + all.sinRoll / n)
        return (StillnessMeter.Still(since: all.begin, pose: pose, variance: variance), sway)
    }
}

/// The last `capacity` blocks with running sums, so that judging the
/// window costs the same however many samples it holds, and nothing is
/// allocated.
struct BlockWindow: Equatable, Sendable {
    static let capacity = 4
    private var b0 = BlockSums(), b1 = BlockSums(), b2 = BlockSums(), b3 = BlockSums()
    /// The slot the next block goes into (the oldest one once full).
    private var next = 0
    /// Sums over the blocks held.
    private(set) var sums = WindowSums()

    var isFull: Bool { sums.blocks == Self.capacity }
    var totals: BlockSums { sums.totals }

    private subscript(slot: Int) -> BlockSums {
        get {
            switch slot {
            case 0: b0
            case 1: b1
            case 2: b2
            default: b3
            }
        }
        set {
            switch slot {
            case 0: b0 = newValue
            case 1: b1 = newValue
            case 2: b2 = newValue
            default: b3 = newValue
            }
        }
    }

    mutating func push(_ b: BlockSums) {
        if isFull { sums.remove(self[next]) }
        self[next] = b
        next = next == Self.capacity - 1 ? 0 : next + 1
        sums.add(b)
        sums.totals.begin = isFull ? self[next].begin : b0.begin  // the oldest block's
    }

    /// `WindowSums.judge` of the blocks held. (Mutating only so that the
    /// window is not copied to judge it.)
    mutating func judge(
        floor: Double, ceiling: Double, origin: StillnessMeter.Angles
    ) -> (still: StillnessMeter.Still?, sway: StillnessMeter.Sway?) {
        sums.judge(floor: floor, ceiling: ceiling, origin: origin)
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
