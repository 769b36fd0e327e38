import CUdev
import Glibc

/// What udev reports for one device of subsystem "iio", copied out of
/// libudev byte for byte (escaped when shown).
public struct UdevDeviceRecord: Equatable {
    public var sysfsPath: DeviceText
    public var sysName: DeviceText
    public var deviceNode: DeviceText?
    public var name: DeviceText?
    /// udev property `ACCEL_MOUNT_MATRIX`.
    public var mountMatrix: DeviceText?
    /// udev property `ACCEL_LOCATION`.
    public var location: DeviceText?

    public init(
        sysfsPath: DeviceText, sysName: DeviceText, deviceNode: DeviceText? = nil, name: DeviceText? = nil,
        mountMatrix: DeviceText? = nil, location: DeviceText? = nil
    ) {
        self.sysfsPath = sysfsPath
        self.sysName = sysName
        self.deviceNode = deviceNode
        self.name = name
        self.mountMatrix = mountMatrix
        self.location = location
    }

    /// The record of a libudev device (`struct udev_device`); nil without a syspath.
    fileprivate init?(_ device: OpaquePointer) {
        guard let syspath = udev_device_get_syspath(device) else { return nil }
        sysfsPath = DeviceText(cString: syspath)
        sysName = udev_device_get_sysname(device).map { DeviceText(cString: $0) } ?? ""
        deviceNode = udev_device_get_devnode(device).map { DeviceText(cString: $0) }
        name = udev_device_get_sysattr_value(device, "name").map { DeviceText(cString: $0).trimmed }
        mountMatrix = udev_device_get_property_value(device, "ACCEL_MOUNT_MATRIX").map { DeviceText(cString: $0) }
        location = udev_device_get_property_value(device, "ACCEL_LOCATION").map { DeviceText(cString: $0) }
    }
}

/// libudev's view of the IIO subsystem. libudev reports failures through
/// `errno` or a negative return; a call that fails without one is said to
/// have run out of memory, the only other cause it has.
public enum UdevDevices {
    /// Every device of subsystem "iio" (devices and triggers), in libudev's
    /// order (sorted by syspath).
    public static func enumerateIIO() throws(CaptureError) -> [UdevDeviceRecord] {
        try enumerate(subsystem: "iio", listing: "IIO devices", record: UdevDeviceRecord.init)
    }

    /// The devices of `subsystem` that match every property match of
    /// `properties` (any one of them: libudev takes property matches as
    /// alternatives), each made into a record (nil: not one of them), in
    /// libudev's order (sorted by syspath). `listing` names them in the
    /// error. The one place the daemon walks a udev enumeration.
    public static func enumerate<Record>(
        subsystem: String, properties: [(name: String, value: String)] = [], listing: String,
        record: (OpaquePointer) -> Record?
    ) throws(CaptureError) -> [Record] {
        func failure(_ code: Errno) -> CaptureError {
            CaptureError(kind: .system, message: "could not list \(listing) through udev: \(code)")
        }
        errno = 0
        guard let udev = udev_new() else { throw failure(Errno.currentOr(.outOfMemory)) }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { throw failure(Errno.currentOr(.outOfMemory)) }
        defer { udev_enumerate_unref(enumerate) }
        var status = udev_enumerate_add_match_subsystem(enumerate, subsystem)
        for property in properties where status >= 0 {
            status = udev_enumerate_add_match_property(enumerate, property.name, property.value)
        }
        if status >= 0 { status = udev_enumerate_scan_devices(enumerate) }
        guard status >= 0 else { throw failure(Errno(rawValue: -status)) }

        var records: [Record] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            // A device can vanish between the scan and this lookup (hotplug):
            // skipping it is the truth, not an error.
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            if let made = record(device) { records.append(made) }
        }
        return records
    }

    /// The device at `sysfsPath` (any path that resolves to a device in
    /// /sys, e.g. the /sys/bus/iio/devices/iio:deviceN link), or a
    /// `.notFound` error when there is none.
    public static func describe(sysfsPath: DeviceText) throws(CaptureError) -> UdevDeviceRecord {
        let notFound = CaptureError(kind: .notFound, message: "no device at \(sysfsPath)")
        guard let udev = udev_new() else { throw notFound }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_syspath(udev, sysfsPath.unescaped) else { throw notFound }
        defer { udev_device_unref(device) }
        guard let record = UdevDeviceRecord(device) else { throw notFound }
        return record
    }
}
