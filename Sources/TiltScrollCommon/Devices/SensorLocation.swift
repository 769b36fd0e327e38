/// Where an accelerometer sits on a convertible: in the lid with the display,
/// or in the keyboard base. Tilt scrolling follows the display.
public enum SensorLocation: String, Equatable {
    case display
    case base
}

/// Where a device's `SensorLocation` came from, in precedence order.
public enum SensorLocationSource: Equatable, CustomStringConvertible {
    /// udev property `ACCEL_LOCATION` (systemd's hwdb or a local rule).
    case udevProperty
    /// sysfs `label` (`accel-display`, `accel-base`), from firmware.
    case sysfsLabel
    /// sysfs `location` (`lid`, `base`), from ChromeOS EC sensors.
    case sysfsLocation
    /// Nothing said otherwise: a single sensor is almost always the display's.
    case assumed

    public var description: String {
        switch self {
        case .udevProperty: return "udev ACCEL_LOCATION"
        case .sysfsLabel: return "sysfs label"
        case .sysfsLocation: return "sysfs location"
        case .assumed: return "default"
        }
    }
}

extension SensorLocation {
    /// The location from the first source that names one. A value a source
    /// does not define (a label such as "proximity-palmrest") says nothing
    /// about the location and passes the question on to the next source.
    /// Later sources are only evaluated (their attributes only read) when
    /// the earlier ones said nothing.
    public static func resolve(
        udevProperty: DeviceText?, label: @autoclosure () -> DeviceText?,
        location: @autoclosure () -> DeviceText?
    ) -> (SensorLocation, SensorLocationSource) {
        if let value = udevProperty.map(normalized) {
            if value == "display" { return (.display, .udevProperty) }
            if value == "base" { return (.base, .udevProperty) }
        }
        if let value = label().map(normalized) {
            if value == "accel-display" { return (.display, .sysfsLabel) }
            if value == "accel-base" { return (.base, .sysfsLabel) }
        }
        if let value = location().map(normalized) {
            if value == "lid" || value == "display" { return (.display, .sysfsLocation) }
            if value == "base" { return (.base, .sysfsLocation) }
        }
        return (.display, .assumed)
    }

    private static func normalized(_ text: DeviceText) -> String {
        text.trimmed.unescaped.lowercased()
    }
}
