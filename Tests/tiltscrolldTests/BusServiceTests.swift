import CSystemd
import Foundation
import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// The bus service on a real dbus-daemon with the project's policy file.
/// The test runs as root, which is always allowed: the uid is asked of the
/// bus driver and polkit is not consulted (the polkit path runs against the
/// real polkitd in Tests/service).
@Suite(.serialized) final class BusServiceOnARealBus {
    let bus: PrivateSystemBus
    let daemonSide: BusConnection
    let service: BusService
    let loop: RecordingLoop

    init() throws {
        bus = try PrivateSystemBus()
        daemonSide = try BusConnection.open(address: bus.address)
        service = try BusService.start(on: daemonSide, snapshot: .sample)
        loop = RecordingLoop(service: service)
        let owned = BusPump.run([loop]) { service.ownsName != nil }
        #expect(owned && service.ownsName == true, "the policy file lets root own the name")
    }

    deinit {
        service.close()
        bus.stop()
    }

    func busctl(_ arguments: String...) -> (status: Int32, output: String) {
        BusPump.busctl(arguments, on: bus, serving: [loop])
    }

    @Test func theInterfaceIsTheContractsMemberForMember() throws {
        let result = busctl("introspect", "--xml-interface", BusInterface.name, BusInterface.path)
        #expect(result.status == 0, "\(result.output)")
        let served = InterfaceMembers(xml: result.output, interface: BusInterface.interface)
        let contract = InterfaceMembers(
            xml: try String(contentsOfFile: PrivateSystemBus.contractFile, encoding: .utf8),
            interface: BusInterface.interface)
        #expect(!contract.properties.isEmpty && !contract.methods.isEmpty)
        #expect(served.properties == contract.properties)
        #expect(served.methods == contract.methods, "\(result.output)")
    }

    @Test func idleTheBusAsksForNoWakeUp() {
        // Settled: the name is owned and nothing of the daemon's awaits a reply.
        BusPump.run([loop], seconds: 0.2) { false }
        #expect(daemonSide.deadline(now: 100) == nil)
        #expect(daemonSide.events == Int16(POLLIN))
    }

