import Glibc

/// The kernel clocks an IIO device can stamp its scans with
/// (`current_timestamp_clock`), named as that attribute names them.
///
/// Its clock read is inlinable, as `DaemonClock`'s is: a buffered capture
/// reads it once a batch, and as a call into this module it cost about 30
/// instructions a sample more (Benchmarks/daemon-bench).
public enum KernelClock: String, CaseIterable, Equatable, Sendable {
    case realtime
    case monotonic
    case monotonicRaw = "monotonic_raw"
    case realtimeCoarse = "realtime_coarse"
    case monotonicCoarse = "monotonic_coarse"
    case boottime
    case tai

    /// The clock the daemon measures time with (`DaemonClock`): scan
    /// timestamps are put on, or converted to, this one.
    public static let daemon = KernelClock.boottime

    /// The `clockid_t` for `clock_gettime(2)`.
    @inlinable public var id: clockid_t {
        switch self {
        case .realtime: return CLOCK_REALTIME
        case .monotonic: return CLOCK_MONOTONIC
        case .monotonicRaw: return CLOCK_MONOTONIC_RAW
        case .realtimeCoarse: return CLOCK_REALTIME_COARSE
        case .monotonicCoarse: return CLOCK_MONOTONIC_COARSE
        case .boottime: return CLOCK_BOOTTIME
        case .tai: return CLOCK_TAI
        }
    }

    /// `clock_gettime(2)` in nanoseconds. Integer nanoseconds, because IIO
    /// timestamps are 64-bit nanosecond counts and converting between clocks
    /// must not lose their precision.
    @inlinable public func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }
}
