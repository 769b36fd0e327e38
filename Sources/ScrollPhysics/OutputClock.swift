/// When `ScrollEngine.frame(at:)` is due: a regular grid of one output
/// period while something moves, no clock at all while nothing does, and
/// frames that ride on sample wake-ups so that scrolling costs one wake-up
/// per frame rather than one per sample plus one per frame.
///
/// A loop that only arms a timer for `due` gets frames at the output rate,
/// as it always did. A loop that also asks `isDue(at:)` whenever it wakes
/// for a sample, and arms its timer for `deadline` instead, coalesces:
///
/// - a sensor at least about as fast as the output (a period up to 1.5
///   output periods: 40 Hz and up at 60 Hz, so that a 50 Hz part's jitter
///   does not matter) carries the frames: a sample
///   takes one once at least an output period, less half a sample period,
///   has passed since the last (50 Hz: every sample; 100 Hz: every other),
///   and the deadline lies half a sample period after the next sample is
///   expected, so the timer fires only when samples stop;
/// - a slower sensor (a 10 Hz hub) gets timer frames on the grid, and the
///   frame nearest the next sample waits for it (a quarter of a sample
///   period, at most half an output period), so that sample and frame share
///   a wake-up; a frame taken early counts as the due one and the grid
///   starts again from it.
///
/// Frames take whatever distance has been integrated up to their time, so
/// the totals do not depend on when they are taken (conservation).
///
/// `@usableFromInline` so that the daemon's per-wake-up questions
/// (`ScrollEngine.nextFrameTime`, `frameDeadline`, `isFrameDue(at:)`)
/// compile to a few field reads: as calls into this module they made the
/// caller copy the whole engine first (memcpy, ~230 instructions a sample
/// in Benchmarks/physics-bench.sh).
@usableFromInline
struct OutputClock: Equatable, Sendable {
    /// Seconds between frames (1 / `OutputRate`).
    @usableFromInline var period: Double
    /// The time the next frame is due on the grid; nil while nothing moves.
    @usableFromInline private(set) var due: Double?
    /// When the last frame was taken.
    @usableFromInline private(set) var lastFrame = -Double.infinity
    /// The last sample heard and the sample period expected (`DataFreshness`).
    @usableFromInline var lastSample = -Double.infinity
    @usableFromInline var samplePeriod: Double

    /// A sensor period up to this many output periods carries the frames.
    @usableFromInline static let ridingFactor = 1.5

    init(period: Double) {
        self.period = period
        samplePeriod = period
    }

    /// Whether a frame taken at `time` (a wake-up for a sample, or the
    /// timer) counts as the due one.
    @inlinable
    func isDue(at time: Double) -> Bool {
        guard let next = due else { return false }
        return time >= next || time >= lastFrame + period - Swift.min(samplePeriod, period) / 2
    }

    /// The latest time the next frame may be taken by a coalescing loop.
    @inlinable
    var deadline: Double? {
        guard let next = due else { return nil }
        let expected = lastSample + samplePeriod
        if samplePeriod <= Self.ridingFactor * period { return Swift.max(next, expected + samplePeriod / 2) }
        if abs(next - expected) <= period / 2 {
            return Swift.max(next, expected + Swift.min(samplePeriod / 4, period / 2))
        }
        return next
    }

    /// After a sample or a command at `now`: start the clock when motion
    /// begins (one period from now), stop it when nothing is left to do.
    mutating func start(at now: Double?, needed: Bool) {
        guard needed else {
            due = nil
            return
        }
        if due == nil, let now { due = now + period }
    }

    /// After a frame at `now`: the next one period later on the same grid, or
    /// one period from now when the caller fell behind by a period or more,
    /// or took it early (on a sample: it counts as the due one). Taken more
    /// than half a period early (frames at random moments), the due frame
    /// stays due.
    mutating func advance(after now: Double, needed: Bool) {
        lastFrame = now
        guard needed else {
            due = nil
            return
        }
        if let next = due {
            if now < next - period / 2 { return }
            if now < next {
                due = now + period
                return
            }
            due = now - next < period ? next + period : now + period
        } else {
            due = now + period
        }
    }

    mutating func stop() {
        due = nil
        lastFrame = -Double.infinity
    }
}
