import TiltScrollCommon

/// The `list-devices` report: one block per accelerometer with its name,
/// sysfs path, location, scale, mount matrix and capture modes, each with
/// where it came from. The device tiltscrolld would use without
/// `[Device] Name=` is marked with `*`; with more than one, each says its
/// role: the one that scrolls, the base's that tells the hinge angle with
/// it (`DeviceDiscovery.hingeBaseIndex`), or none. The device's strings are
/// shown escaped, as `DeviceText` interpolates.
func renderDeviceTable(_ devices: [AccelerometerDevice]) -> String {
    guard !devices.isEmpty else { return "No accelerometer found.\n" }
    let preferred = DeviceDiscovery.preferredIndex(among: devices)
    let base = preferred.flatMap { DeviceDiscovery.hingeBaseIndex(among: devices, display: devices[$0]) }
    // Without the other's name: a name may be as long as a line allows.
    func role(_ index: Int) -> String {
        if index == preferred { return base == nil ? "scrolls" : "scrolls; the hinge angle with the base's" }
        if index == base { return "the hinge angle with the display's (tablet mode where no switch tells it)" }
        return "none unless [Device] Name= picks it"
    }
    var lines: [String] = []
    for (index, device) in devices.enumerated() {
        if index > 0 { lines.append("") }
        let marker = index == preferred ? "*" : " "
        lines.append("\(marker) \(device.name)  \(device.sysName)")
        func row(_ label: String, _ value: some CustomStringConvertible) {
            let padding = String(repeating: " ", count: max(1, 15 - label.count))
            lines.append("    \(label):\(padding)\(value)")
        }
        row("sysfs path", device.sysfsPath)
        row("device node", device.deviceNode ?? "none")
        row("location", "\(device.location.rawValue) (\(device.locationSource))")
        if devices.count > 1 { row("role", role(index)) }
        row("scale", describeScale(device.calibration))
        row("offset", describeOffset(device.calibration))
        row("mount matrix", "\(device.mountMatrix) (\(device.mountMatrixSource))")
        row("capture modes", device.captureModes.description)
        if let trigger = device.trigger {
            row("trigger", trigger.description)
        }
        if let problem = device.problem {
            row("unusable", problem.message)
        }
    }
    if devices.count > 1 {
        lines.append("")
        lines.append("* used unless [Device] Name= picks another")
    }
    return lines.joined(separator: "\n") + "\n"
}

private func describeScale(_ calibration: AccelCalibration) -> String {
    describeAxes(calibration, value: { $0.scale }, attribute: { $0.scaleAttribute }, missing: "none, 1 used")
}

private func describeOffset(_ calibration: AccelCalibration) -> String {
    describeAxes(calibration, value: { $0.offset }, attribute: { $0.offsetAttribute }, missing: "none, 0 used")
}

/// One value with its attribute when the three axes agree, else one per axis.
private func describeAxes(
    _ calibration: AccelCalibration, value: (AxisCalibration) -> Double, attribute: (AxisCalibration) -> String?,
    missing: String
) -> String {
    func one(_ axis: AxisCalibration) -> String {
        guard let name = attribute(axis) else { return "\(formatNumber(value(axis))) (\(missing))" }
        return "\(formatNumber(value(axis))) (\(name))"
    }
    let axes = [calibration.x, calibration.y, calibration.z]
    if axes.allSatisfy({ value($0) == value(axes[0]) && attribute($0) == attribute(axes[0]) }) {
        return one(axes[0])
    }
    return "x \(one(calibration.x)), y \(one(calibration.y)), z \(one(calibration.z))"
}

/// Whole numbers without a fraction, others as Swift prints them (shortest
/// text that reads back to the same value: 0.0980665, 0.000598).
private func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
