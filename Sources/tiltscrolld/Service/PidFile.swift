import Glibc

/// The running daemon's PID file, `$RUNTIME_DIRECTORY/tiltscrolld.pid`
/// (`/run/tiltscroll/tiltscrolld.pid` under systemd and by default), so that
/// `tiltscrolld --calibrate` and `--toggle` can find a daemon that was not
/// started by systemd, and a second daemon refuses to start.
///
/// A PID file outlives a crash, and PIDs are reused, so a file is trusted
/// only if its process is alive and is a `tiltscrolld` (`/proc/PID/comm`).
struct PidFile: Equatable {
    static let defaultDirectory = "/run/tiltscroll"
    static let fileName = "tiltscrolld.pid"
    /// The daemon's `comm`: the executable's name, which the kernel cuts at 15 bytes.
    static let processName = "tiltscrolld"

    let path: String

    /// The directory the file is in: the runtime directory, which the
    /// settings journal shares.
    var directory: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }

    /// The PID file in `$RUNTIME_DIRECTORY`, else in `defaultDirectory`.
    static func fromEnvironment() -> PidFile {
        let value = getenv("RUNTIME_DIRECTORY").map { String(cString: $0) }
        return PidFile(path: path(runtimeDirectoryVariable: value))
    }

    /// The path given the value of `$RUNTIME_DIRECTORY` (a colon-separated
    /// list when a unit has several runtime directories; ours is the first).
    static func path(runtimeDirectoryVariable value: String?) -> String {
        var directory = defaultDirectory
        if let value, let first = value.split(separator: ":").first, first.hasPrefix("/") {
            directory = String(first)
        }
        return directory + "/" + fileName
    }

    /// What a PID file says about a running daemon.
    enum State: Equatable {
        /// No PID file.
        case absent
        /// A daemon runs with this PID.
        case running(Int32)
        /// The file is left over or unusable; the text says why.
        case stale(String)
    }

    /// Reads the PID file and checks its process.
    func state() -> State {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: 64)
        } catch  where error.code == .noSuchFileOrDirectory {
            return .absent
        } catch {
            return .stale("\(error)")
        }
        guard let pid = PidFile.parsePID(bytes) else {
            return .stale("\(path) does not hold a process ID")
        }
        return PidFile.check(pid: pid)
    }

    /// The PID in a PID file's content: decimal digits and a newline.
    static func parsePID(_ bytes: [UInt8]) -> Int32? {
        var digits = bytes[...]
        while let last = digits.last, last == 0x0A || last == 0x20 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int64(String(decoding: digits, as: UTF8.self)), value > 0, value <= Int64(Int32.max)
        else { return nil }
        return Int32(value)
    }

    /// Whether `pid` is a live `tiltscrolld`.
    static func check(pid: Int32) -> State {
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
    enum CreateError: Error, Equatable, CustomStringConvertible {
        /// Another daemon holds the file.
        case alreadyRunning(pid: Int32, path: String)
        case system(SystemError)

        var description: String {
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
    static func create() throws(CreateError) -> PidFile {
        try fromEnvironment().create()
    }

    /// Writes this process's PID to `path` (creating its directory, one
    /// level), through a temporary file and a rename, so a reader never sees
    /// a half-written PID.
    func create() throws(CreateError) -> PidFile {
        let own = ProcessCalls.currentID
        if case .running(let pid) = state(), pid != own {
            throw .alreadyRunning(pid: pid, path: path)
        }
        let temporary = path + ".tmp"
        do throws(SystemError) {
            if !directory.isEmpty { try FileSystem.makeDirectory(directory, permissions: 0o755) }
            do throws(SystemError) {
                let fd = try FileDescriptor.open(
                    temporary, [.writeOnly, .create, .truncate, .noFollow], permissions: 0o644)
                defer { fd.close() }
                // Readable by everyone whatever the umask: the client runs as any user.
                try fd.setPermissions(0o644)
                try fd.writeAll(Array("\(own)\n".utf8))
                try FileSystem.rename(temporary, to: path)
            } catch {
                try? FileSystem.removeFile(temporary)
                throw error
            }
        } catch {
            throw .system(error)
        }
        return self
    }

    /// Removes the file if it still names this process (a newer daemon's file stays).
    func remove() {
        guard let bytes = try? FileSystem.readSmallFile(path, limit: 64),
            PidFile.parsePID(bytes) == ProcessCalls.currentID
        else { return }
        try? FileSystem.removeFile(path)
    }
}
