import CEvdev
import CLibevdev
import Glibc
import TiltScrollCommon

/// The tablet-mode switch tiltscroll publishes where the firmware has none
/// (issue 25): a uinput device with only `SW_TABLET_MODE`, set from the
/// posture the hinge angle shows, so that libinput turns the internal
/// keyboard and touchpad off while the machine is folded and the desktop
/// offers its on-screen keyboard, as the firmware's own switch would.
///
/// Each change of state reaches the kernel in one `write(2)` of the switch
/// event and its `SYN_REPORT`. The device disappears on `destroy()`.
///
/// The daemon must not take this switch for the machine's own when it
/// looks for one (`MachineSwitch.scan`): its ids are tiltscroll's
/// (`ScrollDevice.vendorID`, `BUS_VIRTUAL`) with a product of its own.
final class TabletSwitchDevice {
    /// The name compositors and `libinput list-devices` show.
    static let name = "tiltscroll tablet-mode switch"
    /// `BUS_VIRTUAL`, like the scroll device: no physical bus.
    static let busType = UInt16(BUS_VIRTUAL)
    /// tiltscroll's vendor id (`ScrollDevice.vendorID`).
    static let vendorID = ScrollDevice.vendorID
    /// The ASCII bytes of "ts" (tablet switch): stable, so that udev rules,
    /// hwdb entries and the daemon's own switch scan can recognise it.
    static let productID: UInt16 = 0x7473
    /// Bumped if the device's capabilities ever change meaning.
    static let version: UInt16 = 1

    let deviceNode: String?
    let sysfsPath: String?
    /// The state last written (false when created in laptop mode).
    private(set) var isTabletMode: Bool

    private var handle: OpaquePointer?
    private let descriptor: FileDescriptor

    private init(handle: OpaquePointer) {
        self.handle = handle
        self.descriptor = FileDescriptor(rawValue: libevdev_uinput_get_fd(handle))
        self.deviceNode = libevdev_uinput_get_devnode(handle).map { String(cString: $0) }
        self.sysfsPath = libevdev_uinput_get_syspath(handle).map { String(cString: $0) }
        self.isTabletMode = false
    }

    deinit { destroy() }

    /// Creates the switch and sets it to `tabletMode`. A uinput device
    /// starts with its switches off; a reader opening it afterwards reads
    /// the state set (`EVIOCGSW`), one already reading it gets the event.
    ///
    /// Fails with `.uinputMissing` when `/dev/uinput` does not exist,
    /// `.permissionDenied` when it may not be opened for writing, or
    /// `.system` with the errno libevdev or the kernel returned (the device
    /// is gone again when setting the first state fails).
    static func create(tabletMode: Bool) throws(OutputError) -> TabletSwitchDevice {
        // A template with the name, ids and the one switch. The uinput
        // device keeps its own copy, so the template is freed whatever
        // the outcome.
        guard let template = libevdev_new() else { throw ScrollDevice.creationError(code: .outOfMemory) }
        defer { libevdev_free(template) }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, Int32(busType))
        libevdev_set_id_vendor(template, Int32(vendorID))
        libevdev_set_id_product(template, Int32(productID))
        libevdev_set_id_version(template, Int32(version))
        guard libevdev_enable_event_type(template, UInt32(EV_SW)) == 0,
            libevdev_enable_event_code(template, UInt32(EV_SW), UInt32(SW_TABLET_MODE), nil) == 0
        else {
            // libevdev returns -1 here, not an errno: only an out-of-range code can fail.
            throw ScrollDevice.creationError(code: .invalidArgument)
        }
        // Managed: libevdev opens /dev/uinput (O_CLOEXEC) and closes it on destroy.
        var handle: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &handle)
        if rc < 0 { throw ScrollDevice.creationError(code: Errno(rawValue: -rc)) }
        guard let handle else {
            throw .system(SystemError(code: .ioError, operation: "create uinput device"))
        }
        let device = TabletSwitchDevice(handle: handle)
        if tabletMode {
            do {
                try device.set(tabletMode: true)
            } catch {
                device.destroy()
                throw error
            }
        }
        return device
    }

    /// Sets the switch: `SW_TABLET_MODE` and `SYN_REPORT` in a single
    /// `write(2)`. Writes nothing when the state is already `tabletMode`
    /// (the kernel would drop a repeated switch state anyway). Does not
    /// allocate.
    ///
    /// Fails with `.deviceGone` after `destroy()`, or `.system` when the
    /// write fails.
    func set(tabletMode: Bool) throws(OutputError) {
        guard handle != nil else { throw .deviceGone(path: deviceNode ?? "/dev/uinput") }
        guard tabletMode != isTabletMode else { return }
        // uinput stamps the events itself: zero times.
        let records = (
            cevdev_input_event(
                seconds: 0, microseconds: 0, type: UInt16(EV_SW), code: UInt16(SW_TABLET_MODE),
                value: tabletMode ? 1 : 0),
            cevdev_input_event(seconds: 0, microseconds: 0, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0)
        )
        do {
            try withUnsafeBytes(of: records) { (bytes) throws(SystemError) in try descriptor.writeAll(bytes) }
        } catch {
            throw .system(error)
        }
        isTabletMode = tabletMode
    }

    /// Removes the device from the system: readers see it go, and libinput
    /// no longer counts the machine as folded. Safe to call more than once.
    func destroy() {
        guard let handle else { return }
        libevdev_uinput_destroy(handle)
        self.handle = nil
    }

    var isDestroyed: Bool { handle == nil }
}
