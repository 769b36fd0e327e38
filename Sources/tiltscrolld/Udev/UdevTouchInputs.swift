import CIIO
import Glibc

/// What kind of surface a person touches an input device is, as udev's
/// input_id builtin tags it: `ID_INPUT_TOUCHSCREEN=1` (a finger on the
/// display: `INPUT_PROP_DIRECT` with touch axes) or `ID_INPUT_TABLET=1` (a
/// pen, on the display or beside it). A device may be both (a touchscreen
/// with a pen); it is then a touchscreen. Everything else (touchpads, mice,
/// keyboards) is nil: a finger on a touchpad does not hold the display.
enum TouchInputKind: String, Equatable, Sendable, CaseIterable {
    case touchscreen
    case pen

    /// The kind udev's properties give, or nil for other input devices.
    init?(touchscreen: String?, tablet: String?) {
        if touchscreen == "1" {
            self = .touchscreen
        } else if tablet == "1" {
            self = .pen
        } else {
            return nil
        }
    }

    /// The kind of the libudev device `device` (`struct udev_device`).
    init?(udevDevice device: OpaquePointer) {
        self.init(
            touchscreen: udev_device_get_property_value(device, "ID_INPUT_TOUCHSCREEN").map { String(cString: $0) },
            tablet: udev_device_get_property_value(device, "ID_INPUT_TABLET").map { String(cString: $0) })
    }
}

/// One event device udev tags as a touchscreen or a pen.
struct TouchInputRecord: Equatable {
    var sysfsPath: DeviceText
    /// `/dev/input/eventN`.
    var deviceNode: DeviceText
    var kind: TouchInputKind
}

extension UdevDevices {
    /// The event devices (`/dev/input/event*`) udev tags `ID_INPUT_TOUCHSCREEN=1`
    /// or `ID_INPUT_TABLET=1`, in libudev's order (sorted by syspath). The
    /// properties come from udev's database: without udevd running (a
    /// container, an initramfs) there are none, and no touch device is found.
    static func enumerateTouchInputs() throws(CaptureError) -> [TouchInputRecord] {
        func failure(_ code: Errno) -> CaptureError {
            CaptureError(kind: .system, message: "could not list touchscreens and pens through udev: \(code)")
        }
        errno = 0
        guard let udev = udev_new() else { throw failure(Errno.currentOr(.outOfMemory)) }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { throw failure(Errno.currentOr(.outOfMemory)) }
        defer { udev_enumerate_unref(enumerate) }
        // Property matches are alternatives (any one suffices); the
        // subsystem match applies to all of them.
        var status = udev_enumerate_add_match_subsystem(enumerate, "input")
        if status >= 0 { status = udev_enumerate_add_match_property(enumerate, "ID_INPUT_TOUCHSCREEN", "1") }
        if status >= 0 { status = udev_enumerate_add_match_property(enumerate, "ID_INPUT_TABLET", "1") }
        if status >= 0 { status = udev_enumerate_scan_devices(enumerate) }
        guard status >= 0 else { throw failure(Errno(rawValue: -status)) }

        var records: [TouchInputRecord] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            // Unplugged since the scan: not there, not an error.
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            // The properties sit on both the inputN device and its eventN
            // child; only the event node is read.
            guard let node = udev_device_get_devnode(device).map({ DeviceText(cString: $0) }),
                TouchInputRecord.isEventNode(node), let kind = TouchInputKind(udevDevice: device)
            else { continue }
            records.append(TouchInputRecord(sysfsPath: DeviceText(cString: syspath), deviceNode: node, kind: kind))
        }
        return records
    }
}

extension TouchInputRecord {
    /// Whether `node` is an evdev node, `/dev/input/eventN` (not the legacy
    /// `mouseN` or `jsN` of the same device).
    static func isEventNode(_ node: DeviceText) -> Bool {
        let prefix = Array("/dev/input/event".utf8)
        guard node.bytes.starts(with: prefix) else { return false }
        let number = node.bytes.dropFirst(prefix.count)
        return !number.isEmpty && number.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
