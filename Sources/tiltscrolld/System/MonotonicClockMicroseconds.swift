import Glibc

extension MonotonicClock {
    /// Whole microseconds on `CLOCK_MONOTONIC`, exact: the unit sd_notify(3)'s
    /// `MONOTONIC_USEC=` and systemd's own timestamps use.
    static func microseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
