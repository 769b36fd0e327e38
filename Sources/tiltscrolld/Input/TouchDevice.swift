import CEvdev
import Glibc
import TiltScrollCommon

/// A touchscreen or pen (udev's `ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TABLET`)
/// followed for one thing: whether a finger or pen is on it
/// (`TouchContact`). Opened read-only and never grabbed (`EvdevNode`); its
/// descriptor joins the poll loop, and `drain()` reads what is pending when
/// it is readable. Nothing of what is touched (coordinates, pressure) is
/// looked at, kept apart or written anywhere.
final class TouchDevice {
    let kind: TouchInputKind
    let sysfsPath: DeviceText
    private let node: EvdevNode

    var descriptor: FileDescriptor { node.descriptor }
    var deviceNode: DeviceText { node.deviceNode }
    /// The device's name as its driver gives it, escaped when shown.
    var name: DeviceText { node.name }

    /// Contact as of the last frame read (`SYN_REPORT`), or of opening.
    private(set) var inContact: Bool
    /// Whether some frame since the last `takeContactSeen()` had contact.
    private var contactSeen: Bool

    private let hasSlots: Bool

    private init(node: EvdevNode, record: TouchInputRecord) {
        self.node = node
        kind = record.kind
        sysfsPath = record.sysfsPath
        hasSlots = node.slotCount > 0 && node.has(EV_ABS, ABS_MT_TRACKING_ID)
        inContact = false
        contactSeen = false
        inContact = readContact()
        contactSeen = inContact
    }

    /// Opens the device udev described in `record`, read-only, and reads
    /// its contact state as it is now (a finger may already be down).
    /// Returns nil for a device that cannot report contact (a tablet's pad of
    /// buttons, tagged `ID_INPUT_TABLET` too) and for tiltscroll's own
    /// device. Fails as `EvdevNode.open` does.
    static func open(_ record: TouchInputRecord) throws(InputDeviceError) -> TouchDevice? {
        let node = try EvdevNode.open(record.deviceNode)
        let reportsContact =
            TouchContact.contactKeys.contains { node.has(EV_KEY, $0) }
            || (node.slotCount > 0 && node.has(EV_ABS, ABS_MT_TRACKING_ID))
        guard reportsContact, !node.isTiltscrollDevice else {
            node.close()
            return nil
        }
        return TouchDevice(node: node, record: record)
    }

    /// Reads every pending event (resynchronising after `SYN_DROPPED`) and
    /// updates `inContact` at each frame. Call it when `descriptor` polls
    /// readable; with nothing pending it changes nothing.
    ///
    /// Fails with `.deviceGone` when the device was unplugged or `close()`d:
    /// `close()` it then; its contact has ended.
    func drain() throws(InputDeviceError) {
        // libevdev's state is the kernel's as of the event just read, so a
        // frame's contact is read at its end: a whole tap (down, up) read in
        // one drain is still seen.
        try node.drain { type, code, _ in
            guard type == UInt16(EV_SYN), code == UInt16(SYN_REPORT) else { return }
            inContact = readContact()
            if inContact { contactSeen = true }
        }
    }

    /// Whether contact was seen since the last call (in any frame, or now).
    func takeContactSeen() -> Bool {
        defer { contactSeen = inContact }
        return contactSeen || inContact
    }

    /// Lets the device go. Safe to call more than once; contact ends.
    func close() {
        node.close()
        inContact = false
        contactSeen = false
    }

    private func readContact() -> Bool {
        let node = self.node
        let slots = hasSlots ? node.slotCount : 0
        return TouchContact.inContact(
            keyDown: { node.value(EV_KEY, $0) != 0 },
            trackingIDs: (0..<slots).lazy.map { node.slotValue($0, ABS_MT_TRACKING_ID) })
    }
}
