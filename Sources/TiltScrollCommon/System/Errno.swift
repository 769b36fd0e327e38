import Glibc

/// An error number as C's `errno` holds it, with a name for each value the
/// daemon tells apart, so code says `.resourceBusy` where C says `EBUSY`.
/// Each name's comment gives the constant it mirrors.
public struct Errno: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, right after a call that failed.
    public static var current: Errno { Errno(rawValue: errno) }

    /// `errno`, or `fallback` when the failed call left it 0 (libraries
    /// such as libudev do not always set it).
    public static func currentOr(_ fallback: Errno) -> Errno { errno != 0 ? .current : fallback }

    /// `EPERM`: the operation needs a privilege the process lacks.
    public static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// `ENOENT`
    public static var noSuchFileOrDirectory: Errno { Errno(rawValue: ENOENT) }
    /// `ESRCH`
    public static var noSuchProcess: Errno { Errno(rawValue: ESRCH) }
    /// `EINTR`: a signal arrived during the call; it is retried.
    public static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// `EIO`
    public static var ioError: Errno { Errno(rawValue: EIO) }
    /// `ENXIO`
    public static var noSuchDeviceOrAddress: Errno { Errno(rawValue: ENXIO) }
    /// `EAGAIN`, the same number as `EWOULDBLOCK` on Linux.
    public static var tryAgain: Errno { Errno(rawValue: EAGAIN) }
    /// `ENOMEM`
    public static var outOfMemory: Errno { Errno(rawValue: ENOMEM) }
    /// `EACCES`
    public static var permissionDenied: Errno { Errno(rawValue: EACCES) }
    /// `EBUSY`
    public static var resourceBusy: Errno { Errno(rawValue: EBUSY) }
    /// `EEXIST`
    public static var fileExists: Errno { Errno(rawValue: EEXIST) }
    /// `ENODEV`
    public static var noSuchDevice: Errno { Errno(rawValue: ENODEV) }
    /// `ENOTDIR`
    public static var notADirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// `EINVAL`
    public static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// `ENOTTY`: an ioctl the file does not know (it is not that kind of device).
    public static var inappropriateIOControl: Errno { Errno(rawValue: ENOTTY) }
    /// `EFBIG`
    public static var fileTooLarge: Errno { Errno(rawValue: EFBIG) }
    /// `EROFS`
    public static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
    /// `ETIMEDOUT`
    public static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }
    /// `ENOBUFS`: a netlink socket's buffer overflowed and messages were lost.
    public static var noBufferSpace: Errno { Errno(rawValue: ENOBUFS) }

    /// What `strerror(3)` says, e.g. "No such file or directory".
    public var description: String {
        guard let text = strerror(rawValue) else { return "error \(rawValue)" }
        return String(cString: text)
    }
}

/// An error number from a failed system call, with the call that failed.
///
/// `description` reads like `perror(3)`, so messages a user sees name the
/// real cause ("open /dev/uinput: Permission denied").
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public var code: Errno
    public var operation: String

    /// The current `errno`, for `operation`.
    public static func current(_ operation: String) -> SystemError {
        SystemError(code: .current, operation: operation)
    }

    /// The same error, said of another operation (the path it concerned).
    public func during(_ operation: String) -> SystemError {
        SystemError(code: code, operation: operation)
    }

    public var description: String { "\(operation): \(code)" }

    public init(code: Errno, operation: String) {
        self.code = code
        self.operation = operation
    }
}

/// Calls `body` until it does not fail with `EINTR`; returns its result, or
/// throws the error of a call that failed otherwise. Inlinable, so that
/// the inlinable calls of `FileDescriptor` are whole in the daemon's code.
@inlinable @inline(__always)
public func retryingOnInterrupt<T: BinaryInteger>(
    _ operation: @autoclosure () -> String, _ body: () -> T
) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Errno.current
        if code == .interrupted { continue }
        throw SystemError(code: code, operation: operation())
    }
}
