import Foundation
import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A notify socket of the test's own: a Unix datagram socket bound to a
/// path, as systemd's is, read without blocking the test for long.
final class NotifySocketListener {
    let directory = ServiceTemporaryDirectory()
    let path: String
    private let fd: Int32

    init() {
        path = directory.path + "/notify"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        precondition(fd >= 0, "socket: \(errno)")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            precondition(bytes.count < raw.count, "socket path too long")
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        precondition(bound == 0, "bind \(path): \(errno)")
    }

    deinit {
        close(fd)
        directory.remove()
    }

    /// Discards datagrams left by an earlier test.
    func drain() {
        while receive(timeout: 0) != nil {}
    }

    /// The next datagram, or nil if none arrives within `timeout` seconds.
    func receive(timeout: Double = 2) -> String? {
        var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pollFD, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}

/// sd_notify(3) reads `$NOTIFY_SOCKET` itself, so these tests set it in the
/// process environment; they run one at a time, and no other test reads it.
///
/// Other suites run in parallel and glibc's getenv is not safe against a
/// setenv that adds a variable (the array may be reallocated), so the three
/// variables are added once, together, and afterwards only overwritten in
/// place, never unset.
@Suite(.serialized) struct ServiceNotifierProtocol {
    nonisolated(unsafe) static let listener: NotifySocketListener = {
        let listener = NotifySocketListener()
        setenv("NOTIFY_SOCKET", listener.path, 1)
        setenv("WATCHDOG_USEC", "0", 1)
        setenv("WATCHDOG_PID", "0", 1)
        return listener
    }()

    private func withListener(_ body: (NotifySocketListener) throws -> Void) rethrows {
        let listener = Self.listener
        setenv("NOTIFY_SOCKET", listener.path, 1)
        listener.drain()
        try body(listener)
    }

    @Test func readySendsReadyWithTheStatus() {
        withListener { listener in
            let notifier = ServiceNotifier(now: 0)
            #expect(notifier.isEnabled)
            notifier.ready(status: "Scrolling with accel_3d (display)")
            #expect(listener.receive() == "READY=1\nSTATUS=Scrolling with accel_3d (display)")
        }
    }

    @Test func statusIsOneLineEvenForAMultiLineError() {
        withListener { listener in
            let notifier = ServiceNotifier(now: 0)
            notifier.status("Reload failed: /etc/tiltscroll.conf line 7:\nSpeed must be a number")
            #expect(listener.receive() == "STATUS=Reload failed: /etc/tiltscroll.conf line 7: Speed must be a number")
        }
    }

    @Test func reloadingCarriesTheMonotonicTime() throws {
        try withListener { listener in
            let notifier = ServiceNotifier(now: 0)
            notifier.reloading(monotonicMicroseconds: 1_234_567_890)
            #expect(listener.receive() == "RELOADING=1\nMONOTONIC_USEC=1234567890")

            let before = SystemdMonotonicTime.microseconds()
            notifier.reloading()
            let after = SystemdMonotonicTime.microseconds()
            let message = try #require(listener.receive())
            let lines = message.split(separator: "\n")
            #expect(lines.first == "RELOADING=1")
            let stamp = try #require(lines.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
            #expect(before <= stamp && stamp <= after)
        }
    }

    @Test func stoppingSendsStopping() {
        withListener { listener in
            ServiceNotifier(now: 0).stopping()
            #expect(listener.receive() == "STOPPING=1")
        }
    }

    @Test func theWatchdogIsPingedAtHalfItsInterval() {
        withListener { listener in
            var notifier = ServiceNotifier(
                environment: .init(notifySocket: listener.path, watchdogInterval: 10), now: 100)
            #expect(notifier.watchdogInterval == 10)
            #expect(notifier.nextWatchdogPing == 105)

            notifier.pingWatchdogIfDue(now: 104.9)
            #expect(listener.receive(timeout: 0.1) == nil)
            #expect(notifier.nextWatchdogPing == 105)

            notifier.pingWatchdogIfDue(now: 105.2)
            #expect(listener.receive() == "WATCHDOG=1")
            #expect(notifier.nextWatchdogPing == 110.2)

            notifier.pingWatchdogIfDue(now: 106)
            #expect(listener.receive(timeout: 0.1) == nil)
        }
    }

    @Test func withoutASocketNothingIsSentAndThereIsNoWatchdog() {
        withListener { listener in
            var notifier = ServiceNotifier(environment: .init(notifySocket: nil, watchdogInterval: 10), now: 0)
            #expect(!notifier.isEnabled)
            #expect(notifier.watchdogInterval == nil)
            #expect(notifier.nextWatchdogPing == nil)
            notifier.ready(status: "x")
            notifier.status("x")
            notifier.reloading()
            notifier.stopping()
            notifier.pingWatchdogIfDue(now: 1000)
            // The environment still names the listener: had the gate let
            // anything through, sd_notify would have delivered it there.
            #expect(listener.receive(timeout: 0.2) == nil)
        }
    }

    @Test func theEnvironmentIsReadAsSystemdSetsIt() {
        _ = Self.listener
        setenv("NOTIFY_SOCKET", "", 1)
        setenv("WATCHDOG_USEC", "0", 1)
        #expect(ServiceNotifier.Environment.current() == .init(notifySocket: nil, watchdogInterval: nil))

        setenv("NOTIFY_SOCKET", "/run/systemd/notify", 1)
        setenv("WATCHDOG_USEC", "30000000", 1)
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        #expect(
            ServiceNotifier.Environment.current() == .init(notifySocket: "/run/systemd/notify", watchdogInterval: 30))

        // The watchdog belongs to another process (a parent that forked us).
        setenv("WATCHDOG_PID", "\(getppid())", 1)
        #expect(ServiceNotifier.Environment.current().watchdogInterval == nil)

        setenv("WATCHDOG_USEC", "0", 1)
        setenv("WATCHDOG_PID", "0", 1)
        setenv("NOTIFY_SOCKET", "", 1)
    }

    @Test func messagesAreExact() {
        #expect(
            ServiceNotifier.readyMessage(status: "Idle: no accelerometer") == "READY=1\nSTATUS=Idle: no accelerometer")
        #expect(ServiceNotifier.singleLine("a\r\nb\tc\u{7f}\u{1b}[2J") == "a  b c\\x7f\\x1b[2J")
    }
}
