import CSystemd
import Foundation
import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A dbus-daemon of the test's own, configured like the system bus (nothing
/// may be owned or called unless a policy allows it) plus the project's
/// policy file, dbus/io.github.tiltscroll.TiltScroll1.conf, as installed:
/// Tests/dbus/system-bus-policy.conf, which every private system bus of the
/// tests includes.
final class PrivateSystemBus {
    let directory = ServiceTemporaryDirectory()
    let process = Process()
    var address: String { "unix:path=\(directory.path)/bus" }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let policyFile = repository + "/dbus/io.github.tiltscroll.TiltScroll1.conf"
    static let contractFile = repository + "/dbus/io.github.tiltscroll.TiltScroll1.xml"
    static let systemPolicyFile = repository + "/Tests/dbus/system-bus-policy.conf"

    init() throws {
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(directory.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <include>\(PrivateSystemBus.systemPolicyFile)</include>
            </busconfig>
            """
        try directory.write("bus.conf", configuration)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--nofork", "--nopidfile", "--config-file=\(directory.path)/bus.conf"]
        // dbus-daemon tells systemd READY=1 where NOTIFY_SOCKET points, and
        // the notifier's tests point it at their listener.
        process.environment = PrivateSystemBus.childEnvironment
        // Its complaints (fd limits in a container, reply limits reached on
        // purpose) are no test output; and it must not hold the runner's
        // output open, which swift test waits on to its end.
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Ready once it accepts a connection: the socket file exists from
        // bind(2) on, a moment before listen(2), and a connect in between
        // is refused (seen on a loaded machine).
        let deadline = Date().addingTimeInterval(10)
        while !PrivateSystemBus.accepts(path: directory.path + "/bus") {
            guard Date() < deadline, process.isRunning else { throw BusError.system(-ETIMEDOUT, "start dbus-daemon") }
            usleep(10_000)
        }
    }

    /// Whether a stream socket at `path` accepts a connection now.
    static func accepts(path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return connected == 0
    }

    /// The test's environment without what makes a systemd-aware program
    /// report to a notify socket: the notifier's tests point NOTIFY_SOCKET at
    /// their listener, and dbus-daemon (READY=1) and busctl (ERRNO=) report.
    static var childEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"].contains($0.key)
        }
    }

    func stop() {
        if process.isRunning {
            // SIGKILL: the test runner's blocked signals are inherited, SIGTERM may be among them.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        directory.remove()
    }

    /// A suite whose set-up failed after starting the bus never calls
    /// `stop`: the bus goes with this object, not on running after the tests.
    deinit { stop() }
}

/// A connection a test drives: a client's `BusConnection`, or the daemon's
/// side as its loop would drive it (`RecordingLoop`).
protocol BusPumped: AnyObject {
    var descriptor: FileDescriptor { get }
    var events: Int16 { get }
    func deadline(now: Double) -> Double?
    func pump()
}

extension BusConnection: BusPumped {
    func pump() { try? process() }
}

/// Drives connections the way the daemon's loop does (poll, then process)
/// until a condition holds.
enum BusPump {
    /// Polls and processes `connections` until `done()` or `seconds` pass;
    /// false on timeout.
    @discardableResult
    static func run(_ connections: [BusPumped], seconds: Double = 10, until done: () -> Bool) -> Bool {
        let deadline = DaemonClock.now() + seconds
        while !done() {
            let now = DaemonClock.now()
            guard now < deadline else { return false }
            var entries = connections.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events, revents: 0) }
            var wake = deadline
            for connection in connections { wake = min(wake, connection.deadline(now: now) ?? wake) }
            let timeout = Int32(max(0, min(100, ((wake - now) * 1000).rounded(.up))))
            _ = poll(&entries, nfds_t(entries.count), timeout)
            for connection in connections { connection.pump() }
        }
        return true
    }

    /// Runs `busctl` against `bus` while processing `connections`; its
    /// output and exit status.
    static func busctl(_ arguments: [String], on bus: PrivateSystemBus, serving connections: [BusPumped]) -> (
        status: Int32, output: String
    ) {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        process.arguments = ["--address=\(bus.address)"] + arguments
        process.environment = PrivateSystemBus.childEnvironment
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else {
            Issue.record("busctl did not start")
            return (-1, "")
        }
        var output = Data()
        let reader = pipe.fileHandleForReading
        let collected = run(connections, seconds: 20) { !process.isRunning }
        if !collected {
            Issue.record("busctl \(arguments.prefix(5)) did not finish within 20 s")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        output.append(reader.readDataToEndOfFile())
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

/// The daemon's side of the bus service in a test: processes the service as
/// the loop does and applies what callers asked for by recording it (a
/// switch also changes the published snapshot, as the daemon's would).
final class RecordingLoop: BusPumped {
    let service: BusService
    var snapshot = DaemonSnapshot.sample
    var enabledWrites: [(on: Bool, by: String)] = []
    var sensitivityWrites: [Double] = []
    var calibrations = 0
    /// What `Calibrate` is answered with instead of success.
    var calibrateRefusal: BusError?
    /// What `Monitor` callers got: the read ends, which the test closes.
    var monitorStreams: [FileDescriptor] = []

    init(service: BusService) { self.service = service }

    var descriptor: FileDescriptor { service.descriptor }
    var events: Int16 { service.events }
    func deadline(now: Double) -> Double? { service.deadline(now: now) }

    func pump() {
        var requests: [ControlRequest] = []
        try? service.process(into: &requests)
        for request in requests {
            switch request {
            case .change(.enabled(let on), let who):
                enabledWrites.append((on, who))
                snapshot.controls.enabled = on
                service.publish(snapshot)
            case .change(.sensitivity(let factor), _):
                sensitivityWrites.append(factor)
            case .calibrate(_, let reply):
                if let calibrateRefusal {
                    reply?.refused(calibrateRefusal)
                } else {
                    calibrations += 1
                    reply?.succeeded()
                }
            case .watch(_, let reply):
                do {
                    let ends = try FileDescriptor.pipe()
                    reply.attached(ends.read)
                    ends.read.close()
                    monitorStreams.append(ends.write)
                } catch {
                    reply.refused(BusError.system(-error.code.rawValue, "pipe"))
                }
            case .toggle, .reload, .stop:
                break
            }
        }
    }
}

extension DaemonSnapshot {
    static let sample = DaemonSnapshot(
        phase: .active(.poll, .holding),
        sensor: SensorIdentity(name: "kxcjk1013", path: "/sys/devices/i2c-0/0-000f/iio:device0"),
        controls: UserControls(enabled: true, sensitivity: 1), tabletMode: nil, orientation: .normal)
}
