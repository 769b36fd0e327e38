import ScrollPhysics

/// The two ways samples can be captured from an IIO accelerometer.
package enum CaptureMode: String, Equatable, CaseIterable {
    /// Re-read the `in_accel_{x,y,z}_raw` attributes on a timer.
    case poll
    /// Read whole scans from `/dev/iio:deviceN` as the device produces them.
    case buffer
}

/// The capture modes a device supports.
package struct CaptureModes: OptionSet, Equatable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let poll = CaptureModes(rawValue: 1)
    package static let buffer = CaptureModes(rawValue: 2)

    package func contains(_ mode: CaptureMode) -> Bool {
        contains(mode == .poll ? CaptureModes.poll : CaptureModes.buffer)
    }

    package var description: String {
        var names: [String] = []
        if contains(.poll) { names.append("poll") }
        if contains(.buffer) { names.append("buffer") }
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

/// One accelerometer found by discovery. Its strings are the kernel's and
/// udev's, kept as they came and escaped when shown (`DeviceText`).
package struct AccelerometerDevice: Equatable {
    /// The IIO `name` attribute, e.g. `accel_3d`, `kxcj91008`, `lis3dh`.
    package var name: DeviceText
    /// The udev syspath, e.g. `/sys/devices/.../iio:device0`.
    package var sysfsPath: DeviceText
    /// The kernel's name for it, e.g. `iio:device0`.
    package var sysName: DeviceText
    /// `/dev/iio:deviceN` when it exists.
    package var deviceNode: DeviceText?
    package var location: SensorLocation
    package var locationSource: SensorLocationSource
    /// The matrix that turns sensor axes into display axes, already resolved.
    package var mountMatrix: MountMatrix
    package var mountMatrixSource: MountMatrixSource
    /// Per-axis scale and offset as discovered (re-read when a capture opens).
    package var calibration: AccelCalibration
    package var captureModes: CaptureModes
    /// The trigger buffered capture would use; nil when the device has no buffer.
    package var trigger: BufferTrigger?
    /// Why the device cannot be used as it is (a malformed mount matrix,
    /// scale or offset); it is still listed so the user can see and fix it.
    package var problem: CaptureError?

    package var directory: DeviceDirectory { DeviceDirectory(path: sysfsPath.unescaped) }

    /// Whether it is a HID sensor hub's accelerometer (Intel ISH, AMD SFH:
    /// hid-sensor-accel-3d under a `HID-SENSOR-200073.N.auto` device). Its
    /// raw reads are report round trips with the hub, which answers at once
    /// whatever its report interval; while the kernel holds it powered
    /// (between polls too) it streams reports at that interval.
    package var isHIDSensorHub: Bool { sysfsPath.unescaped.contains("/HID-SENSOR-") }
}
