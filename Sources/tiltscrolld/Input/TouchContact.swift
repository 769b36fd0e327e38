import CEvdev
import TiltScrollCommon

/// Whether a touch device is in contact, from the kernel's input protocol
/// (Documentation/input/multi-touch-protocol.rst, event-codes.rst): only the
/// codes that say so, never a coordinate.
///
/// - a multitouch slot with a tracking id (`ABS_MT_TRACKING_ID` >= 0): a
///   finger on a protocol B touchscreen, one slot per finger;
/// - `BTN_TOUCH` down: a finger on a single-touch or protocol A screen, a
///   pen's tip on the glass;
/// - `BTN_TOOL_PEN` or `BTN_TOOL_RUBBER` down: a pen (or its eraser) in
///   proximity, hovering within a few millimetres. It counts as contact: the
///   hand holding it is at the screen, about to write or tap, and a page
///   that scrolled under the pen would put the stroke in the wrong place.
enum TouchContact {
    /// The key codes that mean contact.
    static let contactKeys: [Int32] = [Int32(BTN_TOUCH), Int32(BTN_TOOL_PEN), Int32(BTN_TOOL_RUBBER)]

    /// Whether any of the keys in `contactKeys` is down (`keyDown`) or any
    /// slot has a tracking id.
    static func inContact(keyDown: (Int32) -> Bool, trackingIDs: some Sequence<Int32>) -> Bool {
        contactKeys.contains(where: keyDown) || trackingIDs.contains { $0 >= 0 }
    }
}

/// What the engine hears of contacts (`ScrollEngine.touch`): the first
/// contact beginning, the last one ending. Looked at once per round of the
/// loop over every device, so a tap that began and ended between two looks
/// (the loop was busy) is still heard, as a contact that began and ended at
/// once: it pauses nothing, and with `ZeroOnTouch=` it makes the pose
/// neutral, as a longer touch would.
struct TouchLatch: Equatable {
    /// What the engine was last told: a contact exists.
    private(set) var touching = false

    /// The calls to make for a round that ends with `contactNow` and saw
    /// contact in some frame (`contactSeen`, true when `contactNow` is):
    /// `begin` first (`touch(true)`), then `end` (`touch(false)`).
    mutating func update(contactNow: Bool, contactSeen: Bool) -> (begin: Bool, end: Bool) {
        let begin = !touching && (contactNow || contactSeen)
        let end = (touching || begin) && !contactNow
        touching = contactNow
        return (begin, end)
    }
}
