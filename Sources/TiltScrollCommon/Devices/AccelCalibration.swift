import ScrollPhysics

/// How the raw counts of one axis become m/s^2: (raw + offset) * scale, as
/// the IIO ABI defines `*_raw`, `*_offset` and `*_scale`.
public struct AxisCalibration: Equatable {
    public var scale: Double = 1
    /// The attribute the scale was read from; nil when the device has none and 1 is used.
    public var scaleAttribute: String? = nil
    public var offset: Double = 0
    /// The attribute the offset was read from; nil when the device has none and 0 is used.
    public var offsetAttribute: String? = nil

    public func value(raw: Int64) -> Double { (Double(raw) + offset) * scale }
}

/// Scale and offset of the three axes.
public struct AccelCalibration: Equatable {
    public var x = AxisCalibration()
    public var y = AxisCalibration()
    public var z = AxisCalibration()

    /// The smallest step the sensor can show, m/s^2 per count: the finest of
    /// the three axes' scales (the physics judges stillness on the sensor's
    /// noise, which no part shows finer than this). 0, unknown, when an axis
    /// has no scale attribute: its values are then taken as m/s^2 already
    /// and say nothing of the part's counts.
    public var resolution: Double {
        let axes = [x, y, z]
        guard axes.allSatisfy({ $0.scaleAttribute != nil }) else { return 0 }
        return axes.map { abs($0.scale) }.min() ?? 0
    }

    /// The acceleration in the sensor's frame, m/s^2; the mount matrix is not applied.
    public func acceleration(x rawX: Int64, y rawY: Int64, z rawZ: Int64) -> Vector3 {
        Vector3(x.value(raw: rawX), y.value(raw: rawY), z.value(raw: rawZ))
    }

    /// Attributes that may hold an axis' scale, most specific first: the
    /// per-axis one (st_accel has only these), the one shared by all
    /// accelerometer axes, then the device-wide one.
    public static func scaleAttributes(axis: Character) -> [String] {
        ["in_accel_\(axis)_scale", "in_accel_scale", "scale"]
    }

    /// Attributes that may hold an axis' offset, in the same order.
    public static func offsetAttributes(axis: Character) -> [String] {
        ["in_accel_\(axis)_offset", "in_accel_offset", "offset"]
    }

    /// Reads scale and offset of every axis from the device. Only attributes
    /// that exist are read; one that exists but does not hold a number is an
    /// error naming it (a wrong scale would scroll at a wrong speed).
    public static func read(from device: DeviceDirectory) throws(CaptureError) -> AccelCalibration {
        var calibration = AccelCalibration()
        for axis: Character in ["x", "y", "z"] {
            var axisCalibration = AxisCalibration()
            if let found = try number(device, scaleAttributes(axis: axis)) {
                guard found.value != 0 else {
                    throw CaptureError(
                        kind: .invalidValue,
                        message: "\(device.attributePath(found.name)) is 0: the driver reports no usable scale")
                }
                axisCalibration.scale = found.value
                axisCalibration.scaleAttribute = found.name
            }
            if let found = try number(device, offsetAttributes(axis: axis)) {
                axisCalibration.offset = found.value
                axisCalibration.offsetAttribute = found.name
            }
            switch axis {
            case "x": calibration.x = axisCalibration
            case "y": calibration.y = axisCalibration
            default: calibration.z = axisCalibration
            }
        }
        return calibration
    }

    private static func number(_ device: DeviceDirectory, _ names: [String]) throws(CaptureError) -> (
        name: String, value: Double
    )? {
        guard let found = try device.firstPresent(names) else { return nil }
        guard let value = DecimalNumber.parse(found.text.unescaped) else {
            throw CaptureError(
                kind: .invalidValue,
                message: "\(device.attributePath(found.name)) holds '\(found.text)', which is not a number")
        }
        return (name: found.name, value: value)
    }
}
