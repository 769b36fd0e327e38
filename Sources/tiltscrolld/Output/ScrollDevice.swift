import CLibevdev
import Glibc
import ScrollPhysics
import TiltScrollCommon

/// The virtual wheel tiltscroll scrolls with: a uinput device that exists only
/// while tilt scrolling is active (a permanent virtual pointer keeps GNOME out
/// of touch mode) and disappears on `destroy()`.
///
/// Each frame reaches the kernel in one `write(2)` of all its records, so a
/// reader never sees half a frame and the hot path makes one system call.
final class ScrollDevice {
    /// The name compositors and `libinput list-devices` show.
    static let name = "tiltscroll"
    /// `BUS_VIRTUAL`: this is no physical bus device, and libinput treats it
    /// as virtual (it passes small hi-res deltas through).
    static let busType = UInt16(BUS_VIRTUAL)
    /// No vendor id is registered for tiltscroll; the ids are the ASCII bytes
    /// of "ti" and "lt". They only have to be stable, so that udev rules and
    /// hwdb entries can match the device and the tablet-mode switch scan can
    /// recognise (and skip) it.
    static let vendorID: UInt16 = 0x7469
    static let productID: UInt16 = 0x6C74
    /// Bumped if the device's capabilities ever change meaning.
    static let version: UInt16 = 1

    /// Whether the device has the horizontal wheel codes.
    let horizontal: Bool
    let deviceNode: String?
    let sysfsPath: String?

    private var handle: OpaquePointer?
    private let descriptor: FileDescriptor

    private init(handle: OpaquePointer, horizontal: Bool) {
        self.handle = handle
        self.horizontal = horizontal
        self.descriptor = FileDescriptor(rawValue: libevdev_uinput_get_fd(handle))
        self.deviceNode = libevdev_uinput_get_devnode(handle).map { String(cString: $0) }
        self.sysfsPath = libevdev_uinput_get_syspath(handle).map { String(cString: $0) }
    }

    deinit { destroy() }

    /// Creates the uinput device with the vertical wheel, and the horizontal
    /// one when `horizontal` is true.
    ///
    /// Fails with `.uinputMissing` when `/dev/uinput` does not exist,
    /// `.permissionDenied` when it may not be opened for writing, or
    /// `.system` with the errno libevdev or the kernel returned.
    static func create(horizontal: Bool) throws(OutputError) -> ScrollDevice {
        // A template device with the name, ids and wheels and nothing else
        // (no keys, no REL_X/REL_Y). The uinput device keeps its own copy of
        // them, so the template is freed whatever the outcome.
        guard let template = libevdev_new() else { throw creationError(code: .outOfMemory) }
        defer { libevdev_free(template) }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, Int32(busType))
        libevdev_set_id_vendor(template, Int32(vendorID))
        libevdev_set_id_product(template, Int32(productID))
        libevdev_set_id_version(template, Int32(version))
        let codes =
            horizontal ? [REL_WHEEL, REL_WHEEL_HI_RES, REL_HWHEEL, REL_HWHEEL_HI_RES] : [REL_WHEEL, REL_WHEEL_HI_RES]
        guard libevdev_enable_event_type(template, UInt32(EV_REL)) == 0,
            codes.allSatisfy({ libevdev_enable_event_code(template, UInt32(EV_REL), UInt32($0), nil) == 0 })
        else {
            // libevdev returns -1 here, not an errno: only an out-of-range code can fail.
            throw creationError(code: .invalidArgument)
        }
        // Managed: libevdev opens /dev/uinput (O_CLOEXEC) and closes it on destroy.
        var handle: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &handle)
        if rc < 0 { throw creationError(code: Errno(rawValue: -rc)) }
        guard let handle else {
            throw .system(SystemError(code: .ioError, operation: "create uinput device"))
        }
        return ScrollDevice(handle: handle, horizontal: horizontal)
    }

    /// Maps the errno of a failed creation to what the user should do.
    static func creationError(code: Errno) -> OutputError {
        switch code {
        case .noSuchFileOrDirectory:
            return .uinputMissing
        case .noSuchDevice where !uinputDriverLoaded(), .noSuchDeviceOrAddress where !uinputDriverLoaded():
            // A static /dev/uinput node without the module behind it.
            return .uinputMissing
        case .permissionDenied, .notPermitted:
            return .permissionDenied(path: "/dev/uinput", access: OutputError.uinputAccess)
        default:
            return .system(SystemError(code: code, operation: "create uinput device on /dev/uinput"))
        }
    }

    /// The uinput misc device registers this directory when its module is loaded.
    private static func uinputDriverLoaded() -> Bool { FileSystem.exists("/sys/class/misc/uinput") }

    /// Writes one frame: its records and `SYN_REPORT` in a single `write(2)`.
    /// An empty frame writes nothing. Does not allocate.
    ///
    /// Fails with `.deviceGone` after `destroy()`, or `.system` when the
    /// write fails.
    func emit(_ frame: ScrollFrame) throws(OutputError) {
        guard handle != nil else { throw .deviceGone(path: deviceNode ?? "/dev/uinput") }
        let batch = ScrollEventBatch(encoding: frame, horizontal: horizontal)
        if batch.isEmpty { return }
        do {
            try batch.withUnsafeBytes { (bytes) throws(SystemError) in try descriptor.writeAll(bytes) }
        } catch {
            throw .system(error)
        }
    }

    /// Removes the device from the system. Safe to call more than once.
    func destroy() {
        guard let handle else { return }
        libevdev_uinput_destroy(handle)
        self.handle = nil
    }

    var isDestroyed: Bool { handle == nil }
}
