import CLibevdev
import Glibc
import TiltScrollCommon

/// An input device that reports `SW_TABLET_MODE` (intel-vbtn, intel-hid,
/// thinkpad_acpi, HP WMI and others: whether a convertible is folded into a
/// tablet), `SW_LID` (the ACPI lid button, a hall sensor: whether the lid is
/// closed), or both.
///
/// Switches are recognised by capability, never by name, because every
/// platform driver names its device differently. Read-only and never
/// grabbed: logind and the compositor read the same events. The descriptor
/// is non-blocking: the event loop polls it and calls `drain()` when it is
/// readable. What to do with the state is the daemon's business. A switch
/// the daemon was not asked for (`kinds`) reads false.
final class MachineSwitch {
    /// Where event device nodes live.
    static let inputDirectory = "/dev/input"

    private let node: EvdevNode
    var descriptor: FileDescriptor { node.descriptor }
    var deviceNode: DeviceText { node.deviceNode }
    /// The device's name as its driver gives it (a USB device's own
    /// strings, for one), escaped when shown.
    var name: DeviceText { node.name }
    /// The switches it has that it was opened for.
    let kinds: SwitchKinds
    /// The switches' state as of the last `drain()` (or opening).
    private(set) var isTabletMode: Bool
    private(set) var isLidClosed: Bool

    private init(node: EvdevNode, kinds: SwitchKinds) {
        self.node = node
        self.kinds = kinds
        isTabletMode = false
        isLidClosed = false
        (isTabletMode, isLidClosed) = read()
    }

    /// Opens every `event*` node in `directory` and keeps those that are
    /// switches of `kinds`, in node-number order. Nodes that cannot be read
    /// are skipped; a permission problem is logged once per scan, since it
    /// hides switches from the daemon.
    static func scan(_ kinds: SwitchKinds, directory: String = inputDirectory) -> [MachineSwitch] {
        let names: [String]
        do {
            names = try FileSystem.directoryEntries(directory)
        } catch {
            // No /dev/input at all (a container, a minimal VM): there is no switch.
            Log.debug("no switch scan: \(error)")
            return []
        }
        var switches: [MachineSwitch] = []
        var unreadable: [DeviceText] = []
        for node in eventNodeNames(names).map({ DeviceText("\(directory)/\($0)") }) {
            do {
                if let found = try open(deviceNode: node, kinds) { switches.append(found) }
            } catch .permissionDenied {
                unreadable.append(node)
            } catch {
                Log.debug("skipping \(node): \(error)")
            }
        }
        if !unreadable.isEmpty {
            Log.warning(
                "cannot read \(unreadable.map(\.description).joined(separator: ", ")): permission denied; "
                    + "a tablet-mode or lid switch among them would not be seen (needs "
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
    /// switch state. Returns nil when the device has none of `kinds`, and
    /// for tiltscroll's own devices (its published tablet-mode switch).
    ///
    /// Fails with `.deviceGone` when the node does not exist (it may have
    /// been unplugged since it was announced), `.permissionDenied`,
    /// `.notAnInputDevice`, or `.system`.
    static func open(deviceNode: DeviceText, _ kinds: SwitchKinds) throws(InputDeviceError) -> MachineSwitch? {
        let node = try EvdevNode.open(deviceNode)
        var has: SwitchKinds = []
        if kinds.contains(.tabletMode), node.has(EV_SW, SW_TABLET_MODE) { has.insert(.tabletMode) }
        if kinds.contains(.lid), node.has(EV_SW, SW_LID) { has.insert(.lid) }
        // tiltscroll's own switch (PublishTabletMode=yes) reports what the
        // daemon derived: read back as the machine's, it would take
        // precedence over the hinge it follows, and never change again.
        guard !has.isEmpty, !node.isTiltscrollDevice else {
            node.close()
            return nil
        }
        return MachineSwitch(node: node, kinds: has)
    }

    /// What a failed call on the input device at `path` means
    /// (`InputDeviceError.init(_:path:)`).
    static func openError(_ error: SystemError, path: DeviceText) -> InputDeviceError {
        InputDeviceError(error, path: path)
    }

    /// Reads every pending event (resynchronising after `SYN_DROPPED`) and
    /// updates the state. Returns whether a switch changed. Call it when
    /// `descriptor` polls readable; calling it with nothing pending is harmless.
    ///
    /// Fails with `.deviceGone` when the device was unplugged or `close()`d;
    /// the caller should then `close()` it and stop polling its descriptor.
    func drain() throws(InputDeviceError) -> Bool {
        try node.drain { _, _, _ in }
        let now = read()
        defer { (isTabletMode, isLidClosed) = now }
        return now != (isTabletMode, isLidClosed)
    }

    /// The switches' state as libevdev holds it, for the kinds opened for.
    private func read() -> (tabletMode: Bool, lidClosed: Bool) {
        (
            kinds.contains(.tabletMode) && node.value(EV_SW, SW_TABLET_MODE) != 0,
            kinds.contains(.lid) && node.value(EV_SW, SW_LID) != 0
        )
    }

    /// Lets the device go. Safe to call more than once.
    func close() { node.close() }
}
