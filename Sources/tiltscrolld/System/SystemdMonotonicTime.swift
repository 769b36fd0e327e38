import Glibc
import TiltScrollCommon

/// Timestamps in the form systemd's notification protocol wants them.
enum SystemdMonotonicTime {
    /// Whole microseconds on `CLOCK_MONOTONIC` (not the daemon's boot-time
    /// clock): the unit sd_notify(3)'s `MONOTONIC_USEC=` and systemd's own
    /// timestamps use.
    static func microseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
