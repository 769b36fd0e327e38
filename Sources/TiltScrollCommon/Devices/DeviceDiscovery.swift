import ScrollPhysics

/// Finding IIO accelerometers through libudev and describing each one:
/// location, mount matrix, scale and offset, and how it can be captured.
/// Only attributes that exist are read, and only those needed: reading some
/// attributes blocks (lis3dh raw values at 1 Hz) or fails by design (HID
/// `in_accel_hysteresis`).
public enum DeviceDiscovery {
    /// Every IIO accelerometer: a device with `in_accel_{x,y,z}_raw` or
    /// `scan_elements/in_accel_{x,y,z}_en`. Devices are in udev's order.
    public static func enumerate(matrixOverride: MountMatrix?) throws(CaptureError) -> [AccelerometerDevice] {
        try UdevDevices.enumerateIIO().compactMap { inspect($0, matrixOverride: matrixOverride) }
    }

    /// Re-reads one device, e.g. after a udev `change` event (a new hwdb
    /// matrix or location). Fails when the path is not an accelerometer or
    /// its matrix, scale or offset is malformed: keep the previous description.
    public static func describe(sysfsPath: DeviceText, matrixOverride: MountMatrix?) throws(CaptureError)
        -> AccelerometerDevice
    {
        let record = try UdevDevices.describe(sysfsPath: sysfsPath)
        guard let device = inspect(record, matrixOverride: matrixOverride) else {
            throw CaptureError(kind: .notFound, message: "\(sysfsPath) is not an IIO accelerometer")
        }
        if let problem = device.problem { throw problem }
        return device
    }

    /// The device to capture from. `name` (`[Device] Name=`) picks by IIO
    /// name, kernel name (`iio:device0`) or sysfs path (the
    /// /sys/bus/iio/devices link or the real path), each as it is or as
    /// `--list-devices` shows it; without it the display sensor is
    /// preferred over one in the keyboard base.
    public static func choose(from devices: [AccelerometerDevice], name: String?) throws(CaptureError)
        -> AccelerometerDevice
    {
        guard !devices.isEmpty else {
            throw CaptureError(
                kind: .notFound,
                message:
                    "no accelerometer found: no IIO device has in_accel_{x,y,z}_raw or "
                    + "scan_elements/in_accel_{x,y,z}_en (is the sensor's driver loaded?)")
        }
        var candidates = devices
        if let name {
            let resolved = name.hasPrefix("/") ? try? FileSystem.realPath(name) : nil
            candidates = devices.filter { device in
                device.name.matches(name) || device.sysName.matches(name) || device.sysfsPath.matches(name)
                    || (resolved.map(device.sysfsPath.matches) ?? false)
            }
            guard !candidates.isEmpty else {
                let found = devices.map { "\($0.name) (\($0.sysfsPath))" }.joined(separator: ", ")
                throw CaptureError(
                    kind: .notFound,
                    message:
                        "no accelerometer matches [Device] Name=\(name); found: \(found). Use one of these "
                        + "names or paths, or remove Name= to use the display sensor")
            }
        }
        let chosen = candidates[preferredIndex(among: candidates) ?? 0]
        if let problem = chosen.problem { throw problem }
        return chosen
    }

    /// Which of `devices` is used when `[Device] Name=` names none: the
    /// display sensor, since tilt scrolling follows the screen, else the
    /// first. nil when there are no devices.
    public static func preferredIndex(among devices: [AccelerometerDevice]) -> Int? {
        guard !devices.isEmpty else { return nil }
        return devices.firstIndex { $0.location == .display } ?? 0
    }

    /// Which of `devices` tells the hinge angle with `display` (the sensor
    /// that scrolls): the first in the keyboard base (`ACCEL_LOCATION=base`,
    /// a sysfs label `accel-base`) that is usable and has raw attributes (it
    /// is read one sample at a time, on the display's wake-ups, which a
    /// buffer cannot give without waking at its own rate). nil when
    /// `display` is not the display's, or no base sensor fits: then tablet
    /// mode cannot come from the hinge.
    public static func hingeBaseIndex(among devices: [AccelerometerDevice], display: AccelerometerDevice) -> Int? {
        guard display.location == .display else { return nil }
        return devices.firstIndex {
            $0.location == .base && $0.sysfsPath != display.sysfsPath && $0.problem == nil
                && $0.captureModes.contains(.poll)
        }
    }

    /// Describes the device udev reported, or nil when it is not an
    /// accelerometer (another IIO device, a trigger).
    public static func inspect(_ record: UdevDeviceRecord, matrixOverride: MountMatrix?) -> AccelerometerDevice? {
        let directory = DeviceDirectory(path: record.sysfsPath.unescaped)
        let axes = ["x", "y", "z"]
        let hasRaw = axes.allSatisfy { directory.has("in_accel_\($0)_raw") }
        let hasScanElements = axes.allSatisfy { directory.has("scan_elements/in_accel_\($0)_en") }
        guard hasRaw || hasScanElements else { return nil }

        var problem: CaptureError? = nil
        let name = record.name ?? (try? directory.read("name")) ?? record.sysName

        let deviceNode = existingDeviceNode(record)

        let (location, locationSource) = SensorLocation.resolve(
            udevProperty: record.location, label: (try? directory.readIfPresent("label")) ?? nil,
            location: (try? directory.readIfPresent("location")) ?? nil)

        // The kernel's matrix is only read when nothing above it decides.
        var sysfsMatrices: [(attribute: String, text: DeviceText)] = []
        if matrixOverride == nil && record.mountMatrix == nil,
            let attribute = MountMatrixSource.sysfsAttributes.first(where: directory.has)
        {
            do {
                sysfsMatrices.append((attribute: attribute, text: try directory.read(attribute)))
            } catch {
                problem = problem ?? error
            }
        }
        var matrix = ResolvedMountMatrix(matrix: .identity, source: .identity)
        do {
            matrix = try ResolvedMountMatrix.resolve(
                override: matrixOverride, udevProperty: record.mountMatrix, sysfs: sysfsMatrices,
                devicePath: record.sysfsPath)
        } catch {
            problem = problem ?? error
        }

        var calibration = AccelCalibration()
        do {
            calibration = try AccelCalibration.read(from: directory)
        } catch {
            problem = problem ?? error
        }

        let trigger: BufferTrigger? =
            hasScanElements ? BufferTrigger.find(for: directory, deviceName: name, sysName: record.sysName) : nil
        var modes: CaptureModes = []
        if hasRaw { modes.insert(.poll) }
        if hasScanElements && deviceNode != nil && trigger?.isUsable == true { modes.insert(.buffer) }

        return AccelerometerDevice(
            name: name, sysfsPath: record.sysfsPath, sysName: record.sysName, deviceNode: deviceNode,
            location: location, locationSource: locationSource, mountMatrix: matrix.matrix,
            mountMatrixSource: matrix.source, calibration: calibration, captureModes: modes, trigger: trigger,
            problem: problem)
    }

    /// The device node udev named, else `/dev/<kernel name>` (no udevd in
    /// an initramfs), when it exists.
    private static func existingDeviceNode(_ record: UdevDeviceRecord) -> DeviceText? {
        if let node = record.deviceNode, FileSystem.exists(node) { return node }
        let fallback = DeviceText("/dev/").appending(record.sysName.unescaped)
        return FileSystem.exists(fallback) ? fallback : nil
    }
}
