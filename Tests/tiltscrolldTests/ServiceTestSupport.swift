import Foundation
import Glibc

/// A fresh directory under /tmp, removed by `remove()`.
struct ServiceTemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/tiltscroll-service-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(errno)")
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path + "/" + name, atomically: false, encoding: .utf8)
    }

    func read(_ name: String) -> String? { try? String(contentsOfFile: path + "/" + name, encoding: .utf8) }

    func permissions(_ name: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path + "/" + name))?[.posixPermissions] as? Int
    }

    func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// A process whose `comm` is "tiltscrolld" (a copy of sleep(1) by that name),
/// standing in for a running daemon that control requests are sent to.
///
/// Spawned with posix_spawn and an empty signal mask and default signal
/// actions: a test runner may block or ignore SIGUSR1/SIGUSR2, and both are
/// inherited across exec.
final class FakeDaemonProcess {
    let pid: Int32
    private var status: Int32? = nil

    init(in directory: ServiceTemporaryDirectory) throws {
        let executable = directory.path + "/tiltscrolld"
        if !FileManager.default.fileExists(atPath: executable) {
            try Self.copyExecutable("/bin/sleep", to: executable)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGUSR1, SIGUSR2, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] =
            [executable, "30"].map { (text: String) in strdup(text) } + [nil]
        defer { for argument in arguments { free(argument) } }
        // ETXTBSY: a process another test spawns at this moment may still
        // hold the copy's descriptor, for the instant between its fork and
        // its exec.
        var spawned = posix_spawn(&child, executable, nil, &attributes, arguments, environ)
        for _ in 0..<100 where spawned == ETXTBSY {
            usleep(10_000)
            spawned = posix_spawn(&child, executable, nil, &attributes, arguments, environ)
        }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        pid = child
        // posix_spawn returns once the child has let go of the parent's
        // memory in execve, a moment before the kernel gives it the new
        // name: until then its comm is still the spawning thread's (seen on
        // a loaded machine: 'oot.default-qos', a Dispatch thread), and a
        // client rightly takes it for some other process.
        for _ in 0..<400 where Self.command(of: child) != "tiltscrolld" { usleep(5_000) }
    }

    /// Copies with close-on-exec descriptors: tests run in parallel and
    /// spawn processes, and a descriptor open for writing that a child
    /// inherits past its exec keeps the copy from being run at all
    /// ("Text file busy", seen when FileManager made the copy).
    private static func copyExecutable(_ source: String, to path: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(input) }
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard output >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0 { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                return
            }
            let written = buffer.withUnsafeBytes { write(output, $0.baseAddress, count) }
            guard written == count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }

    private static func command(of pid: pid_t) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    /// The signal that ended the process, waiting for it.
    func terminatingSignal() -> Int32? {
        let status = waitForExit()
        // WIFSIGNALED / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7F
        return signal != 0 && signal != 0x7F ? signal : nil
    }

    func stop() {
        if status == nil { kill(pid, SIGKILL) }
        _ = waitForExit()
    }

    private func waitForExit() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        status = raw
        return raw
    }
}

/// The process umask, read without changing it (umask(2) would, for every thread).
func currentUmask() -> mode_t {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
        let value = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
    else { return 0o022 }
    return value
}
