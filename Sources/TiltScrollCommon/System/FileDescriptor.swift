import Glibc

/// An open file descriptor. Every read, write and close of the daemon goes
/// through here, so `EINTR` handling and error reporting live in one place.
///
/// A plain value over `Int32` (like swift-system's `FileDescriptor`): closing
/// is explicit, because the daemon decides when a device is let go.
public struct FileDescriptor: Equatable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Access modes and flags for `open(2)`; `O_CLOEXEC` is always added.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `O_RDONLY`
        public static let readOnly = Options(rawValue: O_RDONLY)
        /// `O_WRONLY`
        public static let writeOnly = Options(rawValue: O_WRONLY)
        /// `O_RDWR`
        public static let readWrite = Options(rawValue: O_RDWR)
        /// `O_NONBLOCK`
        public static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// `O_CREAT`
        public static let create = Options(rawValue: O_CREAT)
        /// `O_TRUNC`
        public static let truncate = Options(rawValue: O_TRUNC)
        /// `O_NOFOLLOW`: fail rather than follow a symlink in the last component.
        public static let noFollow = Options(rawValue: O_NOFOLLOW)
        /// `O_DIRECTORY`: open only if the path is a directory (to `fsync` it).
        public static let directoryOnly = Options(rawValue: O_DIRECTORY)
        /// `O_EXCL`: with `.create`, fail if the file exists.
        public static let exclusive = Options(rawValue: O_EXCL)
    }

    /// The process's standard output and error.
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// `open(2)`.
    public static func open(_ path: String, _ options: Options, permissions: mode_t = 0o644) throws(SystemError)
        -> FileDescriptor
    {
        FileDescriptor(
            rawValue: try retryingOnInterrupt("open \(path)") {
                Glibc.open(path, options.rawValue | O_CLOEXEC, permissions)
            })
    }

    /// `pread(2)` into `buffer`; returns the number of bytes read.
    /// This, `readStream` and `writeAll` are the loop's own calls (three
    /// preads a polled sample, a read a buffered batch, a write a frame):
    /// inlinable, each is the system call in the daemon's code, not a call
    /// into this module around it (about 20 instructions each; `read` is
    /// inlined only when told to).
    @inlinable @inline(__always)
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int = 0) throws(SystemError) -> Int {
        try retryingOnInterrupt("pread") { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// `read(2)` into `buffer` at the current position (character devices, pipes).
    @inlinable
    public func readStream(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try retryingOnInterrupt("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// A new pipe, both ends close-on-exec. (pipe2(2) would do it in one
    /// call, but Glibc's Swift module does not declare it; the process
    /// never forks, so nothing can inherit an end in between.)
    public static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw .current("pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// `write(2)` of the whole buffer in one call; a short write is an error
    /// (`EIO`), because every caller writes records that must not be split.
    @inlinable
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        let written = try retryingOnInterrupt("write") { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
        if written != buffer.count { throw FileDescriptor.shortWrite(written, of: buffer.count) }
    }

    /// `pwrite(2)` of a whole buffer at offset 0, the way sysfs attributes are written.
    public func writeAttribute(_ buffer: UnsafeRawBufferPointer) throws(SystemError) {
        let written = try retryingOnInterrupt("pwrite") {
            Glibc.pwrite(rawValue, buffer.baseAddress, buffer.count, 0)
        }
        if written != buffer.count { throw FileDescriptor.shortWrite(written, of: buffer.count) }
    }

    // The same calls on arrays. (An array's `withUnsafe*Bytes` rethrows
    // `any Error`; going through `Result` keeps the error a `SystemError`.)

    /// `pread(2)` into `bytes` from their start; returns the number of bytes read.
    public func read(into bytes: inout [UInt8]) throws(SystemError) -> Int {
        try bytes.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try read(into: buffer) } }
            .get()
    }

    /// `read(2)` into `bytes` from their start; returns the number of bytes read.
    public func readStream(into bytes: inout [UInt8]) throws(SystemError) -> Int {
        try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(SystemError) in try readStream(into: buffer) }
        }.get()
    }

    /// `write(2)` of all of `bytes` in one call.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(SystemError) in try writeAll(buffer) } }.get()
    }

    /// `pwrite(2)` of all of `bytes` at offset 0.
    public func writeAttribute(_ bytes: [UInt8]) throws(SystemError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(SystemError) in try writeAttribute(buffer) } }.get()
    }

    /// The error of a write that wrote less than all; built out of line, so
    /// that a whole write (a frame, every 20 ms) costs one comparison.
    @usableFromInline
    static func shortWrite(_ written: Int, of count: Int) -> SystemError {
        SystemError(code: .ioError, operation: "short write (\(written) of \(count) bytes)")
    }

    /// `fsync(2)`: the data and metadata are on disk when this returns.
    public func synchronize() throws(SystemError) {
        _ = try retryingOnInterrupt("fsync") { Glibc.fsync(rawValue) }
    }

    /// `fchmod(2)`: sets the mode regardless of the umask (files others must read).
    public func setPermissions(_ permissions: mode_t) throws(SystemError) {
        _ = try retryingOnInterrupt("fchmod") { Glibc.fchmod(rawValue, permissions) }
    }

    /// `fcntl(2)` `F_SETFL`: adds `O_NONBLOCK` to the descriptor's status flags.
    public func makeNonBlocking() throws(SystemError) {
        let flags = try retryingOnInterrupt("fcntl F_GETFL") { fcntl(rawValue, F_GETFL) }
        _ = try retryingOnInterrupt("fcntl F_SETFL") { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// `isatty(3)`: whether a terminal is on the other end (a person reads it).
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// `close(2)`. `EINTR` is not retried: on Linux the descriptor is gone either way.
    public func close() {
        _ = Glibc.close(rawValue)
    }
}
