/// The running daemon's PID file, `tiltscrolld.pid` in the runtime directory
/// (`$RUNTIME_DIRECTORY`, `/run/tiltscroll`), so that `tiltscrolld
/// --calibrate` and `--toggle` can find a daemon that was not started by
/// systemd, and a second daemon refuses to start.
///
/// A PID file outlives a crash, and PIDs are reused, so a file is trusted
/// only if its process is alive and is a `tiltscrolld` (`/proc/PID/comm`).
public struct PidFile: Equatable {
    /// The daemon's `comm`: the executable's name, which the kernel cuts at 15 bytes.
    public static let processName = "tiltscrolld"

    public let file: PersistedFile<ProcessIDRecord>

    public init(path: String) { file = PersistedFile(path: path) }

    public var path: String { file.path }

    /// The directory the file is in: the runtime directory, which the
    /// settings journal shares.
    public var directory: String { file.directory }

    /// The PID file in the runtime directory as the environment names it.
    public static func fromEnvironment() -> PidFile { PidFile(path: PersistedFile<ProcessIDRecord>.standard.path) }

    /// What a PID file says about a running daemon.
    public enum State: Equatable {
        /// No PID file.
        case absent
        /// A daemon runs with this PID.
        case running(Int32)
        /// The file is left over or unusable; the text says why.
        case stale(String)
    }

    /// Reads the PID file and checks its process.
    public func state() -> State {
        switch file.load() {
        case .missing: return .absent
        case .unusable(let why): return .stale(why)
        case .loaded(let record): return PidFile.check(pid: record.pid)
        }
    }

    /// Whether `pid` is a live `tiltscrolld`.
    public static func check(pid: Int32) -> State {
        do {
            try ProcessCalls.send(signal: 0, to: pid)
        } catch  where error.code == .noSuchProcess {
            return .stale("process \(pid) no longer exists")
        } catch {
            // EPERM means alive but someone else's; the name decides.
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile("/proc/\(pid)/comm", limit: 64)
        } catch  where error.code == .noSuchFileOrDirectory {
            return .stale("process \(pid) no longer exists")
        } catch {
            return .stale("cannot tell what process \(pid) is: \(error)")
        }
        var name = bytes[...]
        while let last = name.last, last == 0x0A { name = name.dropLast() }
        let comm = String(decoding: name, as: UTF8.self)
        guard comm == processName else { return .stale("process \(pid) is '\(comm)', not \(processName)") }
        return .running(pid)
    }

    /// Why a PID file could not be created.
    public enum CreateError: Error, Equatable, CustomStringConvertible {
        /// Another daemon holds the file.
        case alreadyRunning(pid: Int32, path: String)
        case system(SystemError)

        public var description: String {
            switch self {
            case .alreadyRunning(let pid, let path):
                return "another tiltscrolld is already running (pid \(pid), \(path)); stop it first"
            case .system(let error):
                return "cannot write the PID file: \(error)"
            }
        }
    }

    /// Writes this process's PID to `PidFile.fromEnvironment()`, replacing a
    /// stale file. Fails when another live tiltscrolld holds it.
    public static func create() throws(CreateError) -> PidFile {
        try fromEnvironment().create()
    }

    /// Writes this process's PID to `path` (creating its directory, one
    /// level), replacing the file atomically so a reader never sees a
    /// half-written PID.
    public func create() throws(CreateError) -> PidFile {
        let own = ProcessCalls.currentID
        if case .running(let pid) = state(), pid != own {
            throw .alreadyRunning(pid: pid, path: path)
        }
        do {
            try file.save(ProcessIDRecord(pid: own))
        } catch {
            throw .system(error)
        }
        return self
    }

    /// Removes the file if it still names this process (a newer daemon's file stays).
    public func remove() {
        guard case .loaded(let record) = file.load(), record.pid == ProcessCalls.currentID else { return }
        try? file.remove()
    }
}

/// The content of the PID file: the process ID in decimal and a newline.
public struct ProcessIDRecord: PersistedRecord, Equatable {
    /// Readable by everyone whatever the umask: the client runs as any user.
    public static let file = RecordFile(
        name: "tiltscrolld.pid", storage: .runtime, kind: "PID file", sizeLimit: 64,
        permissions: .exactly(0o644))

    public var pid: Int32

    public func formatted() -> String { "\(pid)\n" }

    public static func parse(_ text: String) throws(RecordFormatError) -> ProcessIDRecord {
        guard let pid = parsePID(Array(text.utf8)) else {
            throw RecordFormatError(message: "it does not hold a process ID")
        }
        return ProcessIDRecord(pid: pid)
    }

    /// The PID in a PID file's content: decimal digits and a newline.
    public static func parsePID(_ bytes: [UInt8]) -> Int32? {
        var digits = bytes[...]
        while let last = digits.last, last == 0x0A || last == 0x20 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(String(decoding: digits, as: UTF8.self)), value > 0, value <= Int64(Int32.max)
        else { return nil }
        return Int32(value)
    }
}
