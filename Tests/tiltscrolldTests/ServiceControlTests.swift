import Foundation
import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

/// A PID no process has: above the largest `pid_max` Linux allows (2^22).
private let deadPID: Int32 = 4_194_305

@Suite struct ServicePidFile {
    @Test(arguments: [
        ("123\n", 123 as Int32?), ("4194304", 4_194_304), ("", nil), ("abc\n", nil), ("0\n", nil), ("-5\n", nil),
        ("99999999999\n", nil), ("12 34\n", nil), ("+7\n", nil),
    ])
    func parsesOnlyAPositiveDecimalPID(content: String, pid: Int32?) {
        #expect(ProcessIDRecord.parsePID(Array(content.utf8)) == pid)
    }

    @Test func thePathComesFromRuntimeDirectory() {
        func path(runtimeDirectoryVariable value: String?) -> String {
            PersistedFile<ProcessIDRecord>(directory: StorageDirectory.runtime.path(environmentValue: value)).path
        }
        #expect(path(runtimeDirectoryVariable: nil) == "/run/tiltscroll/tiltscrolld.pid")
        #expect(path(runtimeDirectoryVariable: "/run/tiltscroll") == "/run/tiltscroll/tiltscrolld.pid")
        #expect(path(runtimeDirectoryVariable: "/run/a:/run/b") == "/run/a/tiltscrolld.pid")
        #expect(path(runtimeDirectoryVariable: "relative") == "/run/tiltscroll/tiltscrolld.pid")
    }

    @Test func createWritesThisProcessReadableByAll() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let file = PidFile(path: directory.path + "/run/tiltscrolld.pid")
        _ = try file.create()
        #expect(directory.read("run/tiltscrolld.pid") == "\(getpid())\n")
        #expect(directory.permissions("run/tiltscrolld.pid") == 0o644)
        #expect(directory.entries() == ["run"])
        // The test runner is not named tiltscrolld: its own file reads as stale.
        guard case .stale = file.state() else {
            Issue.record("a file naming a process that is not tiltscrolld was trusted")
            return
        }
        file.remove()
        #expect(file.state() == .absent)
    }

    @Test func aFileOfADeadProcessIsStaleAndReplaced() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try directory.write("tiltscrolld.pid", "\(deadPID)\n")
        let file = PidFile(path: directory.path + "/tiltscrolld.pid")
        guard case .stale = file.state() else {
            Issue.record("a dead process was taken for the daemon")
            return
        }
        _ = try file.create()
        #expect(directory.read("tiltscrolld.pid") == "\(getpid())\n")
    }

    @Test func aFileNamingAnotherProgramIsStale() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try directory.write("tiltscrolld.pid", "1\n")
        let file = PidFile(path: directory.path + "/tiltscrolld.pid")
        guard case .stale = file.state() else {
            Issue.record("PID 1 was taken for the daemon")
            return
        }
    }

    @Test func aLiveDaemonIsFoundAndASecondOneRefused() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let daemon = try FakeDaemonProcess(in: directory)
        defer { daemon.stop() }
        try directory.write("tiltscrolld.pid", "\(daemon.pid)\n")
        let file = PidFile(path: directory.path + "/tiltscrolld.pid")
        #expect(file.state() == .running(daemon.pid))
        #expect(throws: PidFile.CreateError.alreadyRunning(pid: daemon.pid, path: file.path)) { try file.create() }
        #expect(directory.read("tiltscrolld.pid") == "\(daemon.pid)\n")
        // Not ours to remove either.
        file.remove()
        #expect(directory.read("tiltscrolld.pid") == "\(daemon.pid)\n")

        daemon.stop()
        guard case .stale = file.state() else {
            Issue.record("the file of an exited daemon was trusted")
            return
        }
    }

    @Test func aGarbageFileIsStale() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try directory.write("tiltscrolld.pid", "not a pid\n")
        guard case .stale = PidFile(path: directory.path + "/tiltscrolld.pid").state() else {
            Issue.record("garbage was read as a PID")
            return
        }
    }
}

@Suite struct ServiceControlClient {
    @Test(arguments: [(ControlSignal.calibrate, SIGUSR1), (.toggle, SIGUSR2)])
    func theRequestReachesTheDaemonAsItsSignal(request: ControlSignal, signal: Int32) throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let daemon = try FakeDaemonProcess(in: directory)
        defer { daemon.stop() }
        try directory.write("tiltscrolld.pid", "\(daemon.pid)\n")
        let client = ControlClient(locators: [.pidFile(PidFile(path: directory.path + "/tiltscrolld.pid"))])
        #expect(try client.send(request) == daemon.pid)
        // sleep(1) does not handle SIGUSR1/2, so the signal ends it: proof it arrived.
        #expect(daemon.terminatingSignal() == signal)
    }

    @Test func systemdWithoutTheUnitFallsBackToThePidFile() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let daemon = try FakeDaemonProcess(in: directory)
        defer { daemon.stop() }
        try directory.write("tiltscrolld.pid", "\(daemon.pid)\n")
        // Without a system bus (CI) the query is unavailable; with one, this
        // unit does not exist and has no main process. Either way: next place.
        let client = ControlClient(locators: [
            .systemdUnit("tiltscroll-test-no-such-unit.service"),
            .pidFile(PidFile(path: directory.path + "/tiltscrolld.pid")),
        ])
        #expect(try client.findDaemon() == daemon.pid)
    }

    @Test func noDaemonIsReportedWithEveryPlaceLooked() {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let client = ControlClient(locators: [
            .systemdUnit("tiltscroll-test-no-such-unit.service"),
            .pidFile(PidFile(path: directory.path + "/tiltscrolld.pid")),
        ])
        guard case .notRunning(let places)? = thrownError(ControlError.self, try client.send(.calibrate)) else {
            Issue.record("a daemon was found where none runs")
            return
        }
        #expect(places.count == 2)
        #expect(places.last == "no \(directory.path)/tiltscrolld.pid")
    }

    @Test func aStalePidFileIsNotSignalled() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try directory.write("tiltscrolld.pid", "\(getpid())\n")
        let client = ControlClient(locators: [.pidFile(PidFile(path: directory.path + "/tiltscrolld.pid"))])
        // Our own PID, but we are not tiltscrolld: sending SIGUSR1 would kill the test run.
        guard case .notRunning? = thrownError(ControlError.self, try client.send(.calibrate)) else {
            Issue.record("a process that is not tiltscrolld was signalled")
            return
        }
    }

    @Test func permissionDeniedSaysToUseSudo() {
        let error = ControlError.permissionDenied(pid: 42, request: .toggle)
        #expect(error.description.contains("sudo tiltscrollctl toggle"))
    }

    @Test func requestsMapToTheDocumentedSignals() {
        #expect(ControlSignal.calibrate.signal == SIGUSR1)
        #expect(ControlSignal.toggle.signal == SIGUSR2)
    }
}
