import Glibc

/// An open file descriptor. Every read, write and close of the daemon goes
/// through here, so `EINTR` handling and error reporting live in one place.
///
/// A plain value over `Int32` (like swift-system's `FileDescriptor`): closing
/// is explicit, because the daemon decides when a device is let go.
struct FileDescriptor: Equatable, Hashable {
    let rawValue: Int32

    /// Access modes and flags for `open(2)`; `O_CLOEXEC` is always added.
    struct Options: OptionSet {
        let rawValue: Int32
        static let readOnly = Options(rawValue: O_RDONLY)
        static let writeOnly = Options(rawValue: O_WRONLY)
        static let readWrite = Options(rawValue: O_RDWR)
        static let nonBlocking = Options(rawValue: O_NONBLOCK)
        static let create = Options(rawValue: O_CREAT)
        static let truncate = Options(rawValue: O_TRUNC)
        static let noFollow = Options(rawValue: O_NOFOLLOW)
    }

    /// `open(2)`.
    static func open(_ path: String, _ options: Options, permissions: mode_t = 0o644) -> Result<
        FileDescriptor, SystemError
    > {
        retryingOnInterrupt("open \(path)") {
            Glibc.open(path, options.rawValue | O_CLOEXEC, permissions)
        }.map(FileDescriptor.init(rawValue:))
    }

    /// `pread(2)` into `buffer`; returns the number of bytes read.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int = 0) -> Result<Int, SystemError> {
        retryingOnInterrupt("pread") { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// `read(2)` into `buffer` at the current position (character devices, pipes).
    func readStream(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        retryingOnInterrupt("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// `write(2)` of the whole buffer in one call; a short write is an error
    /// (`EIO`), because every caller writes records that must not be split.
    func writeAll(_ buffer: UnsafeRawBufferPointer) -> Result<Void, SystemError> {
        switch retryingOnInterrupt("write", { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }) {
        case .failure(let error): return .failure(error)
        case .success(let written) where written != buffer.count:
            return .failure(SystemError(code: EIO, operation: "short write (\(written) of \(buffer.count) bytes)"))
        case .success: return .success(())
        }
    }

    /// `pwrite(2)` of a whole buffer at offset 0, the way sysfs attributes are written.
    func writeAttribute(_ buffer: UnsafeRawBufferPointer) -> Result<Void, SystemError> {
        switch retryingOnInterrupt("pwrite", { Glibc.pwrite(rawValue, buffer.baseAddress, buffer.count, 0) }) {
        case .failure(let error): return .failure(error)
        case .success(let written) where written != buffer.count:
            return .failure(SystemError(code: EIO, operation: "short write (\(written) of \(buffer.count) bytes)"))
        case .success: return .success(())
        }
    }

    /// The process's standard output and error.
    static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// `isatty(3)`: whether a terminal is on the other end (a person reads it).
    var isTerminal: Bool { isatty(rawValue) == 1 }

    /// `close(2)`. `EINTR` is not retried: on Linux the descriptor is gone either way.
    func close() {
        _ = Glibc.close(rawValue)
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
