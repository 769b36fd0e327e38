import Glibc
import TiltScrollCommon

/// Why an input device (a tablet-mode switch) could not be opened or read.
/// `description` says what to do about it. Paths are udev's (`DeviceText`).
enum InputDeviceError: Error, Equatable, CustomStringConvertible {
    /// The daemon may not read `path` (`EACCES`/`EPERM`).
    case permissionDenied(path: DeviceText)
    /// The input device at `path` went away (unplugged, `ENODEV`/`ENOENT`).
    case deviceGone(path: DeviceText)
    /// `path` exists but is not an evdev input device (`ENOTTY`).
    case notAnInputDevice(path: DeviceText)
    /// Any other failed system call or libevdev call.
    case system(SystemError)

    var description: String {
        switch self {
        case .permissionDenied(let path):
            return "permission denied opening \(path): tiltscrolld needs \(InputDeviceError.eventDeviceAccess)"
        case .deviceGone(let path):
            return "input device \(path) is gone"
        case .notAnInputDevice(let path):
            return "\(path) is not an evdev input device"
        case .system(let error):
            return error.description
        }
    }

    /// What reading an event device needs.
    static let eventDeviceAccess =
        "read access to /dev/input/event* (run it as root; under systemd the unit's DeviceAllow= "
        + "must list char-input r)"
}
