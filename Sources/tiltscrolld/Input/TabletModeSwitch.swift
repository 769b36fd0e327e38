import CLibevdev
import Glibc

/// An input device that reports `SW_TABLET_MODE` (intel-vbtn, intel-hid,
/// thinkpad_acpi, HP WMI and others): whether a convertible is folded into
/// a tablet.
///
/// Switches are recognised by capability, never by name, because every
/// platform driver names its device differently. The descriptor is
/// non-blocking: the event loop polls it and calls `drain()` when it is
/// readable. What to do with the state is the activation policy's business.
final class TabletModeSwitch {
    /// Where event device nodes live.
    static let inputDirectory = "/dev/input"

    let descriptor: FileDescriptor
    let deviceNode: DeviceText
    /// The device's name as its driver gives it (a USB device's own
    /// strings, for one), escaped when shown.
    let name: DeviceText
    /// The switch state as of the last `drain()` (or opening).
    private(set) var isTabletMode: Bool

    private var handle: OpaquePointer?

    private init(descriptor: FileDescriptor, deviceNode: DeviceText, handle: OpaquePointer) {
        self.descriptor = descriptor
        self.deviceNode = deviceNode
        self.handle = handle
        // Never NULL, though it may be empty (libevdev_get_name).
        self.name = DeviceText(cString: libevdev_get_name(handle))
        self.isTabletMode = TabletModeSwitch.switchState(handle)
    }

    deinit { close() }

    /// Opens every `event*` node in `directory` and keeps those that are
    /// tablet-mode switches, in node-number order. Nodes that cannot be read
    /// are skipped; a permission problem is logged once per scan, since it
    /// hides switches from the activation policy.
    static func scan(directory: String = inputDirectory) -> [TabletModeSwitch] {
        let names: [String]
        do {
            names = try FileSystem.directoryEntries(directory)
        } catch {
            // No /dev/input at all (a container, a minimal VM): there is no switch.
            Log.debug("no tablet-mode switch scan: \(error)")
            return []
        }
        var switches: [TabletModeSwitch] = []
        var unreadable: [DeviceText] = []
        for node in eventNodeNames(names).map({ DeviceText("\(directory)/\($0)") }) {
            do {
                if let found = try open(deviceNode: node) { switches.append(found) }
            } catch .permissionDenied {
                unreadable.append(node)
            } catch {
                Log.debug("skipping \(node): \(error)")
            }
        }
        if !unreadable.isEmpty {
            Log.warning(
                "cannot read \(unreadable.map(\.description).joined(separator: ", ")): permission denied; "
                    + "a tablet-mode switch among them would not be seen (needs "
                    + InputDeviceError.eventDeviceAccess + ")")
        }
        return switches
    }

    /// The `eventN` names among `names`, sorted by N.
    static func eventNodeNames(_ names: [String]) -> [String] {
        names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)), number >= 0 else { return nil }
            return (number, name)
        }
        .sorted { $0.0 < $1.0 }
        .map(\.1)
    }

    /// Opens `deviceNode` read-only and non-blocking and reads its current
    /// switch state. Returns nil when the device has no `SW_TABLET_MODE`, and
    /// for tiltscroll's own scroll device.
    ///
    /// Fails with `.deviceGone` when the node does not exist (it may have
    /// been unplugged since it was announced), `.permissionDenied`,
    /// `.notAnInputDevice`, or `.system`.
    static func open(deviceNode: DeviceText) throws(InputDeviceError) -> TabletModeSwitch? {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(deviceNode.unescaped, [.readOnly, .nonBlocking])
        } catch {
            throw openError(error, path: deviceNode)
        }
        // libevdev reads the name, ids, capabilities and switch states; the
        // descriptor stays ours.
        var handle: OpaquePointer?
        let rc = libevdev_new_from_fd(descriptor.rawValue, &handle)
        guard rc == 0, let handle else {
            descriptor.close()
            let code = rc < 0 ? Errno(rawValue: -rc) : .ioError
            throw openError(SystemError(code: code, operation: "read \(deviceNode)"), path: deviceNode)
        }
        guard libevdev_has_event_code(handle, UInt32(EV_SW), UInt32(SW_TABLET_MODE)) == 1, !isScrollDevice(handle)
        else {
            libevdev_free(handle)
            descriptor.close()
            return nil
        }
        return TabletModeSwitch(descriptor: descriptor, deviceNode: deviceNode, handle: handle)
    }

    /// tiltscroll's own uinput device has no switches today; checking its ids
    /// keeps it from ever being taken for one, whatever it grows later.
    private static func isScrollDevice(_ handle: OpaquePointer) -> Bool {
        libevdev_get_id_bustype(handle) == Int32(ScrollDevice.busType)
            && libevdev_get_id_vendor(handle) == Int32(ScrollDevice.vendorID)
            && libevdev_get_id_product(handle) == Int32(ScrollDevice.productID)
    }

    static func openError(_ error: SystemError, path: DeviceText) -> InputDeviceError {
        switch error.code {
        case .noSuchFileOrDirectory, .noSuchDevice, .noSuchDeviceOrAddress: return .deviceGone(path: path)
        case .permissionDenied, .notPermitted: return .permissionDenied(path: path)
        case .inappropriateIOControl, .invalidArgument: return .notAnInputDevice(path: path)
        default: return .system(error)
        }
    }

    /// Reads every pending event (resynchronising after `SYN_DROPPED`) and
    /// updates `isTabletMode`. Returns whether the state changed. Call it when
    /// `descriptor` polls readable; calling it with nothing pending is harmless.
    ///
    /// Fails with `.deviceGone` when the device was unplugged or `close()`d;
    /// the caller should then `close()` it and stop polling its descriptor.
    func drain() throws(InputDeviceError) -> Bool {
        guard let handle else { throw .deviceGone(path: deviceNode) }
        do {
            try readPendingEvents(handle)
        } catch {
            throw Self.openError(error, path: deviceNode)
        }
        let now = TabletModeSwitch.switchState(handle)
        defer { isTabletMode = now }
        return now != isTabletMode
    }

    /// Lets the device go. Safe to call more than once.
    func close() {
        guard let handle else { return }
        libevdev_free(handle)
        descriptor.close()
        self.handle = nil
    }

    /// The last known state of `SW_TABLET_MODE`.
    private static func switchState(_ handle: OpaquePointer) -> Bool {
        libevdev_get_event_value(handle, UInt32(EV_SW), UInt32(SW_TABLET_MODE)) != 0
    }

    /// Reads every event pending on the non-blocking descriptor, so that
    /// libevdev's view of the switch states is current. After `SYN_DROPPED`
    /// (the kernel's buffer overflowed) libevdev says `SYNC` and replays the
    /// state the kernel lost; those events are read in sync mode until it
    /// says they are exhausted, then reading goes on normally. Throws the
    /// errno of a failed read (`ENODEV`: unplugged).
    private func readPendingEvents(_ handle: OpaquePointer) throws(SystemError) {
        let success = Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue)
        let sync = Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var event = input_event()
        while true {
            let rc = libevdev_next_event(handle, flags, &event)
            switch rc {
            case sync: flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            case success: continue
            case -Errno.tryAgain.rawValue:
                guard flags == LIBEVDEV_READ_FLAG_SYNC.rawValue else { return }
                // The replay is over; events queued after it are read normally.
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            case -Errno.interrupted.rawValue: continue
            default:
                throw SystemError(code: rc < 0 ? Errno(rawValue: -rc) : .ioError, operation: "read \(deviceNode)")
            }
        }
    }
}
