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
            try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: executable)
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
        let spawned = posix_spawn(&child, executable, nil, &attributes, arguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        pid = child
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
