import Glibc

/// Process-level system calls: who we are and signalling another process.
public enum ProcessCalls {
    /// `getpid(2)`.
    public static var currentID: Int32 { getpid() }

    /// `kill(2)`: sends `signal` to `pid`. `signal` 0 only checks that the
    /// process exists and may be signalled (`ESRCH` when it does not exist,
    /// `EPERM` when it exists but belongs to someone else).
    public static func send(signal: Int32, to pid: Int32) throws(SystemError) {
        guard pid > 0 else { throw SystemError(code: .noSuchProcess, operation: "kill \(pid)") }
        _ = try retryingOnInterrupt("kill \(pid)") { Glibc.kill(pid, signal) }
    }
}
