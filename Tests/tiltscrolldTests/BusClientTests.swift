import Foundation
import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

/// A blocking client on a thread of its own, while the test's thread runs
/// the service as the daemon's loop would.
final class ClientThread<Result>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result?

    init(_ body: @escaping @Sendable () -> Result) {
        Thread.detachNewThread { [self] in
            let value = body()
            lock.withLock { outcome = value }
        }
    }

    var result: Result? { lock.withLock { outcome } }
}

@Suite(.serialized) final class BusClientOnARealBus {
    let bus: PrivateSystemBus
    let daemonSide: BusConnection
    let service: BusService
    let loop: RecordingLoop

    init() throws {
        bus = try PrivateSystemBus()
        daemonSide = try BusConnection.open(address: bus.address)
        service = try BusService.start(on: daemonSide, snapshot: .sample)
        loop = RecordingLoop(service: service)
        #expect(BusPump.run([loop]) { service.ownsName != nil })
    }

    deinit {
        service.close()
        bus.stop()
    }

    /// Runs `command` with a client on the private bus while serving it.
    func client<T>(_ command: @escaping @Sendable (BusClient) throws(ClientError) -> T) -> Swift.Result<T, ClientError>
    {
        let address = bus.address
        let thread = ClientThread { () -> Swift.Result<T, ClientError> in
            do throws(ClientError) {
                let client = try BusClient.connect(address: address)
                return .success(try command(client))
            } catch {
                return .failure(error)
            }
        }
        let finished = BusPump.run([loop], seconds: 20) { thread.result != nil }
        #expect(finished, "the client returned")
        return thread.result ?? .failure(.failed(BusError(name: "test", message: "no answer")))
    }

    @Test func statusReadsEveryProperty() throws {
        let status = try client { (c) throws(ClientError) in try c.status() }.get()
        #expect(
            status.values == [
                "Enabled": .boolean(true), "Sensitivity": .number(1), "Active": .boolean(true),
                "State": .pair("active", "Scrolling with kxcjk1013 (poll capture); holding: in a hand, tilt scrolls"),
                "TabletMode": .text("unknown"), "TabletModeSource": .text("none"),
                "Sensor": .pair("kxcjk1013", "/sys/devices/i2c-0/0-000f/iio:device0"), "BaseSensor": .pair("", ""),
                "Orientation": .text("normal"),
                "Version": .text(DaemonVersion.string),
            ])
        #expect(Set(status.values.keys) == Set(BusProperty.all.map(\.name)), "every property of the table")
    }

    @Test func toggleSwitchesToTheOppositeOfWhatItReads() throws {
        let now = try client { (c) throws(ClientError) in try c.toggle() }.get()
        #expect(now == false)
        #expect(loop.enabledWrites.map(\.on) == [false])
        let again = try client { (c) throws(ClientError) in try c.toggle() }.get()
        #expect(again == true)
    }

    @Test func calibrateWhileNotActiveSaysSo() {
        loop.calibrateRefusal = BusError(name: BusError.notActive, message: "Tilt scrolling is off")
        let result = client { (c) throws(ClientError) in try c.calibrate() }
        #expect(throws: ClientError.refused(loop.calibrateRefusal!)) { try result.get() }
        #expect("\(ClientError.refused(loop.calibrateRefusal!))" == "Tilt scrolling is off")
    }

    @Test func anOutOfRangeSensitivityIsTheDaemonsInvalidArgs() {
        let result = client { (c) throws(ClientError) in try c.setSensitivity(12) }
        guard case .failure(.failed(let error)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(error.name == BusError.invalidArguments)
    }

    @Test func monitorGivesAStreamOfTheDaemonsRecords() throws {
        let stream = try client { (c) throws(ClientError) in try c.monitor() }.get()
        defer { stream.close() }
        #expect(loop.monitorStreams.count == 1)
        let record = MonitorRecord(
            state: "Scrolling with kxcjk1013", device: "kxcjk1013 (poll capture)", settings: ScrollSettings())
        try loop.monitorStreams[0].writeAll(Array((record.encoded + "\n").utf8))
        var lines = LineBuffer()
        #expect(try lines.read(from: stream) == false)
        let last = lines.takeLast()
        let line = try #require(last)
        #expect(try MonitorRecord(parsing: line[...]) == record)
        loop.monitorStreams[0].close()
        #expect(try lines.read(from: stream) == true, "the end of the stream when the daemon lets go")
    }

    @Test func withoutTheDaemonTheClientSaysItIsNotRunning() throws {
        service.close()
        let result = client { (c) throws(ClientError) in try c.status() }
        #expect(throws: ClientError.notRunning) { try result.get() }
    }
}

@Suite struct ClientMessages {
    @Test func eachFailureSaysWhatHappened() {
        #expect("\(ClientError.notRunning)".hasPrefix("tiltscrolld is not running"))
        let denied = BusError(name: BusError.accessDenied, message: "polkit does not grant io.github.tiltscroll.switch")
        #expect("\(ClientError.refused(denied))" == "not authorized: polkit does not grant io.github.tiltscroll.switch")
        let noPolkit = BusError(name: BusError.polkitUnavailable, message: "Cannot ask polkit")
        #expect("\(ClientError.refused(noPolkit))" == "polkit is not available: Cannot ask polkit")
        #expect(BusClient.classify(BusError(name: BusError.serviceUnknown, message: "")) == .notRunning)
        #expect(BusClient.classify(denied) == .refused(denied))
    }

    @Test func statusAsJSONEscapesWhatItQuotes() {
        var status = DaemonStatus()
        status.values = [
            "Enabled": .boolean(false), "Sensitivity": .number(0.5), "State": .pair("active", "say \"hi\"\\\n\u{1}"),
            "Sensor": .pair("", ""), "Version": .text("0.1.0"), "Unknown": .text("x"),
        ]
        #expect(
            status.json()
                == #"{"Enabled": false, "Sensitivity": 0.5, "State": ["active", "say \"hi\"\\\n\u0001"], "Sensor": ["", ""], "Version": "0.1.0"}"#
                + "\n")
    }

    @Test func statusForPeopleFollowsTheTable() {
        var status = DaemonStatus()
        for property in BusProperty.all { status.values[property.name] = property.read(.sample) }
        #expect(
            status.rendered() == """
                Enabled:     yes
                Sensitivity: 1.0 (a factor on [Scroll] Speed=)
                Active:      yes
                State:       active (Scrolling with kxcjk1013 (poll capture); holding: in a hand, tilt scrolls)
                Tablet mode: unknown
                Mode source: nothing (no tablet-mode switch, or When= does not ask)
                Sensor:      kxcjk1013 (/sys/devices/i2c-0/0-000f/iio:device0)
                Base sensor: none
                Orientation: normal
                Version:     \(DaemonVersion.string)

                """)
    }
}
