/// Which trigger drives a device's buffer, as buffered capture would use it.
/// Trigger names are the kernel's (`DeviceText`).
public enum BufferTrigger: Equatable, CustomStringConvertible {
    /// The device has no `trigger/` directory: its buffer is filled by the
    /// hardware or driver itself (a hardware FIFO), no trigger is needed.
    case notNeeded
    /// `trigger/current_trigger` already names this trigger.
    case current(DeviceText)
    /// Nothing is set; the device's own trigger `<name>-dev<N>` exists and
    /// will be set for the capture (and cleared again afterwards).
    case own(DeviceText)
    /// A trigger is needed and none is usable: buffered capture is not possible.
    case unavailable

    public var isUsable: Bool { self != .unavailable }

    /// The trigger name to write, if one must be set.
    public var nameToSet: DeviceText? {
        if case .own(let name) = self { return name }
        return nil
    }

    public var description: String {
        switch self {
        case .notNeeded: return "none needed"
        case .current(let name): return "\(name) (current)"
        case .own(let name): return "\(name) (set while capturing)"
        case .unavailable: return "none usable"
        }
    }

    /// Where the kernel lists IIO devices and triggers.
    public static let iioDevicesDirectory = "/sys/bus/iio/devices"

    /// The name of a device's own trigger, as drivers register it
    /// (`%s-dev%d` with the IIO name and device number), e.g. `accel_3d-dev0`.
    public static func ownTriggerName(deviceName: DeviceText, sysName: DeviceText) -> DeviceText? {
        let prefix = "iio:device"
        let sysName = sysName.unescaped
        guard sysName.hasPrefix(prefix), let number = Int(sysName.dropFirst(prefix.count)) else { return nil }
        return deviceName.appending("-dev\(number)")
    }

    /// Decides from the text of `current_trigger` (nil when the device has
    /// no trigger directory) and the names of the triggers that exist.
    /// Another device's trigger left in `current_trigger` is kept: whoever
    /// set it chose it, and some drivers (bmc150) refuse foreign triggers
    /// only at enable time, which then falls back to polling.
    /// The triggers are only listed when one has to be chosen.
    public static func decide(
        currentTrigger: DeviceText?, ownName: DeviceText?, existingTriggers: @autoclosure () -> [DeviceText]
    ) -> BufferTrigger {
        guard let currentTrigger else { return .notNeeded }
        let current = currentTrigger.trimmed
        if !current.isEmpty { return .current(current) }
        if let ownName, existingTriggers().contains(ownName) { return .own(ownName) }
        return .unavailable
    }

    /// Looks at the device and the triggers in /sys/bus/iio/devices.
    public static func find(for device: DeviceDirectory, deviceName: DeviceText, sysName: DeviceText) -> BufferTrigger {
        guard FileSystem.isDirectory(device.attributePath("trigger")) else { return .notNeeded }
        guard let current = try? device.read("trigger/current_trigger") else { return .unavailable }
        return decide(
            currentTrigger: current, ownName: ownTriggerName(deviceName: deviceName, sysName: sysName),
            existingTriggers: existingTriggerNames())
    }

    /// The `name` of every trigger the kernel has registered.
    public static func existingTriggerNames() -> [DeviceText] {
        guard let entries = try? FileSystem.directoryEntries(iioDevicesDirectory) else { return [] }
        return entries.filter { $0.hasPrefix("trigger") }.compactMap { entry in
            try? SysfsAttribute.read(iioDevicesDirectory + "/" + entry + "/name")
        }
    }
}
