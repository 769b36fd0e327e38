import CLibevdev
import Glibc
import TiltScrollCommon

/// An evdev node (`/dev/input/eventN`) opened for the poll loop: read-only,
/// non-blocking, close-on-exec, never grabbed (`EVIOCGRAB` is never
/// called), so the compositor and libinput see every event as before. The
/// device's state (keys, axes, multitouch slots) is libevdev's, kept
/// current by `drain`, including after the kernel dropped events.
final class EvdevNode {
    let descriptor: FileDescriptor
    let deviceNode: DeviceText
    /// The device's name as its driver gives it (a USB device's own
    /// strings, for one), escaped when shown.
    let name: DeviceText
    private var handle: OpaquePointer?

    private init(descriptor: FileDescriptor, deviceNode: DeviceText, handle: OpaquePointer) {
        self.descriptor = descriptor
        self.deviceNode = deviceNode
        self.handle = handle
        // Never NULL, though it may be empty (libevdev_get_name).
        self.name = DeviceText(cString: libevdev_get_name(handle))
    }

    deinit { close() }

    /// Opens `deviceNode` and reads the device's capabilities and current
    /// state (libevdev_new_from_fd: EVIOCGBIT, EVIOCGKEY, EVIOCGABS,
    /// EVIOCGMTSLOTS...).
    ///
    /// Fails with `.deviceGone` when the node does not exist (unplugged since
    /// it was announced), `.permissionDenied`, `.notAnInputDevice`, or `.system`.
    static func open(_ deviceNode: DeviceText) throws(InputDeviceError) -> EvdevNode {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(deviceNode.unescaped, [.readOnly, .nonBlocking])
        } catch {
            throw InputDeviceError(error, path: deviceNode)
        }
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(descriptor.rawValue, &handle)
        guard rc == 0, let handle else {
            descriptor.close()
            let code = rc < 0 ? Errno(rawValue: -rc) : .ioError
            throw InputDeviceError(SystemError(code: code, operation: "read \(deviceNode)"), path: deviceNode)
        }
        return EvdevNode(descriptor: descriptor, deviceNode: deviceNode, handle: handle)
    }

    /// Whether the device reports `code` of event type `type`.
    func has(_ type: Int32, _ code: Int32) -> Bool {
        guard let handle else { return false }
        return libevdev_has_event_code(handle, UInt32(type), UInt32(code)) == 1
    }

    /// The last known value of `code` of type `type` (a key: 1 down, 0 up);
    /// 0 for codes the device does not have.
    func value(_ type: Int32, _ code: Int32) -> Int32 {
        guard let handle else { return 0 }
        return libevdev_get_event_value(handle, UInt32(type), UInt32(code))
    }

    /// How many multitouch slots the device has; 0 for devices without
    /// slots (single touch, or multitouch protocol A).
    var slotCount: Int32 {
        guard let handle else { return 0 }
        return max(0, libevdev_get_num_slots(handle))
    }

    /// The last known value of the multitouch axis `code` in `slot`.
    func slotValue(_ slot: Int32, _ code: Int32) -> Int32 {
        guard let handle else { return 0 }
        return libevdev_get_slot_value(handle, UInt32(slot), UInt32(code))
    }

    /// Whether this is one of tiltscroll's own devices, the scroll wheel or
    /// the published tablet-mode switch (`TabletSwitchDevice`), or any it
    /// may make later: tiltscroll's vendor id on `BUS_VIRTUAL`, whatever
    /// the product. The daemon never reads them back as the machine's.
    var isTiltscrollDevice: Bool {
        guard let handle else { return false }
        return libevdev_get_id_bustype(handle) == Int32(ScrollDevice.busType)
            && libevdev_get_id_vendor(handle) == Int32(ScrollDevice.vendorID)
    }

    /// Reads every event pending on the non-blocking descriptor and hands
    /// each to `handle` (type, code, value), oldest first, libevdev's state
    /// already updated by it. After `SYN_DROPPED` (the kernel's buffer for
    /// this reader overflowed) libevdev says `SYNC`: the events that bring
    /// its state to the kernel's are read in sync mode, ending in a
    /// `SYN_REPORT`, until it says they are exhausted; then reading goes on
    /// normally.
    ///
    /// Fails with `.deviceGone` when the device was unplugged (`ENODEV`) or
    /// `close()`d; the caller should then `close()` it and stop polling it.
    func drain(_ handle: (_ type: UInt16, _ code: UInt16, _ value: Int32) -> Void) throws(InputDeviceError) {
        guard let device = self.handle else { throw .deviceGone(path: deviceNode) }
        let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        let sync = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var event = input_event()
        while true {
            let rc = libevdev_next_event(device, flags, &event)
            switch rc {
            case sync:
                // In normal mode: the SYN_DROPPED itself; in sync mode: one
                // event of the replay.
                if flags == LIBEVDEV_READ_FLAG_SYNC.rawValue { handle(event.type, event.code, event.value) }
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            case success:
                handle(event.type, event.code, event.value)
            case -Errno.tryAgain.rawValue:
                guard flags == LIBEVDEV_READ_FLAG_SYNC.rawValue else { return }
                // The replay is over; events queued after it are read normally.
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            case -Errno.interrupted.rawValue:
                continue
            default:
                let error = SystemError(code: rc < 0 ? Errno(rawValue: -rc) : .ioError, operation: "read \(deviceNode)")
                throw InputDeviceError(error, path: deviceNode)
            }
        }
    }

    /// Lets the device go. Safe to call more than once.
    func close() {
        guard let handle else { return }
        libevdev_free(handle)
        descriptor.close()
        self.handle = nil
    }
}

extension InputDeviceError {
    /// A failed call on the input device at `path`, classified.
    init(_ error: SystemError, path: DeviceText) {
        switch error.code {
        case .noSuchFileOrDirectory, .noSuchDevice, .noSuchDeviceOrAddress: self = .deviceGone(path: path)
        case .permissionDenied, .notPermitted: self = .permissionDenied(path: path)
        case .inappropriateIOControl, .invalidArgument: self = .notAnInputDevice(path: path)
        default: self = .system(error)
        }
    }
}
