import Glibc
import TiltScrollCommon

/// Why the scroll device could not be created or written. `description`
/// says what to do about it.
enum OutputError: Error, Equatable, CustomStringConvertible {
    /// `/dev/uinput` does not exist: the uinput module is not loaded.
    case uinputMissing
    /// The daemon may not open `path` (`EACCES`/`EPERM`); `access` names what it needs.
    case permissionDenied(path: String, access: String)
    /// The scroll device at `path` was destroyed.
    case deviceGone(path: String)
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
        case .system(let error):
            return error.description
        }
    }

    /// What opening `/dev/uinput` needs, for `permissionDenied`.
    static let uinputAccess =
        "read and write access to /dev/uinput (run it as root; under systemd the unit's DeviceAllow= "
        + "must list /dev/uinput rw)"
}
