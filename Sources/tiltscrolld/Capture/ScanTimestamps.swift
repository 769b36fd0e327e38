import TiltScrollCommon

/// Turning the kernel's scan timestamps into seconds on the daemon's clock.
///
/// IIO stamps scans with the clock named by the device's
/// `current_timestamp_clock` (CLOCK_REALTIME unless changed). Buffered
/// capture sets it to `boottime` (the daemon's clock) for its duration when it can; otherwise
/// each batch is shifted by the current difference between the two clocks.
/// Some sources stamp scans in their own timebase (a HID sensor hub that
/// reports its own time); a stamp that is not plausible on the daemon's
/// clock is replaced by the time the scan was read.
enum ScanTimestamps {
    /// Stamps older than this, relative to the read, are not believed: the
    /// buffer holds about a second of scans.
    static let oldestBelievable: Int64 = 10_000_000_000
    /// Stamps this far ahead of the read are clock jitter; later ones are not believed.
    static let latestBelievable: Int64 = 50_000_000

    /// The time in seconds on the daemon's clock (`DaemonClock`) of a scan stamped `timestamp` on a clock
    /// that is `offset` nanoseconds behind the daemon's clock
    /// (daemon time = timestamp + offset), read at daemon time `now`
    /// nanoseconds; `fallback` when the stamp is not plausible.
    static func daemonClockSeconds(timestamp: Int64, offset: Int64, now: Int64, fallback: Double) -> Double {
        let (shifted, overflow) = timestamp.addingReportingOverflow(offset)
        guard !overflow, shifted <= now &+ latestBelievable, shifted >= now &- oldestBelievable else {
            return fallback
        }
        return Double(min(shifted, now)) / 1e9
    }
}
