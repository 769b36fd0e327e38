import TiltScrollCommon

/// Puts a device's scan timestamps on the daemon's clock (CLOCK_BOOTTIME)
/// for a capture.
enum TimestampClockSetting {
    /// Makes `current_timestamp_clock` read `boottime`, recording the
    /// original in `journal`, and returns the clock scans will be stamped
    /// with: the daemon's when that worked, else the device's clock (kernels
    /// before 4.10 have no attribute and use realtime). nil when the device
    /// names a clock this program does not know; its stamps are then not used.
    static func prepare(_ device: DeviceDirectory, journal: SettingsJournal) -> KernelClock? {
        let attribute = "current_timestamp_clock"
        guard device.has(attribute), let text = try? device.read(attribute) else {
            return .realtime
        }
        let current = KernelClock(rawValue: text.unescaped)
        if current == .daemon { return .daemon }
        do {
            try journal.change(device.attributePath(attribute), to: KernelClock.daemon.rawValue, from: text.unescaped)
            return .daemon
        } catch {
            Log.debug("\(error); converting scan timestamps from \(text) instead")
            return current
        }
    }
}
