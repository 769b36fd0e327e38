import Glibc

/// Path-level system calls (`rename(2)`, `unlink(2)`, `mkdir(2)`), `fsync(2)`
/// and whole-file reads of small files, with the same error reporting as
/// `FileDescriptor`. Used where files must survive a crash intact: write a
/// temporary file, sync it, rename it over the old one, sync the directory.
extension FileSystem {
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

extension FileDescriptor.Options {
    /// `O_DIRECTORY`: open only if the path is a directory (to `fsync` it).
    static let directoryOnly = FileDescriptor.Options(rawValue: O_DIRECTORY)
    /// `O_EXCL`: with `.create`, fail if the file exists.
    static let exclusive = FileDescriptor.Options(rawValue: O_EXCL)
}

extension FileDescriptor {
    /// `fsync(2)`: the data and metadata are on disk when this returns.
    func synchronize() -> Result<Void, SystemError> {
        retryingOnInterrupt("fsync") { Glibc.fsync(rawValue) }.map { _ in () }
    }
}

extension FileDescriptor {
    /// `fchmod(2)`: sets the mode regardless of the umask (files others must read).
    func setPermissions(_ permissions: mode_t) -> Result<Void, SystemError> {
        retryingOnInterrupt("fchmod") { Glibc.fchmod(rawValue, permissions) }.map { _ in () }
    }
}
