import TiltScrollCommon

/// The machine's switches the daemon reads: `SW_TABLET_MODE` while
/// `[Activation] When=` follows it (`auto`, `tablet-mode`), `SW_LID` while
/// `PauseWhenLidClosed=yes`. Opened read-only, their descriptors in the
/// loop, hotplugged through udev; a switch no key asks for is never opened.
///
/// Tablet mode is on while any tablet-mode switch says so, the lid closed
/// while any lid switch does (as logind counts lids); each is nil while the
/// machine has no such switch (or it is not followed).
struct MachineSwitches {
    private(set) var switches: [SwitchInput] = []
    /// The kinds asked for by the last `follow`.
    private(set) var followed: SwitchKinds = []

    /// The tablet-mode switches' state: true in tablet mode, nil without one.
    var tabletMode: Bool? { state(of: .tabletMode) { $0.isTabletMode } }

    /// The lid switches' state: true while closed, nil without one.
    var lidClosed: Bool? { state(of: .lid) { $0.isLidClosed } }

    /// Asked every round a switch is open: no allocation.
    private func state(of kind: SwitchKinds, _ on: (SwitchInput) -> Bool) -> Bool? {
        var any = false
        for found in switches where found.kinds.contains(kind) {
            if on(found) { return true }
            any = true
        }
        return any ? false : nil
    }

    /// Opens the switches of `wanted` when it changed (closing those no
    /// longer wanted); nothing when it did not.
    mutating func follow(_ wanted: SwitchKinds, on platform: DaemonPlatform) {
        guard wanted != followed else { return }
        closeAll()
        followed = wanted
        guard !wanted.isEmpty else { return }
        switches = platform.scanSwitches(wanted)
        for found in switches { Log.info("\(MachineSwitches.describe(found))") }
    }

    /// Forgets the switches and scans again (after lost udev events).
    mutating func rescan(on platform: DaemonPlatform) {
        let wanted = followed
        closeAll()
        follow(wanted, on: platform)
    }

    /// A udev event of subsystem "input": a switch that appeared is opened,
    /// one that went away closed.
    mutating func handle(_ event: DeviceEvent, on platform: DaemonPlatform) {
        guard !followed.isEmpty, let node = event.deviceNode, node.hasPrefix("/dev/input/event") else { return }
        switch event.action {
        case .add:
            guard !switches.contains(where: { $0.deviceNode == node }),
                let found = platform.openSwitch(node, followed)
            else { return }
            Log.info("Appeared: \(MachineSwitches.describe(found))")
            switches.append(found)
        case .remove:
            if let index = switches.firstIndex(where: { $0.deviceNode == node }) {
                switches.remove(at: index).close()
            }
        default:
            return
        }
    }

    /// Drains the switches `isReadable` says poll() found readable; one
    /// that fails (unplugged) is closed. Looked up by descriptor, because an
    /// event handled earlier in the round may have changed the list.
    /// Returns whether any was readable: otherwise no state changed.
    mutating func drainReadable(_ isReadable: (FileDescriptor) -> Bool) -> Bool {
        var any = false
        for index in switches.indices.reversed() where isReadable(switches[index].descriptor) {
            any = true
            do {
                _ = try switches[index].drain()
            } catch {
                switches.remove(at: index).close()
            }
        }
        return any
    }

    mutating func closeAll() {
        for found in switches { found.close() }
        switches.removeAll()
        followed = []
    }

    /// "Lid switch: Lid Switch (/dev/input/event0), open", for the log.
    static func describe(_ found: SwitchInput) -> String {
        var parts: [String] = []
        if found.kinds.contains(.tabletMode) { parts.append(found.isTabletMode ? "tablet mode" : "laptop mode") }
        if found.kinds.contains(.lid) { parts.append(found.isLidClosed ? "lid closed" : "lid open") }
        let what = found.kinds == .lid ? "Lid switch" : found.kinds == .tabletMode ? "Tablet-mode switch" : "Switch"
        return "\(what): \(found.name) (\(found.deviceNode)), \(parts.joined(separator: ", "))"
    }
}
