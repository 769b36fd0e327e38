import ScrollPhysics
import TiltScrollCommon

/// Keeps the calibrated neutral pose across restarts: `calibration` in the
/// state directory (`$STATE_DIRECTORY`, `/var/lib/tiltscroll`). Loading
/// never stops the daemon: a missing file means "not calibrated yet", a bad
/// one is reported and ignored.
typealias CalibrationStore = PersistedFile<CalibrationRecord>

extension CalibrationRecord: PersistedRecord {
    /// A calibration file is a few hundred bytes; anything much larger is not one.
    package static let file = RecordFile(
        name: "calibration", storage: .state, kind: "calibration", sizeLimit: 4096,
        permissions: .masked(0o644))

    package func formatted() throws(RecordFormatError) -> String {
        if let problem = CalibrationFormat.problem(with: self) { throw problem }
        return CalibrationFormat.format(self)
    }

    package static func parse(_ text: String) throws(RecordFormatError) -> CalibrationRecord {
        try CalibrationFormat.parse(text)
    }
}

extension PersistedFile where Record == CalibrationRecord {
    /// The saved neutral pose for the sensor `name` at `sysfsPath`, or nil
    /// when there is none that fits. Logs a warning for a file that cannot be
    /// used or belongs to another sensor; never fails.
    func neutralPose(forDeviceNamed name: DeviceText, at sysfsPath: DeviceText) -> Vector3? {
        switch load() {
        case .missing:
            return nil
        case .unusable(let message):
            Log.warning("\(message); ignored")
            return nil
        case .loaded(let record):
            guard record.belongs(toDeviceNamed: name.unescaped, at: sysfsPath.unescaped) else {
                Log.warning(
                    "calibration \(path) was made on '\(record.deviceName)' (\(record.devicePath)), "
                        + "not on '\(name)' (\(sysfsPath)); ignored until the next calibration")
                return nil
            }
            return record.neutral
        }
    }
}