    @Test func propertiesReadAsPublished() {
        let state = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "State")
        #expect(
            state.output
                == "(ss) \"active\" \"Scrolling with kxcjk1013 (poll capture); holding: in a hand, tilt scrolls\"\n",
            "status \(state.status)")
        let sensor = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Sensor")
        #expect(sensor.output == "(ss) \"kxcjk1013\" \"/sys/devices/i2c-0/0-000f/iio:device0\"\n")
        let version = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Version")
        #expect(version.output == "s \"\(DaemonVersion.string)\"\n")
    }

    @Test func rootSwitchesItOffAndTheNewValueReadsBack() {
        let set = busctl(
            "set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Enabled", "b", "false")
        #expect(set.status == 0, "\(set.output)")
        #expect(loop.enabledWrites.map(\.on) == [false])
        #expect(loop.enabledWrites.first?.by.contains("uid 0") == true)
        let read = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Enabled")
        #expect(read.output == "b false\n")
    }

    @Test func aSensitivityOutOfRangeIsRefusedWithInvalidArgs() {
        for bad in ["9", "0.1", "nan", "-1"] {
            let set = busctl(
                "--", "set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Sensitivity", "d",
                bad)
            #expect(set.status != 0 && set.output.contains("Sensitivity must be a number from 0.25 to 4"), "\(bad)")
        }
        #expect(loop.sensitivityWrites.isEmpty)
        let good = busctl(
            "set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Sensitivity", "d", "0.5")
        #expect(good.status == 0, "\(good.output)")
        #expect(loop.sensitivityWrites == [0.5])
    }

    @Test func calibrateReachesTheDaemonAndItsRefusalTheCaller() {
        #expect(busctl("call", BusInterface.name, BusInterface.path, BusInterface.interface, "Calibrate").status == 0)
        #expect(loop.calibrations == 1)
        loop.calibrateRefusal = BusError(name: BusError.notActive, message: "Tilt scrolling is not active")
        let refused = busctl("call", BusInterface.name, BusInterface.path, BusInterface.interface, "Calibrate")
        #expect(refused.status != 0 && refused.output.contains("Tilt scrolling is not active"), "\(refused.output)")
        #expect(loop.calibrations == 1)
    }

    @Test func garbageGetsErrorsAndTheServiceGoesOn() {
        let attempts: [[String]] = [
            ["set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Enabled", "s", "yes"],
            ["set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Active", "b", "true"],
            ["set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Nope", "b", "true"],
            ["get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Nope"],
            ["call", BusInterface.name, BusInterface.path, BusInterface.interface, "Nope"],
            ["call", BusInterface.name, BusInterface.path, BusInterface.interface, "Calibrate", "s", "now"],
            ["call", BusInterface.name, BusInterface.path, BusInterface.interface, "Calibrate", "s", hugeString],
            ["call", BusInterface.name, "/io/github/tiltscroll/Other", BusInterface.interface, "Calibrate"],
            [
                "call", BusInterface.name, BusInterface.path, "org.freedesktop.DBus.Properties", "Set", "ssv",
                BusInterface.interface, "Enabled", "i", "1",
            ],
        ]
        for arguments in attempts {
            let result = BusPump.busctl(arguments, on: bus, serving: [loop])
            // busctl's status for a call answered with an error.
            #expect(result.status == 1, "\(arguments.prefix(6)) answered \(result.output.prefix(200))")
        }
        #expect(loop.enabledWrites.isEmpty && loop.calibrations == 0)
        let alive = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Active")
        #expect(alive.output == "b true\n")
    }

    @Test func anErrnoAnsweredToACallerKeepsTheServiceOnTheBus() {
        // What the daemon answers when a libsystemd call fails inside a
        // request: an errno, which once went out as "System.Error.5", a
        // name the bus refuses, and dbus-daemon dropped the connection.
        loop.calibrateRefusal = BusError.system(-EIO, "dispatch the change")
        let refused = busctl("call", BusInterface.name, BusInterface.path, BusInterface.interface, "Calibrate")
        #expect(refused.status != 0 && refused.output.contains("Input/output error"), "\(refused.output)")
        loop.calibrateRefusal = nil
        let owner = busctl(
            "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s",
            BusInterface.name)
        #expect(owner.output == "b true\n", "the daemon keeps its name: \(owner.output)")
        #expect(busctl("call", BusInterface.name, BusInterface.path, BusInterface.interface, "Calibrate").status == 0)
        #expect(loop.calibrations == 1)
    }

    @Test func aWriteIsAppliedBeforeTheNextMessageIsAnswered() {
        // The service stops processing after a request, so a read that
        // follows the write sees what the loop made of it.
        let set = busctl(
            "set-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Enabled", "b", "false")
        #expect(set.status == 0)
        let read = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Enabled")
        #expect(read.output == "b false\n")
    }

    @Test func monitorAnswersWithAStreamDescriptor() throws {
        let result = busctl("call", BusInterface.name, BusInterface.path, BusInterface.interface, "Monitor")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.hasPrefix("h "), "\(result.output)")
        #expect(loop.monitorStreams.count == 1)
        for stream in loop.monitorStreams { stream.close() }
    }

    /// Near the longest argument exec takes (128 KiB).
    let hugeString = String(repeating: "x", count: 120_000)

    @Test func hugeMessagesGetErrorsAndTheServiceGoesOn() throws {
        let client = try BusConnection.open(address: bus.address)
        defer { client.close() }
        let replies = ReplyCounter()
        let huge = String(repeating: "\u{1b}[2J", count: 1 << 20)  // 4 MiB of terminal escapes
        for member in ["Calibrate", "Nope"] {
            let call = try client.methodCall(
                destination: BusInterface.name, path: BusInterface.path, interface: BusInterface.interface,
                member: member)
            defer { sd_bus_message_unref(call.pointer) }
            try call.append(huge)
            _ = try client.callAsync(
                call, timeoutMicroseconds: 25_000_000, userdata: Unmanaged.passUnretained(replies).toOpaque(),
                callback: ReplyCounter.callback)
        }
        let set = try client.methodCall(
            destination: BusInterface.name, path: BusInterface.path, interface: "org.freedesktop.DBus.Properties",
            member: "Set")
        defer { sd_bus_message_unref(set.pointer) }
        try set.append(BusInterface.interface)
        try set.append(huge)
        try set.open("v", "s")
        try set.append(huge)
        try set.close()
        _ = try client.callAsync(
            set, timeoutMicroseconds: 25_000_000, userdata: Unmanaged.passUnretained(replies).toOpaque(),
            callback: ReplyCounter.callback)
        #expect(BusPump.run([loop, client], seconds: 30) { replies.total == 3 })
        #expect(replies.refused == 3, "\(replies.errorNames)")
        #expect(loop.calibrations == 0)
        let alive = busctl("get-property", BusInterface.name, BusInterface.path, BusInterface.interface, "Active")
        #expect(alive.output == "b true\n")
    }

    /// Sends `count` writes of distinct sensitivities without waiting, and
    /// processes until each is answered.
    func pipelineSensitivityWrites(_ count: Int) throws -> (values: [Double], replies: ReplyCounter) {
        let client = try BusConnection.open(address: bus.address)
        defer { client.close() }
        let replies = ReplyCounter()
        let values = (0..<count).map { 0.25 + Double($0) * 0.01 }
        for value in values {
            let call = try client.methodCall(
                destination: BusInterface.name, path: BusInterface.path, interface: "org.freedesktop.DBus.Properties",
                member: "Set")
            defer { sd_bus_message_unref(call.pointer) }
            try call.append(BusInterface.interface)
            try call.append("Sensitivity")
            try call.open("v", "d")
            try call.append(value)
            try call.close()
            _ = try client.callAsync(
                call, timeoutMicroseconds: 25_000_000, userdata: Unmanaged.passUnretained(replies).toOpaque(),
                callback: ReplyCounter.callback)
        }
        let answered = BusPump.run([loop, client], seconds: 30) { replies.total == values.count }
        #expect(answered, "\(replies.total) of \(values.count) answered")
        return (values, replies)
    }

    @Test func pipelinedChangesApplyOnceEachInTheOrderSent() throws {
        let (values, replies) = try pipelineSensitivityWrites(AuthorizationQueue.perCallerLimit)
        #expect(replies.succeeded == values.count, "\(replies.errorNames)")
        #expect(loop.sensitivityWrites == values)
    }

    @Test func beyondTheLimitChangesAreRefusedNotLostNorDoubled() throws {
        let (values, replies) = try pipelineSensitivityWrites(200)
        #expect(
            replies.refused > 0, "200 at once exceed the \(AuthorizationQueue.perCallerLimit) a caller may have waiting"
        )
        #expect(replies.errorNames.allSatisfy { $0 == BusError.limitsExceeded }, "\(Set(replies.errorNames))")
        #expect(loop.sensitivityWrites.count == replies.succeeded)
        #expect(Set(loop.sensitivityWrites).count == loop.sensitivityWrites.count, "none applied twice")
        #expect(loop.sensitivityWrites == loop.sensitivityWrites.sorted(), "in the order sent")
        #expect(Set(loop.sensitivityWrites).isSubset(of: values))
    }

    @Test func propertiesChangedOncePerChangeNamingWhatChanged() throws {
        let client = try BusConnection.open(address: bus.address)
        defer { client.close() }
        let signals = SignalRecorder()
        var slot: OpaquePointer? = nil
        let match =
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(BusInterface.path)'"
        let added = sd_bus_add_match_async(
            client.bus, &slot, match, SignalRecorder.callback, SignalRecorder.installed,
            Unmanaged.passUnretained(signals).toOpaque())
        #expect(added >= 0)
        defer { sd_bus_slot_unref(slot) }
        #expect(BusPump.run([loop, client]) { signals.matchInstalled })

        service.publish(.sample)  // nothing changed
        var moved = DaemonSnapshot.sample
        moved.orientation = .leftUp
        moved.phase = .active(.poll, .resting)
        service.publish(moved)
        service.publish(moved)  // again: nothing changed
        #expect(BusPump.run([loop, client]) { signals.changed.count >= 1 })
        BusPump.run([loop, client], seconds: 0.3) { false }
        #expect(signals.changed == [["State", "Orientation"]])
    }
}

