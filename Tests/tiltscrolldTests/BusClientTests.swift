import Foundation
import Glibc
import Testing

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
    let controls = RecordingControls()

    init() throws {
        bus = try PrivateSystemBus()
        daemonSide = try BusConnection.open(address: bus.address)
        service = try BusService.start(on: daemonSide, properties: .sample, controls: controls)
        controls.service = service
        #expect(BusPump.run([daemonSide]) { service.ownsName != nil })
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
        let finished = BusPump.run([daemonSide], seconds: 20) { thread.result != nil }
        #expect(finished, "the client returned")
        return thread.result ?? .failure(.failed(BusError(name: "test", message: "no answer")))
    }

    @Test func statusReadsEveryProperty() throws {
        let status = try client { (c) throws(ClientError) in try c.status() }.get()
        #expect(
            status
                == DaemonStatus(
                    enabled: true, sensitivity: 1, active: true, state: "active",
                    stateReason: "scrolling with kxcjk1013", tabletMode: "unknown", sensorName: "kxcjk1013",
                    sensorPath: "/sys/devices/i2c-0/0-000f/iio:device0", orientation: "normal",
                    version: Commands.version))
    }

    @Test func toggleSwitchesToTheOppositeOfWhatItReads() throws {
        let now = try client { (c) throws(ClientError) in try c.toggle() }.get()
        #expect(now == false)
        #expect(controls.enabledWrites.map(\.0) == [false])
        let again = try client { (c) throws(ClientError) in try c.toggle() }.get()
        #expect(again == true)
    }

    @Test func calibrateWhileNotActiveSaysSo() {
        controls.calibrateRefusal = BusError(name: BusError.notActive, message: "Tilt scrolling is off")
        let result = client { (c) throws(ClientError) in try c.calibrate() }
        #expect(throws: ClientError.refused(controls.calibrateRefusal!)) { try result.get() }
        #expect("\(ClientError.refused(controls.calibrateRefusal!))" == "Tilt scrolling is off")
    }

    @Test func anOutOfRangeSensitivityIsTheDaemonsInvalidArgs() {
        let result = client { (c) throws(ClientError) in try c.setSensitivity(12) }
        guard case .failure(.failed(let error)) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(error.name == BusError.invalidArguments)
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
        status.state = "active"
        status.stateReason = "say \"hi\"\\\n\u{1}"
        status.version = "0.1.0"
        #expect(
            status.json()
                == #"{"Enabled": false, "Sensitivity": 0.0, "Active": false, "State": ["active", "say \"hi\"\\\n\u0001"], "TabletMode": "", "Sensor": ["", ""], "Orientation": "", "Version": "0.1.0"}"#
                + "\n")
    }
}
