import Glibc

/// What `tiltscrolld --calibrate` and `--toggle` ask of the running daemon.
/// Each is a signal, so it also works with `kill` or `systemctl kill`.
enum ControlRequest: CaseIterable, Equatable {
    /// Take the current pose as the new neutral one (SIGUSR1).
    case calibrate
    /// Turn tilt scrolling on or off when `[Activation] When=manual` (SIGUSR2).
    case toggle

    var signal: Int32 {
        switch self {
        case .calibrate: return SIGUSR1
        case .toggle: return SIGUSR2
        }
    }

    /// The command-line option that makes this request.
    var option: String {
        switch self {
        case .calibrate: return "--calibrate"
        case .toggle: return "--toggle"
        }
    }
}
