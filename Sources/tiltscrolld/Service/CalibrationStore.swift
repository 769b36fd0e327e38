import Glibc
import ScrollPhysics

/// Keeps the calibrated neutral pose across restarts, in the state directory
/// systemd gives the service (`StateDirectory=tiltscroll`).
///
/// Saving never leaves a half-written file: the record goes to a temporary
/// file in the same directory, which is synced and renamed over the old one,
/// and then the directory itself is synced so the rename survives a power
/// cut. Loading never stops the daemon: a missing file means "not calibrated
/// yet", a bad one is reported and ignored.
struct CalibrationStore {
    /// Where the state lives when systemd does not say (`$STATE_DIRECTORY` unset).
    static let defaultDirectory = "/var/lib/tiltscroll"
    static let fileName = "calibration"
    /// A calibration file is a few hundred bytes; anything much larger is not one.
    static let sizeLimit = 4096

    let directory: String

    init(directory: String) { self.directory = directory }

    /// The store in `$STATE_DIRECTORY`, else in `defaultDirectory`.
    static func fromEnvironment() -> CalibrationStore {
        let value = getenv("STATE_DIRECTORY").map { String(cString: $0) }
        return CalibrationStore(directory: directory(stateDirectoryVariable: value))
    }

    /// The directory to use given the value of `$STATE_DIRECTORY`, which
    /// systemd sets to a colon-separated list when a unit has several; ours
    /// is the first.
    static func directory(stateDirectoryVariable value: String?) -> String {
        guard let value, let first = value.split(separator: ":").first, first.hasPrefix("/") else {
            return defaultDirectory
        }
        return String(first)
    }

    var path: String { directory + "/" + CalibrationStore.fileName }
    private var temporaryPath: String { directory + "/." + CalibrationStore.fileName + ".tmp" }

    /// What `load()` found.
    enum LoadResult: Equatable {
        /// No file: nothing was calibrated yet. Not worth a warning.
        case missing
        case loaded(CalibrationRecord)
        /// The file exists but cannot be used; the message names the file and the problem.
        case unusable(String)
    }

    func load() -> LoadResult {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: CalibrationStore.sizeLimit)
        } catch  where error.code == .noSuchFileOrDirectory {
            return .missing
        } catch  where error.code == .fileTooLarge {
            return .unusable("calibration \(path) is larger than \(CalibrationStore.sizeLimit) bytes; ignored")
        } catch {
            return .unusable("cannot read calibration: \(error); ignored")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unusable("calibration \(path) is not text; ignored")
        }
        do {
            return .loaded(try CalibrationFormat.parse(text))
        } catch {
            return .unusable("calibration \(path): \(error); ignored")
        }
    }

    /// The saved neutral pose for the sensor `name` at `sysfsPath`, or nil
    /// when there is none that fits. Logs a warning for a file that cannot be
    /// used or belongs to another sensor; never fails.
    func neutralPose(forDeviceNamed name: String, at sysfsPath: String) -> Vector3? {
        switch load() {
        case .missing:
            return nil
        case .unusable(let message):
            Log.warning(message)
            return nil
        case .loaded(let record):
            guard record.belongs(toDeviceNamed: name, at: sysfsPath) else {
                Log.warning(
                    "calibration \(path) was made on '\(record.deviceName)' (\(record.devicePath)), "
                        + "not on '\(name)' (\(sysfsPath)); ignored until the next calibration")
                return nil
            }
            return record.neutral
        }
    }

    /// Saves `record`, replacing the previous one atomically. On failure the
    /// previous file is untouched and the error says which step failed.
    func save(_ record: CalibrationRecord) throws(SystemError) {
        if let problem = CalibrationFormat.problem(with: record) {
            throw SystemError(code: .invalidArgument, operation: "save calibration \(path): \(problem)")
        }
        try FileSystem.makeDirectory(directory, permissions: 0o700)
        let temporary = temporaryPath
        do {
            try writeSynced(Array(CalibrationFormat.format(record).utf8), to: temporary)
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.removeFile(temporary)
            throw error
        }
        try syncDirectory()
    }

    private func writeSynced(_ bytes: [UInt8], to file: String) throws(SystemError) {
        let fd = try FileDescriptor.open(file, [.writeOnly, .create, .truncate, .noFollow], permissions: 0o644)
        defer { fd.close() }
        do {
            try fd.writeAll(bytes)
            try fd.synchronize()
        } catch {
            throw error.during("\(error.operation) \(file)")
        }
    }

    private func syncDirectory() throws(SystemError) {
        let fd = try FileDescriptor.open(directory, [.readOnly, .directoryOnly])
        defer { fd.close() }
        do {
            try fd.synchronize()
        } catch {
            throw error.during("fsync \(directory)")
        }
    }
}
