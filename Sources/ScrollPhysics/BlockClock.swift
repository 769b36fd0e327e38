/// The blocks the intent guard judges stillness in (`StillnessMeter`):
/// when the open one began and is due to close, and the magnitudes of its
/// samples (`JostleMeter.deviation`). One home for the rule, which the
/// guard and the tests that follow its windows from outside both keep.
struct BlockClock: Equatable, Sendable {
    private var start = -Double.infinity
    private var end = -Double.infinity
    private var magnitudes = Moments()
    private var lastSampleTime = -Double.infinity

    /// Whether a sample at `time` closes the open block (before it is added).
    @inline(__always)
    func closes(at time: Double) -> Bool { time >= end }

    /// A sample at `time` whose magnitude deviates `deviation` from 1 g.
    @inline(__always)
    mutating func add(deviation: Double, at time: Double) {
        lastSampleTime = time
        magnitudes.add(deviation)
    }

    /// Closes the open block at `time` and opens the next; the closed
    /// block's start and magnitudes, nil when there was none to judge (the
    /// first block opens).
    ///
    /// The next block ends half a sample interval short of its length, so
    /// that it holds `StillnessMeter.blockSeconds` of samples on average at
    /// any rate.
    @inline(__always)
    mutating func close(at time: Double) -> (start: Double, magnitudes: Moments)? {
        let closed = (start: start, magnitudes: magnitudes)
        let interval = lastSampleTime.isFinite ? min(time - lastSampleTime, StillnessMeter.blockSeconds) : 0
        start = time
        end = time + StillnessMeter.blockSeconds - interval / 2
        magnitudes = Moments()
        guard closed.start.isFinite, time > closed.start else { return nil }
        return closed
    }
}