/// Counts the replies to pipelined calls.
final class ReplyCounter {
    var succeeded = 0
    var refused = 0
    var errorNames: [String] = []
    var total: Int { succeeded + refused }

    static let callback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let counter = Unmanaged<ReplyCounter>.fromOpaque(userdata).takeUnretainedValue()
        if let error = BusMessage(message).error {
            counter.refused += 1
            counter.errorNames.append(error.name)
        } else {
            counter.succeeded += 1
        }
        return 1
    }
}

/// Records the names each PropertiesChanged signal lists as changed.
final class SignalRecorder {
    var changed: [[String]] = []
    var matchInstalled = false

    static let installed: sd_bus_message_handler_t = { _, userdata, _ in
        guard let userdata else { return 0 }
        Unmanaged<SignalRecorder>.fromOpaque(userdata).takeUnretainedValue().matchInstalled = true
        return 1
    }

    static let callback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let recorder = Unmanaged<SignalRecorder>.fromOpaque(userdata).takeUnretainedValue()
        let signal = BusMessage(message)
        var names: [String] = []
        do throws(BusError) {
            _ = try signal.readString()
            try signal.enter("a", "{sv}")
            while sd_bus_message_enter_container(message, CChar(bitPattern: UInt8(ascii: "e")), "sv") > 0 {
                names.append(try signal.readString())
                try signal.skip("v")
                try signal.exit()
            }
        } catch {
            names.append("unreadable: \(error)")
        }
        recorder.changed.append(names)
        return 1
    }
}

/// The properties and methods of one interface in introspection XML.
struct InterfaceMembers: Equatable {
    var properties: [String: String] = [:]  // name -> "type access"
    var methods: Set<String> = []

    init(xml: String, interface: String) {
        guard let start = xml.range(of: "<interface name=\"\(interface)\">"),
            let end = xml.range(of: "</interface>", range: start.upperBound..<xml.endIndex)
        else { return }
        let body = String(xml[start.upperBound..<end.lowerBound])
        let property = try! Regex(#"<property name="([A-Za-z]+)" type="([^"]+)" access="([a-z]+)""#)
        for match in body.matches(of: property) {
            properties[String(match.output[1].substring!)] =
                "\(match.output[2].substring!) \(match.output[3].substring!)"
        }
        let method = try! Regex(#"<method name="([A-Za-z]+)""#)
        for match in body.matches(of: method) { methods.insert(String(match.output[1].substring!)) }
    }
}
