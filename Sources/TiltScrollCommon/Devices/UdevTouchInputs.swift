import CUdev
import Glibc

/// What kind of surface a person touches an input device is, as udev's
/// input_id builtin tags it: `ID_INPUT_TOUCHSCREEN=1` (a finger on the
/// display: `INPUT_PROP_DIRECT` with touch axes) or `ID_INPUT_TABLET=1` (a
/// pen, on the display or beside it). A device may be both (a touchscreen
/// with a pen); it is then a touchscreen. Everything else (touchpads, mice,
/// keyboards) is nil: a finger on a touchpad does not hold the display.
public enum TouchInputKind: String, Equatable, Sendable, CaseIterable {
    case touchscreen
    case pen

    /// The kind udev's properties give, or nil for other input devices.
    public init?(touchscreen: String?, tablet: String?) {
        if touchscreen == "1" {
            self = .touchscreen
        } else if tablet == "1" {
            self = .pen
        } else {
            return nil
        }
    }

    /// The kind of the libudev device `device` (`struct udev_device`).
    public init?(udevDevice device: OpaquePointer) {
        self.init(
            touchscreen: udev_device_get_property_value(device, "ID_INPUT_TOUCHSCREEN").map { String(cString: $0) },
            tablet: udev_device_get_property_value(device, "ID_INPUT_TABLET").map { String(cString: $0) })
    }
}

/// One event device udev tags as a touchscreen or a pen.
public struct TouchInputRecord: Equatable {
    public var sysfsPath: DeviceText
    /// `/dev/input/eventN`.
    public var deviceNode: DeviceText
    public var kind: TouchInputKind

    public init(sysfsPath: DeviceText, deviceNode: DeviceText, kind: TouchInputKind) {
        self.sysfsPath = sysfsPath
        self.deviceNode = deviceNode
        self.kind = kind
    }
}

extension UdevDevices {
    /// The event devices (`/dev/input/event*`) udev tags `ID_INPUT_TOUCHSCREEN=1`
    /// or `ID_INPUT_TABLET=1`, in libudev's order (sorted by syspath). The
    /// properties come from udev's database: without udevd running (a
    /// container, an initramfs) there are none, and no touch device is found.
    public static func enumerateTouchInputs() throws(CaptureError) -> [TouchInputRecord] {
        try enumerate(
            subsystem: "input", properties: [("ID_INPUT_TOUCHSCREEN", "1"), ("ID_INPUT_TABLET", "1")],
            listing: "touchscreens and pens", record: TouchInputRecord.init(udevDevice:))
    }
}

extension TouchInputRecord {
    /// The record of the libudev device `device` when it is a touchscreen's
    /// or a pen's event node. The properties sit on both the inputN device
    /// and its eventN child; only the event node is read.
    public init?(udevDevice device: OpaquePointer) {
        guard let syspath = udev_device_get_syspath(device),
            let node = udev_device_get_devnode(device).map({ DeviceText(cString: $0) }),
            TouchInputRecord.isEventNode(node), let kind = TouchInputKind(udevDevice: device)
        else { return nil }
        self.init(sysfsPath: DeviceText(cString: syspath), deviceNode: node, kind: kind)
    }
}

extension TouchInputRecord {
    /// Whether `node` is an evdev node, `/dev/input/eventN` (not the legacy
    /// `mouseN` or `jsN` of the same device).
    public static func isEventNode(_ node: DeviceText) -> Bool {
        let prefix = Array("/dev/input/event".utf8)
        guard node.bytes.starts(with: prefix) else { return false }
        let number = node.bytes.dropFirst(prefix.count)
        return !number.isEmpty && number.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
