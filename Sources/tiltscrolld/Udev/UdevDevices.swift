import CIIO

/// What udev reports for one device of subsystem "iio", copied out of libudev.
struct UdevDeviceRecord: Equatable {
    var sysfsPath: String
    var sysName: String
    var deviceNode: String?
    var name: String?
    /// udev property `ACCEL_MOUNT_MATRIX`.
    var mountMatrix: String?
    /// udev property `ACCEL_LOCATION`.
    var location: String?

    init(
        sysfsPath: String, sysName: String, deviceNode: String? = nil, name: String? = nil,
        mountMatrix: String? = nil, location: String? = nil
    ) {
        self.sysfsPath = sysfsPath
        self.sysName = sysName
        self.deviceNode = deviceNode
        self.name = name
        self.mountMatrix = mountMatrix
        self.location = location
    }

    fileprivate init?(_ info: ciio_device_info) {
        guard let syspath = info.syspath else { return nil }
        sysfsPath = String(cString: syspath)
        sysName = info.sysname.map { String(cString: $0) } ?? ""
        deviceNode = info.devnode.map { String(cString: $0) }
        name = info.name.map { SysfsAttribute.trimmed(String(cString: $0)) }
        mountMatrix = info.mount_matrix.map { String(cString: $0) }
        location = info.location.map { String(cString: $0) }
    }
}

/// libudev's view of the IIO subsystem, through CIIO.
enum UdevDevices {
    /// Every device of subsystem "iio" (devices and triggers).
    static func enumerateIIO() throws(CaptureError) -> [UdevDeviceRecord] {
        var records: [UdevDeviceRecord] = []
        let status = withUnsafeMutablePointer(to: &records) { pointer in
            ciio_enumerate_iio(
                { info, context in
                    guard let info, let context,
                        let record = UdevDeviceRecord(info.pointee)
                    else { return }
                    context.assumingMemoryBound(to: [UdevDeviceRecord].self).pointee.append(record)
                }, pointer)
        }
        guard status >= 0 else {
            throw CaptureError(
                kind: .system, message: "could not list IIO devices through udev: \(Errno(rawValue: -status))")
        }
        return records
    }

    /// The device at `sysfsPath`, or a `.notFound` error when there is none.
    static func describe(sysfsPath: String) throws(CaptureError) -> UdevDeviceRecord {
        var record: UdevDeviceRecord? = nil
        let status = withUnsafeMutablePointer(to: &record) { pointer in
            ciio_describe_device(
                sysfsPath,
                { info, context in
                    guard let info, let context else { return }
                    context.assumingMemoryBound(to: UdevDeviceRecord?.self).pointee = UdevDeviceRecord(info.pointee)
                }, pointer)
        }
        guard status >= 0, let record else {
            throw CaptureError(kind: .notFound, message: "no device at \(sysfsPath)")
        }
        return record
    }
}
