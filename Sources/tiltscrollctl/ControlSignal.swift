import Glibc
import TiltScrollCommon

/// What `tiltscrollctl calibrate` and `toggle` send the running daemon as a
/// signal when the bus cannot reach it (no system bus, or a daemon started
/// by hand without its bus policy). Each also works with `kill` or
/// `systemctl kill`.
enum ControlSignal: CaseIterable, Equatable {
    /// Take the current pose as the new neutral one (SIGUSR1).
    case calibrate
    /// Switch tilt scrolling on when off, off when on (SIGUSR2).
    case toggle

    var signal: Int32 {
        switch self {
        case .calibrate: return SIGUSR1
        case .toggle: return SIGUSR2
        }
    }

    /// The client's command that makes this request.
    var command: String {
        switch self {
        case .calibrate: return "tiltscrollctl calibrate"
        case .toggle: return "tiltscrollctl toggle"
        }
    }
}
