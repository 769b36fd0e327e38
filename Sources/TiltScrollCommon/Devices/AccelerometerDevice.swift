import ScrollPhysics

/// The two ways samples can be captured from an IIO accelerometer.
public enum CaptureMode: String, Equatable, CaseIterable, Sendable {
    /// Re-read the `in_accel_{x,y,z}_raw` attributes on a timer.
    case poll
    /// Read whole scans from `/dev/iio:deviceN` as the device produces them.
    case buffer
}

/// The capture modes a device supports.
public struct CaptureModes: OptionSet, Equatable, CustomStringConvertible, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let poll = CaptureModes(rawValue: 1)
    public static let buffer = CaptureModes(rawValue: 2)

    public func contains(_ mode: CaptureMode) -> Bool {
        contains(mode == .poll ? CaptureModes.poll : CaptureModes.buffer)
    }

    public var description: String {
        var names: [String] = []
        if contains(.poll) { names.append("poll") }
        if contains(.buffer) { names.append("buffer") }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

/// One accelerometer found by discovery. Its strings are the kernel's and
/// udev's, kept as they came and escaped when shown (`DeviceText`).
///
/// A value with its fields in one shared box, copied on write: the daemon
/// passes the device around every round (its lifecycle's states carry it,
/// the snapshot names it), and a copy of a dozen strings and enums inline
/// cost about a thousand instructions each time; a copy of the box is one
/// reference count.
public struct AccelerometerDevice: Equatable {
    /// What discovery found; the box below holds one.
    private struct Fields: Equatable {
        /// The name and the syspath, in the form views take them.
        var identity: SensorIdentity
        var sysName: DeviceText
        var deviceNode: DeviceText?
        var location: SensorLocation
        var locationSource: SensorLocationSource
        var mountMatrix: MountMatrix
        var mountMatrixSource: MountMatrixSource
        var calibration: AccelCalibration
        var captureModes: CaptureModes
        var trigger: BufferTrigger?
        var problem: CaptureError?
    }

    private final class Box {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    public init(
        name: DeviceText, sysfsPath: DeviceText, sysName: DeviceText, deviceNode: DeviceText?,
        location: SensorLocation, locationSource: SensorLocationSource, mountMatrix: MountMatrix,
        mountMatrixSource: MountMatrixSource, calibration: AccelCalibration, captureModes: CaptureModes,
        trigger: BufferTrigger?, problem: CaptureError?
    ) {
        box = Box(
            Fields(
                identity: SensorIdentity(name: name, path: sysfsPath), sysName: sysName, deviceNode: deviceNode,
                location: location, locationSource: locationSource, mountMatrix: mountMatrix,
                mountMatrixSource: mountMatrixSource, calibration: calibration, captureModes: captureModes,
                trigger: trigger, problem: problem))
    }

    public static func == (a: AccelerometerDevice, b: AccelerometerDevice) -> Bool {
        a.box === b.box || a.box.fields == b.box.fields
    }

    /// The fields to change, the box first copied when another value shares it.
    private var writable: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            return box
        }
    }

    /// The name and the syspath as the daemon's views show them.
    public var identity: SensorIdentity { box.fields.identity }
    /// The IIO `name` attribute, e.g. `accel_3d`, `kxcj91008`, `lis3dh`.
    public var name: DeviceText {
        get { box.fields.identity.name }
        set { writable.fields.identity = SensorIdentity(name: newValue, path: sysfsPath) }
    }
    /// The udev syspath, e.g. `/sys/devices/.../iio:device0`.
    public var sysfsPath: DeviceText {
        get { box.fields.identity.path }
        set { writable.fields.identity = SensorIdentity(name: name, path: newValue) }
    }
    /// The kernel's name for it, e.g. `iio:device0`.
    public var sysName: DeviceText {
        get { box.fields.sysName }
        set { writable.fields.sysName = newValue }
    }
    /// `/dev/iio:deviceN` when it exists.
    public var deviceNode: DeviceText? {
        get { box.fields.deviceNode }
        set { writable.fields.deviceNode = newValue }
    }
    public var location: SensorLocation {
        get { box.fields.location }
        set { writable.fields.location = newValue }
    }
    public var locationSource: SensorLocationSource {
        get { box.fields.locationSource }
        set { writable.fields.locationSource = newValue }
    }
    /// The matrix that turns sensor axes into display axes, already resolved.
    public var mountMatrix: MountMatrix {
        get { box.fields.mountMatrix }
        set { writable.fields.mountMatrix = newValue }
    }
    public var mountMatrixSource: MountMatrixSource {
        get { box.fields.mountMatrixSource }
        set { writable.fields.mountMatrixSource = newValue }
    }
    /// Per-axis scale and offset as discovered (re-read when a capture opens).
    public var calibration: AccelCalibration {
        get { box.fields.calibration }
        set { writable.fields.calibration = newValue }
    }
    public var captureModes: CaptureModes {
        get { box.fields.captureModes }
        set { writable.fields.captureModes = newValue }
    }
    /// The trigger buffered capture would use; nil when the device has no buffer.
    public var trigger: BufferTrigger? {
        get { box.fields.trigger }
        set { writable.fields.trigger = newValue }
    }
    /// Why the device cannot be used as it is (a malformed mount matrix,
    /// scale or offset); it is still listed so the user can see and fix it.
    public var problem: CaptureError? {
        get { box.fields.problem }
        set { writable.fields.problem = newValue }
    }

    public var directory: DeviceDirectory { DeviceDirectory(path: sysfsPath.unescaped) }

    /// Whether it is a HID sensor hub's accelerometer (Intel ISH, AMD SFH:
    /// hid-sensor-accel-3d under a `HID-SENSOR-200073.N.auto` device). Its
    /// raw reads are report round trips with the hub, which answers at once
    /// whatever its report interval; while the kernel holds it powered
    /// (between polls too) it streams reports at that interval.
    public var isHIDSensorHub: Bool { sysfsPath.unescaped.contains("/HID-SENSOR-") }
}
