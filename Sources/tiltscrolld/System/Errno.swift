import Glibc

/// An error number from a failed system call, with the call that failed.
///
/// Mirrors C's `errno`; `description` reads like `strerror(3)` so messages a
/// user sees name the real cause ("open /dev/uinput: Permission denied").
struct SystemError: Error, Equatable, CustomStringConvertible {
    var code: Int32
    var operation: String

    /// Captures the current `errno` for `operation`.
    static func current(_ operation: String) -> SystemError {
        SystemError(code: errno, operation: operation)
    }

    var description: String { "\(operation): \(SystemError.message(for: code))" }

    static func message(for code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

/// Retries a system call that failed with `EINTR`, returning its result or the error.
@inline(__always)
func retryingOnInterrupt<T: BinaryInteger>(
    _ operation: @autoclosure () -> String, _ body: () -> T
) -> Result<T, SystemError> {
    while true {
        let result = body()
        if result >= 0 { return .success(result) }
        let code = errno
        if code == EINTR { continue }
        return .failure(SystemError(code: code, operation: operation()))
    }
}
