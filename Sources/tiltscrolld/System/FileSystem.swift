import Glibc

/// Path-level system calls: does a path exist, is it a directory, where does
/// a link lead, what does a directory hold; `rename(2)`, `unlink(2)`,
/// `mkdir(2)`; whole-file reads of small files. Like `FileDescriptor`, the
/// one place these system calls are made, with the same error reporting.
enum FileSystem {
    /// `access(path, F_OK)`: whether the path exists (symlinks followed).
    /// Used to learn which attributes a device has without reading them:
    /// some reads block for seconds or fail by design (HID `in_accel_hysteresis`).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// `stat(2)`: whether the path is a directory (symlinks followed).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// `realpath(3)`: the absolute path with every symlink resolved, e.g.
    /// `/sys/bus/iio/devices/iio:device0` -> `/sys/devices/.../iio:device0`.
    static func realPath(_ path: String) -> Result<String, SystemError> {
        guard let resolved = realpath(path, nil) else {
            return .failure(.current("realpath \(path)"))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// `opendir(3)` / `readdir(3)`: the names in a directory, without "." and
    /// "..", sorted so that results do not depend on the file system's order.
    static func directoryEntries(_ path: String) -> Result<[String], SystemError> {
        guard let directory = opendir(path) else {
            return .failure(.current("opendir \(path)"))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(.current("readdir \(path)")) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names.sorted())
    }

    /// `rename(2)`: atomically replaces `destination` when both are in one file system.
    static func rename(_ source: String, to destination: String) -> Result<Void, SystemError> {
        retryingOnInterrupt("rename \(source) to \(destination)") { Glibc.rename(source, destination) }.map { _ in () }
    }

    /// `unlink(2)`.
    static func removeFile(_ path: String) -> Result<Void, SystemError> {
        retryingOnInterrupt("unlink \(path)") { Glibc.unlink(path) }.map { _ in () }
    }

    /// `mkdir(2)` of one level; an existing directory is success.
    static func makeDirectory(_ path: String, permissions: mode_t) -> Result<Void, SystemError> {
        switch retryingOnInterrupt("mkdir \(path)", { Glibc.mkdir(path, permissions) }) {
        case .success: return .success(())
        case .failure(let error) where error.code == EEXIST:
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return .success(()) }
            return .failure(SystemError(code: ENOTDIR, operation: "mkdir \(path)"))
        case .failure(let error): return .failure(error)
        }
    }

    /// The whole content of a small file (a PID file, `/proc/PID/comm`, the
    /// calibration file, the configuration, a trace). A file longer than
    /// `limit` bytes is an error (`EFBIG`): a huge one is not ours. Read from
    /// the descriptor rather than trusting `st_size`, so pipes such as
    /// `--config /dev/stdin` work too. Files the daemon writes itself are read
    /// with `O_NOFOLLOW`; files a user names (`followingLinks`) may be links.
    static func readSmallFile(_ path: String, limit: Int, followingLinks: Bool = false) -> Result<[UInt8], SystemError>
    {
        let fd: FileDescriptor
        switch FileDescriptor.open(path, followingLinks ? .readOnly : [.readOnly, .noFollow]) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        defer { fd.close() }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            switch chunk.withUnsafeMutableBytes({ fd.readStream(into: $0) }) {
            case .success(let n): count = n
            case .failure(let error): return .failure(SystemError(code: error.code, operation: "read \(path)"))
            }
            if count == 0 { return .success(content) }
            content.append(contentsOf: chunk[..<count])
            if content.count > limit {
                return .failure(SystemError(code: EFBIG, operation: "read \(path) (more than \(limit) bytes)"))
            }
        }
    }
}
