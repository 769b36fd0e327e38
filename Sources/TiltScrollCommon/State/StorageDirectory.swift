import Glibc

/// The two directories tiltscrolld keeps files in, one per kind of state, as
/// systemd makes them for the unit (`StateDirectory=tiltscroll` and
/// `RuntimeDirectory=tiltscroll` in tiltscrolld.service, announced in
/// `$STATE_DIRECTORY` and `$RUNTIME_DIRECTORY`). A daemon started by hand
/// uses the same paths.
public enum StorageDirectory: Equatable, CaseIterable, Sendable {
    /// What must outlive a reboot: the calibration, the user's settings.
    /// `/var/lib/tiltscroll`; only its owner may enter it.
    case state
    /// What belongs to the running daemon and goes with the boot: the PID
    /// file and the settings journal. `/run/tiltscroll`, a tmpfs; anyone may
    /// read it, so that `tiltscrolld --calibrate` run by a user finds the PID.
    case runtime

    /// The variable systemd announces the directory in.
    public var environmentVariable: String {
        switch self {
        case .state: return "STATE_DIRECTORY"
        case .runtime: return "RUNTIME_DIRECTORY"
        }
    }

    /// Where the directory is when the variable is not set.
    public var defaultPath: String {
        switch self {
        case .state: return "/var/lib/tiltscroll"
        case .runtime: return "/run/tiltscroll"
        }
    }

    /// The mode the daemon creates the directory with when it does not exist.
    public var permissions: mode_t {
        switch self {
        case .state: return 0o700
        case .runtime: return 0o755
        }
    }

    /// The directory as this process's environment names it.
    public var path: String { path(environmentValue: getenv(environmentVariable).map { String(cString: $0) }) }

    /// The directory given the variable's value: systemd sets a
    /// colon-separated list when a unit has several directories of a kind,
    /// and ours is the first. An empty or relative value is not used.
    public func path(environmentValue value: String?) -> String {
        guard let value, let first = value.split(separator: ":").first, first.hasPrefix("/") else {
            return defaultPath
        }
        return String(first)
    }
}
