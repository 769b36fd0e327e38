import Glibc

/// Seconds on `CLOCK_MONOTONIC`: the one clock the daemon measures time with.
/// The physics receives these numbers; it never reads a clock itself.
enum MonotonicClock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
