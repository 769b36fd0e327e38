import CLibevdev
import Glibc
import TiltScrollCommon

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

    private let node: EvdevNode
    var descriptor: FileDescriptor { node.descriptor }
    var deviceNode: DeviceText { node.deviceNode }
    /// The device's name as its driver gives it (a USB device's own
    /// strings, for one), escaped when shown.
    var name: DeviceText { node.name }
    /// The switch state as of the last `drain()` (or opening).
    private(set) var isTabletMode: Bool

    private init(node: EvdevNode) {
        self.node = node
        isTabletMode = node.value(EV_SW, SW_TABLET_MODE) != 0
    }

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
        let node = try EvdevNode.open(deviceNode)
        // tiltscroll's own uinput device has no switches today; checking its
        // ids keeps it from ever being taken for one, whatever it grows later.
        guard node.has(EV_SW, SW_TABLET_MODE), !node.isScrollDevice else {
            node.close()
            return nil
        }
        return TabletModeSwitch(node: node)
    }

    /// What a failed call on the input device at `path` means
    /// (`InputDeviceError.init(_:path:)`).
    static func openError(_ error: SystemError, path: DeviceText) -> InputDeviceError {
        InputDeviceError(error, path: path)
    }

    /// Reads every pending event (resynchronising after `SYN_DROPPED`) and
    /// updates `isTabletMode`. Returns whether the state changed. Call it when
    /// `descriptor` polls readable; calling it with nothing pending is harmless.
    ///
    /// Fails with `.deviceGone` when the device was unplugged or `close()`d;
    /// the caller should then `close()` it and stop polling its descriptor.
    func drain() throws(InputDeviceError) -> Bool {
        try node.drain { _, _, _ in }
        let now = node.value(EV_SW, SW_TABLET_MODE) != 0
        defer { isTabletMode = now }
        return now != isTabletMode
    }

    /// Lets the device go. Safe to call more than once.
    func close() { node.close() }
}
