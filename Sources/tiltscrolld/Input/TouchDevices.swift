import TiltScrollCommon

/// The touchscreens and pens followed while tilt scrolling is active with
/// `[Scroll] PauseOnTouch=yes`, and the contact they report together: while
/// a finger or pen is on any of them, tilt pauses (`TouchLatch`).
///
/// Found by udev's properties (`UdevDevices.enumerateTouchInputs`), followed
/// through the daemon's udev listener, each opened read-only and never
/// grabbed (`TouchDevice`). A device unplugged (or unreadable) in contact
/// counts as released. Logs name a device by its name and node, escaped,
/// never what it reports.
final class TouchDevices {
    private(set) var devices: [TouchInput] = []
    private let opener: TouchInputOpener
    /// Whether devices are followed (`open()` was called, not `closeAll()` since).
    private(set) var isFollowing = false
    private var latch = TouchLatch()

    /// What the engine was last told: a contact exists.
    var touching: Bool { latch.touching }

    init(opener: TouchInputOpener) { self.opener = opener }

    /// Starts following: opens every touch device udev knows.
    func open() {
        isFollowing = true
        refresh()
    }

    /// Opens the devices udev now lists that are not open, and closes those
    /// it no longer lists (after udev events were lost); the ones open stay
    /// open, with their contact.
    func refresh() {
        guard isFollowing else { return }
        let records: [TouchInputRecord]
        do {
            records = try opener.enumerate()
        } catch {
            Log.warning("Touchscreens and pens cannot be listed: \(error.message); touch does not pause tilt")
            return
        }
        for (index, device) in devices.enumerated().reversed()
        where !records.contains(where: { $0.deviceNode == device.deviceNode && $0.sysfsPath == device.sysfsPath }) {
            device.close()
            devices.remove(at: index)
        }
        var unreadable: [DeviceText] = []
        for record in records where !devices.contains(where: { $0.deviceNode == record.deviceNode }) {
            do {
                try add(record)
            } catch .permissionDenied {
                unreadable.append(record.deviceNode)
            } catch {
                Log.debug("Skipping \(record.deviceNode): \(error)")
            }
        }
        if !unreadable.isEmpty {
            Log.warning(
                "Cannot read \(unreadable.map(\.description).joined(separator: ", ")): permission denied; a finger on it will not "
                    + "pause tilt (needs \(InputDeviceError.eventDeviceAccess))")
        }
    }

    /// A device udev announced (hotplug `add`): opened if it is a touchscreen
    /// or pen not followed yet.
    func added(_ record: TouchInputRecord) {
        guard isFollowing, !devices.contains(where: { $0.deviceNode == record.deviceNode }) else { return }
        do {
            try add(record)
        } catch {
            Log.debug("Skipping \(record.deviceNode): \(error)")
        }
    }

    /// A device udev says is gone (hotplug `remove`): its contact ends.
    func removed(deviceNode: DeviceText) {
        guard let index = devices.firstIndex(where: { $0.deviceNode == deviceNode }) else { return }
        let device = devices.remove(at: index)
        device.close()
        Log.debug("\(device.kind.label) \(device.name) (\(device.deviceNode)) went away")
    }

    /// Stops following: every device is closed, every contact ended.
    func closeAll() {
        for device in devices { device.close() }
        devices.removeAll()
        isFollowing = false
    }

    /// Drains the devices `isReadable` says poll() found readable; a device
    /// that fails (unplugged) is closed, its contact ended. Looked up by
    /// descriptor, because a hotplug event handled earlier in the same round
    /// may have changed the list.
    func drainReadable(_ isReadable: (FileDescriptor) -> Bool) {
        for (index, device) in devices.enumerated().reversed() where isReadable(device.descriptor) {
            do {
                try device.drain()
            } catch {
                device.close()
                devices.remove(at: index)
                Log.debug("\(device.kind.label) \(device.name) (\(device.deviceNode)) went away: \(error)")
            }
        }
    }

    /// What the engine must hear since the last call: a first contact
    /// began, the last one ended (both for a tap between two calls).
    func takeChange() -> (begin: Bool, end: Bool) {
        var now = false
        var seen = false
        for device in devices {
            now = now || device.inContact
            // Every device's flag is taken, not only up to the first in contact.
            seen = device.takeContactSeen() || seen
        }
        return latch.update(contactNow: now, contactSeen: seen)
    }

    private func add(_ record: TouchInputRecord) throws(InputDeviceError) {
        guard let device = try opener.open(record) else { return }
        devices.append(device)
        Log.info(
            "\(device.kind.label) \(device.name) (\(device.deviceNode)): a touch pauses tilt"
                + (device.inContact ? "; in contact now" : ""))
    }
}

extension TouchInputKind {
    /// How logs name a device of this kind.
    var label: String {
        switch self {
        case .touchscreen: "Touchscreen"
        case .pen: "Pen"
        }
    }
}
