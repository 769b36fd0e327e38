/// When `ScrollEngine.frame(at:)` is due: a regular grid of one output
/// period while something moves, and no clock at all while nothing does.
///
/// `@usableFromInline` so that the daemon's per-wake-up question
/// (`ScrollEngine.nextFrameTime`) compiles to a field read: as a call into
/// this module it copied the whole engine first (memcpy, ~230 instructions a
/// sample in Benchmarks/physics-bench.sh).
@usableFromInline
struct OutputClock: Equatable, Sendable {
    /// Seconds between frames (1 / `OutputRate`).
    var period: Double
    /// The time the next frame is due; nil while nothing moves.
    @usableFromInline
    private(set) var due: Double?

    init(period: Double) { self.period = period }

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
    /// one period from now when the caller fell behind by a period or more.
    mutating func advance(after now: Double, needed: Bool) {
        guard needed else {
            due = nil
            return
        }
        if let next = due {
            if now < next { return }
            due = now - next < period ? next + period : now + period
        } else {
            due = now + period
        }
    }

    mutating func stop() { due = nil }
}
