import Glibc

/// An error number as C's `errno` holds it, with a name for each value the
/// daemon tells apart, so code says `.resourceBusy` where C says `EBUSY`.
/// Each name's comment gives the constant it mirrors.
struct Errno: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, right after a call that failed.
    static var current: Errno { Errno(rawValue: errno) }

    /// `errno`, or `fallback` when the failed call left it 0 (libraries
    /// such as libudev do not always set it).
    static func currentOr(_ fallback: Errno) -> Errno { errno != 0 ? .current : fallback }

    /// `EPERM`: the operation needs a privilege the process lacks.
    static var notPermitted: Errno { Errno(rawValue: EPERM) }
    /// `ENOENT`
    static var noSuchFileOrDirectory: Errno { Errno(rawValue: ENOENT) }
    /// `ESRCH`
    static var noSuchProcess: Errno { Errno(rawValue: ESRCH) }
    /// `EINTR`: a signal arrived during the call; it is retried.
    static var interrupted: Errno { Errno(rawValue: EINTR) }
    /// `EIO`
    static var ioError: Errno { Errno(rawValue: EIO) }
    /// `ENXIO`
    static var noSuchDeviceOrAddress: Errno { Errno(rawValue: ENXIO) }
    /// `EAGAIN`, the same number as `EWOULDBLOCK` on Linux.
    static var tryAgain: Errno { Errno(rawValue: EAGAIN) }
    /// `ENOMEM`
    static var outOfMemory: Errno { Errno(rawValue: ENOMEM) }
    /// `EACCES`
    static var permissionDenied: Errno { Errno(rawValue: EACCES) }
    /// `EBUSY`
    static var resourceBusy: Errno { Errno(rawValue: EBUSY) }
    /// `EEXIST`
    static var fileExists: Errno { Errno(rawValue: EEXIST) }
    /// `ENODEV`
    static var noSuchDevice: Errno { Errno(rawValue: ENODEV) }
    /// `ENOTDIR`
    static var notADirectory: Errno { Errno(rawValue: ENOTDIR) }
    /// `EINVAL`
    static var invalidArgument: Errno { Errno(rawValue: EINVAL) }
    /// `ENOTTY`: an ioctl the file does not know (it is not that kind of device).
    static var inappropriateIOControl: Errno { Errno(rawValue: ENOTTY) }
    /// `EFBIG`
    static var fileTooLarge: Errno { Errno(rawValue: EFBIG) }
    /// `EROFS`
    static var readOnlyFileSystem: Errno { Errno(rawValue: EROFS) }
    /// `ETIMEDOUT`
    static var timedOut: Errno { Errno(rawValue: ETIMEDOUT) }
    /// `ENOBUFS`: a netlink socket's buffer overflowed and messages were lost.
    static var noBufferSpace: Errno { Errno(rawValue: ENOBUFS) }

    /// What `strerror(3)` says, e.g. "No such file or directory".
    var description: String {
        guard let text = strerror(rawValue) else { return "error \(rawValue)" }
        return String(cString: text)
    }
}

/// An error number from a failed system call, with the call that failed.
///
/// `description` reads like `perror(3)`, so messages a user sees name the
/// real cause ("open /dev/uinput: Permission denied").
struct SystemError: Error, Equatable, CustomStringConvertible {
    var code: Errno
    var operation: String

    /// The current `errno`, for `operation`.
    static func current(_ operation: String) -> SystemError {
        SystemError(code: .current, operation: operation)
    }

    /// The same error, said of another operation (the path it concerned).
    func during(_ operation: String) -> SystemError {
        SystemError(code: code, operation: operation)
    }

    var description: String { "\(operation): \(code)" }
}

/// Calls `body` until it does not fail with `EINTR`; returns its result, or
/// throws the error of a call that failed otherwise.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(
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
