import CLinux
import Glibc

/// The signals the daemon acts on, delivered through a `signalfd(2)` so the
/// poll loop handles them like any other event instead of in an async handler.
///
/// A burst of the same signal collapses into one pending delivery (standard
/// signals are not queued), which is exactly what a reload or recalibration
/// wants: the loop acts once on the latest request.
public struct SignalChannel: SignalSource {
    public let descriptor: FileDescriptor
    private var mask: sigset_t

    /// The signals tiltscrolld handles.
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]

    /// Blocks `signals` for the process and opens a non-blocking signalfd for them.
    public static func open(_ signals: [Int32] = handled) throws(SystemError) -> SignalChannel {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        // Blocked first, so a signal arriving between here and the first poll
        // waits in the pending set instead of killing the process.
        guard sigprocmask(SIG_BLOCK, &mask, nil) == 0 else { throw .current("sigprocmask") }
        let fd = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard fd >= 0 else { throw .current("signalfd") }
        return SignalChannel(descriptor: FileDescriptor(rawValue: fd), mask: mask)
    }

    /// Reads every pending signal and hands its number to `handle`.
    public func drain(_ handle: (Int32) -> Void) {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while true {
            let count = withUnsafeMutableBytes(of: &info) { try? descriptor.readStream(into: $0) }
            guard count == size else { return }
            handle(Int32(bitPattern: info.ssi_signo))
        }
    }

    /// Closes the descriptor and unblocks the signals again.
    public func close() {
        descriptor.close()
        var mask = self.mask
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// The conventional name, for logs.
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: return "SIGTERM"
        case SIGINT: return "SIGINT"
        case SIGHUP: return "SIGHUP"
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        default: return "signal \(signal)"
        }
    }
}

/// Where the loop's signals come from: a signalfd on the machine, a queue in tests.
public protocol SignalSource {
    var descriptor: FileDescriptor { get }
    /// Hands each pending signal's number to `handle`.
    func drain(_ handle: (Int32) -> Void)
    func close()
}
