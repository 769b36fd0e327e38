import Glibc

/// Seconds on `CLOCK_BOOTTIME`: the one clock the daemon measures time with.
/// The physics receives these numbers; it never reads a clock itself.
///
/// Boot time is monotonic like `CLOCK_MONOTONIC` but keeps counting while the
/// machine is suspended, so after a resume the last sample looks as old as it
/// really is and the physics discards it as stale instead of scrolling on it.
///
/// Inlinable: the loop reads the clock two or three times a round, and as
/// a call into this module it cost about 65 instructions a round more
/// (Benchmarks/daemon-bench).
public enum DaemonClock {
    /// The clock id; capture puts kernel scan timestamps on the same clock
    /// (`KernelClock.daemon`). Computed, not stored: a stored static is a
    /// lazily initialized global, checked on every read.
    @inlinable public static var id: clockid_t { CLOCK_BOOTTIME }

    @inlinable public static func now() -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
