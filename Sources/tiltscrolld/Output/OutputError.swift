import Glibc

/// Why the scroll device or a tablet-mode switch could not be created, written
/// or read. `description` says what to do about it.
enum OutputError: Error, Equatable, CustomStringConvertible {
    /// `/dev/uinput` does not exist: the uinput module is not loaded.
    case uinputMissing
    /// The daemon may not open `path` (`EACCES`/`EPERM`); `access` names what it needs.
    case permissionDenied(path: String, access: String)
    /// The input device at `path` went away (unplugged, `ENODEV`/`ENOENT`).
    case deviceGone(path: String)
    /// `path` exists but is not an evdev input device (`ENOTTY`).
    case notAnInputDevice(path: String)
    /// Any other failed system call or libevdev call.
    case system(SystemError)

    var description: String {
        switch self {
        case .uinputMissing:
            return
                "/dev/uinput does not exist; load the uinput kernel module "
                + "with `modprobe uinput` (and list it in /etc/modules-load.d/ to load it at boot)"
        case .permissionDenied(let path, let access):
            return "permission denied opening \(path): tiltscrolld needs \(access)"
        case .deviceGone(let path):
            return "input device \(path) is gone"
        case .notAnInputDevice(let path):
            return "\(path) is not an evdev input device"
        case .system(let error):
            return error.description
        }
    }

    /// What opening `/dev/uinput` needs, for `permissionDenied`.
    static let uinputAccess =
        "read and write access to /dev/uinput (run it as root; under systemd the unit's DeviceAllow= "
        + "must list /dev/uinput rw)"

    /// What reading an event device needs, for `permissionDenied`.
    static let eventDeviceAccess =
        "read access to /dev/input/event* (run it as root; under systemd the unit's DeviceAllow= "
        + "must list char-input r)"
}
