import TiltScrollCommon

/// The machine's `SW_TABLET_MODE` switches, followed while `[Activation]
/// When=` reads them (`auto`, `tablet-mode`): opened read-only, their
/// descriptors in the loop, hotplugged through udev. Tablet mode is on
/// while any of them says so; nil while there is none.
struct TabletModeSwitches {
    private(set) var switches: [TabletModeInput] = []

    /// The switches' state: true in tablet mode, nil without a switch.
    var tabletMode: Bool? { switches.isEmpty ? nil : switches.contains { $0.isTabletMode } }

    /// Opens the switches when `wanted` and none are open; closes them when not.
    mutating func follow(wanted: Bool, on platform: DaemonPlatform) {
        guard wanted else {
            closeAll()
            return
        }
        guard switches.isEmpty else { return }
        switches = platform.scanTabletModeSwitches()
        for found in switches {
            Log.info(
                "Tablet-mode switch: \(found.name) (\(found.deviceNode)), "
                    + "\(found.isTabletMode ? "tablet" : "laptop") mode")
        }
    }

    /// Forgets the switches and scans again (after lost udev events).
    mutating func rescan(wanted: Bool, on platform: DaemonPlatform) {
        closeAll()
        follow(wanted: wanted, on: platform)
    }

    /// A udev event of subsystem "input": a switch that appeared is opened,
    /// one that went away closed.
    mutating func handle(_ event: DeviceEvent, wanted: Bool, on platform: DaemonPlatform) {
        guard wanted, let node = event.deviceNode, node.hasPrefix("/dev/input/event") else { return }
        switch event.action {
        case .add:
            guard !switches.contains(where: { $0.deviceNode == node }),
                let found = platform.openTabletModeSwitch(node)
            else { return }
            Log.info("Tablet-mode switch appeared: \(found.name) (\(node))")
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
    mutating func drainReadable(_ isReadable: (FileDescriptor) -> Bool) {
        for index in switches.indices.reversed() where isReadable(switches[index].descriptor) {
            do {
                _ = try switches[index].drain()
            } catch {
                switches.remove(at: index).close()
            }
        }
    }

    mutating func closeAll() {
        for found in switches { found.close() }
        switches.removeAll()
    }
}
