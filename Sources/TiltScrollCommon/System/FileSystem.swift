import Glibc

/// Path-level system calls: does a path exist, is it a directory, where does
/// a link lead, what does a directory hold; `rename(2)`, `unlink(2)`,
/// `mkdir(2)`; whole-file reads of small files. Like `FileDescriptor`, the
/// one place these system calls are made, with the same error reporting.
public enum FileSystem {
    /// `access(path, F_OK)`: whether the path exists (symlinks followed).
    /// Used to learn which attributes a device has without reading them:
    /// some reads block for seconds or fail by design (HID `in_accel_hysteresis`).
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Whether a path the kernel or udev reported (a device's sysfs path or
    /// node) exists.
    public static func exists(_ path: DeviceText) -> Bool { exists(path.unescaped) }

    /// `stat(2)`: whether the path is a directory (symlinks followed).
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// `realpath(3)`: the absolute path with every symlink resolved, e.g.
    /// `/sys/bus/iio/devices/iio:device0` -> `/sys/devices/.../iio:device0`.
    public static func realPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw .current("realpath \(path)") }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `opendir(3)` / `readdir(3)`: the names in a directory, without "." and
    /// "..", sorted so that results do not depend on the file system's order.
    public static func directoryEntries(_ path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw .current("opendir \(path)") }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw .current("readdir \(path)") }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `rename(2)`: atomically replaces `destination` when both are in one file system.
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        _ = try retryingOnInterrupt("rename \(source) to \(destination)") { Glibc.rename(source, destination) }
    }

    /// `unlink(2)`.
    public static func removeFile(_ path: String) throws(SystemError) {
        _ = try retryingOnInterrupt("unlink \(path)") { Glibc.unlink(path) }
    }

    /// `mkdir(2)` of one level; an existing directory is success.
    public static func makeDirectory(_ path: String, permissions: mode_t) throws(SystemError) {
        do {
            _ = try retryingOnInterrupt("mkdir \(path)") { Glibc.mkdir(path, permissions) }
        } catch  where error.code == .fileExists {
            guard isDirectory(path) else { throw SystemError(code: .notADirectory, operation: "mkdir \(path)") }
        }
    }

    /// The whole content of a small file (a PID file, `/proc/PID/comm`, the
    /// calibration file, the configuration, a trace). A file longer than
    /// `limit` bytes is an error (`EFBIG`): a huge one is not ours. Read from
    /// the descriptor rather than trusting `st_size`, so pipes such as
    /// `--config /dev/stdin` work too. Files the daemon writes itself are read
    /// with `O_NOFOLLOW`; files a user names (`followingLinks`) may be links.
    public static func readSmallFile(_ path: String, limit: Int, followingLinks: Bool = false) throws(SystemError)
        -> [UInt8]
    {
        let fd = try FileDescriptor.open(path, followingLinks ? .readOnly : [.readOnly, .noFollow])
        defer { fd.close() }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do {
                count = try fd.readStream(into: &chunk)
            } catch {
                throw error.during("read \(path)")
            }
            if count == 0 { return content }
            content.append(contentsOf: chunk[..<count])
            if content.count > limit {
                throw SystemError(code: .fileTooLarge, operation: "read \(path) (more than \(limit) bytes)")
            }
        }
    }

    /// Replaces the file at `path` with `bytes` so that a crash or a power
    /// cut at any moment leaves either the old file or the new one, whole:
    /// the bytes go to `.NAME.tmp` in the same directory, which is synced
    /// and renamed over `path`, and then the directory is synced so that the
    /// rename is on disk too. The temporary file is removed if a step fails.
    public static func replace(_ path: String, with bytes: [UInt8], permissions: FilePermissions) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = directory + "/." + name + ".tmp"
        do throws(SystemError) {
            let fd = try FileDescriptor.open(
                temporary, [.writeOnly, .create, .truncate, .noFollow], permissions: permissions.mode)
            defer { fd.close() }
            do {
                if case .exactly(let mode) = permissions { try fd.setPermissions(mode) }
                try fd.writeAll(bytes)
                try fd.synchronize()
            } catch {
                throw error.during("\(error.operation) \(temporary)")
            }
            try rename(temporary, to: path)
        } catch {
            try? removeFile(temporary)
            throw error
        }
        let fd = try FileDescriptor.open(directory, [.readOnly, .directoryOnly])
        defer { fd.close() }
        do {
            try fd.synchronize()
        } catch {
            throw error.during("fsync \(directory)")
        }
    }
}

/// The mode of a file the daemon creates.
public enum FilePermissions: Equatable, Sendable {
    /// `mode` less the process's umask, as `open(2)` creates files.
    case masked(mode_t)
    /// `mode` whatever the umask (`fchmod(2)`): a file other users must read.
    case exactly(mode_t)

    public var mode: mode_t {
        switch self {
        case .masked(let mode), .exactly(let mode): return mode
        }
    }
}
