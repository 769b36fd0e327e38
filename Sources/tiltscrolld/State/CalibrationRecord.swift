import ScrollPhysics
import TiltScrollCommon

/// The neutral pose the user calibrated, and the accelerometer it was
/// measured on: a pose means nothing on another sensor, whose axes and
/// mounting differ.
struct CalibrationRecord: Equatable {
    /// The IIO `name` attribute of the sensor (for example `accel_3d`).
    var deviceName: String
    /// The sensor's sysfs path (`/sys/devices/.../iio:deviceN`).
    var devicePath: String
    /// Direction of gravity in the neutral pose, after the mount matrix; a unit vector.
    var neutral: Vector3

    init(deviceName: String, devicePath: String, neutral: Vector3) {
        self.deviceName = deviceName
        self.devicePath = devicePath
        self.neutral = neutral
    }

    /// The pose measured on a discovered device, named as the kernel names
    /// it. A name with control characters cannot be saved (`CalibrationFormat`).
    init(deviceName: DeviceText, devicePath: DeviceText, neutral: Vector3) {
        self.init(deviceName: deviceName.unescaped, devicePath: devicePath.unescaped, neutral: neutral)
    }

    /// Whether this pose was measured on the sensor `name` at `sysfsPath`.
    ///
    /// The `iio:deviceN` index follows probe order and can change between
    /// boots on a machine with two sensors, so the physical device the IIO
    /// device hangs from is compared, not the index.
    func belongs(toDeviceNamed name: String, at sysfsPath: String) -> Bool {
        name == deviceName
            && CalibrationRecord.physicalDevice(of: sysfsPath) == CalibrationRecord.physicalDevice(of: devicePath)
    }

    /// `sysfsPath` without a final `iio:deviceN` component (and trailing slashes).
    static func physicalDevice(of sysfsPath: String) -> Substring {
        var path = Substring(sysfsPath)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return path }
        let last = path[path.index(after: slash)...]
        let prefix = "iio:device"
        guard last.hasPrefix(prefix) else { return path }
        let digits = last.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return path }
        return path[..<slash]
    }
}

/// The calibration file's text format. Line-based and readable, so a user can
/// see what was saved:
///
///     # tiltscroll calibration (tiltscrolld(8), FILES); written by tiltscrolld
///     version=1
///     device-name=accel_3d
///     device-path=/sys/devices/.../iio:device0
///     neutral=0.0 -0.7071067811865476 -0.7071067811865476
///
/// Lines starting with `#` and blank lines are ignored. Every key appears
/// exactly once; an unknown key, a missing one, a different version, a
/// number that is not a finite decimal, or a `neutral` that is not a unit
/// vector make the whole file unusable.
enum CalibrationFormat {
    static let version = 1
    /// How far the length of `neutral` may be from 1 (hand edits, rounding).
    static let unitTolerance = 1e-3

    /// The file's content for `record`; `parse` of it gives `record` back
    /// (doubles are written in Swift's shortest round-trip form).
    static func format(_ record: CalibrationRecord) -> String {
        let n = record.neutral
        return """
            # tiltscroll calibration (tiltscrolld(8), FILES); written by tiltscrolld
            version=\(version)
            device-name=\(record.deviceName)
            device-path=\(record.devicePath)
            neutral=\(n.x) \(n.y) \(n.z)

            """
    }

    /// Why `record` cannot be written so that it reads back the same, or nil.
    static func problem(with record: CalibrationRecord) -> RecordFormatError? {
        if let problem = problemWithName(record.deviceName) { return RecordFormatError(message: problem) }
        if let problem = problemWithPath(record.devicePath) { return RecordFormatError(message: problem) }
        if let problem = problemWithNeutral(record.neutral) { return RecordFormatError(message: problem) }
        return nil
    }

    /// The record in `text`, or the first problem found.
    package static func parse(_ text: String) throws(RecordFormatError) -> CalibrationRecord {
        let values = try KeyValueText.values(in: text, keys: ["version", "device-name", "device-path", "neutral"])
        let version = values["version"]!
        let name = values["device-name"]!
        let path = values["device-path"]!
        let neutral = values["neutral"]!
        guard DecimalNumber.parseInteger(version.text) == Int64(self.version) else {
            throw RecordFormatError(
                line: version.line,
                message: "version '\(version.text)' is not \(self.version) (another tiltscroll wrote it)")
        }
        if let problem = problemWithName(String(name.text)) {
            throw RecordFormatError(line: name.line, message: problem)
        }
        if let problem = problemWithPath(String(path.text)) {
            throw RecordFormatError(line: path.line, message: problem)
        }
        let fields = neutral.text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 3 else {
            throw RecordFormatError(line: neutral.line, message: "neutral needs 3 numbers, got \(fields.count)")
        }
        var components: [Double] = []
        for field in fields {
            guard let value = DecimalNumber.parse(field) else {
                throw RecordFormatError(line: neutral.line, message: "'\(field)' is not a finite decimal number")
            }
            components.append(value)
        }
        let vector = Vector3(components[0], components[1], components[2])
        if let problem = problemWithNeutral(vector) {
            throw RecordFormatError(line: neutral.line, message: problem)
        }
        return CalibrationRecord(deviceName: String(name.text), devicePath: String(path.text), neutral: vector)
    }

    private static func problemWithName(_ name: String) -> String? {
        if name.isEmpty { return "device-name is empty" }
        if hasControlCharacters(name) { return "device-name contains control characters" }
        if KeyValueText.trimmingSpaces(name).count != name.count { return "device-name has surrounding spaces" }
        return nil
    }

    private static func problemWithPath(_ path: String) -> String? {
        if !path.hasPrefix("/sys/") { return "device-path '\(path)' is not under /sys/" }
        if hasControlCharacters(path) || path.contains(" ") {
            return "device-path contains spaces or control characters"
        }
        return nil
    }

    private static func problemWithNeutral(_ v: Vector3) -> String? {
        guard v.x.isFinite, v.y.isFinite, v.z.isFinite else { return "neutral has a component that is not finite" }
        let length = v.length
        guard abs(length - 1) <= unitTolerance else {
            return "neutral is not a unit vector (length \(length))"
        }
        return nil
    }

    private static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
