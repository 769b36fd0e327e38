/// Puts a device's scan timestamps on CLOCK_MONOTONIC for a capture.
enum TimestampClockSetting {
    /// Makes `current_timestamp_clock` read `monotonic`, recording the
    /// original in `journal`, and returns the clock scans will be stamped
    /// with: monotonic when that worked, else the device's clock (kernels
    /// before 4.10 have no attribute and use realtime). nil when the device
    /// names a clock this program does not know; its stamps are then not used.
    static func prepare(_ device: DeviceDirectory, journal: SettingsJournal) -> KernelClock? {
        let attribute = "current_timestamp_clock"
        guard device.has(attribute), case .success(let text) = device.read(attribute) else {
            return .realtime
        }
        let current = KernelClock(rawValue: text)
        if current == .monotonic { return .monotonic }
        switch journal.change(device.attributePath(attribute), to: KernelClock.monotonic.rawValue, from: text) {
        case .success: return .monotonic
        case .failure(let error):
            Log.debug("\(error); converting scan timestamps from \(text) instead")
            return current
        }
    }
}
