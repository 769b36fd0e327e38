import CSystemd
import Glibc
import TiltScrollCommon

/// Why a command of `tiltscrollctl` to the running daemon (toggle, enable,
/// disable, calibrate, status, monitor) did not happen, in words that say
/// what to do.
enum ClientError: Error, Equatable, CustomStringConvertible {
    /// No system bus to talk over.
    case noBus(String)
    /// Nothing owns the daemon's name: it is not running (or runs without its bus policy).
    case notRunning
    /// The daemon (or the bus) refused; its error says why.
    case refused(BusError)
    /// Anything else that failed on the way.
    case failed(BusError)

    var description: String {
        switch self {
        case .noBus(let why):
            return "cannot reach the system bus (\(why)), so tiltscrolld cannot be asked"
        case .notRunning:
            return
                "tiltscrolld is not running (nothing owns \(BusInterface.name) on the system bus; "
                + "it starts when an accelerometer appears: systemctl status tiltscrolld)"
        case .refused(let error) where error.name == BusError.polkitUnavailable:
            return "polkit is not available: \(error.message)"
        case .refused(let error) where error.name == BusError.notActive:
            return "\(error.message)"
        case .refused(let error):
            return "not authorized: \(error.message)"
        case .failed(let error):
            return "tiltscrolld did not do it: \(error)"
        }
    }
}

/// What `tiltscrollctl status` shows: the daemon's properties as it
/// published them, by member name. A member a newer daemon added is kept
/// as it came.
struct DaemonStatus: Equatable {
    var values: [String: BusValue] = [:]

    subscript(_ member: String) -> BusValue? { values[member] }

    var enabled: Bool {
        if case .boolean(let on)? = values["Enabled"] { return on }
        return false
    }
}

/// The command line's side of the bus: one blocking call at a time, which a
/// command line may make (the daemon's loop never does).
final class BusClient {
    /// How long the daemon may take to answer, including its polkit check.
    static let timeoutMicroseconds: UInt64 = 30_000_000

    private let bus: OpaquePointer

    private init(bus: OpaquePointer) { self.bus = bus }

    deinit { sd_bus_flush_close_unref(bus) }

    /// Connects to the system bus, or to the bus at `address`.
    static func connect(address: String? = nil) throws(ClientError) -> BusClient {
        let connection: BusConnection
        do {
            connection = try BusConnection.open(address: address)
        } catch {
            throw .noBus(error.message)
        }
        guard let bus = connection.detach() else { throw .noBus("closed") }
        _ = sd_bus_set_method_call_timeout(bus, timeoutMicroseconds)
        return BusClient(bus: bus)
    }

    // MARK: - Commands

    func status() throws(ClientError) -> DaemonStatus {
        let reply = try call("org.freedesktop.DBus.Properties", "GetAll") { (message) throws(BusError) in
            try message.append(BusInterface.interface)
        }
        defer { sd_bus_message_unref(reply.pointer) }
        do {
            return try BusClient.parseStatus(reply)
        } catch {
            throw .failed(error)
        }
    }

    func setEnabled(_ on: Bool) throws(ClientError) {
        try setProperty("Enabled", "b") { (message) throws(BusError) in try message.append(on) }
    }

    /// Switches to the opposite of what the daemon reports; returns the new value.
    func toggle() throws(ClientError) -> Bool {
        let wanted = try !status().enabled
        try setEnabled(wanted)
        return wanted
    }

    func setSensitivity(_ factor: Double) throws(ClientError) {
        try setProperty("Sensitivity", "d") { (message) throws(BusError) in try message.append(factor) }
    }

    func calibrate() throws(ClientError) {
        let reply = try call(BusInterface.interface, "Calibrate") { (_) throws(BusError) in }
        sd_bus_message_unref(reply.pointer)
    }

    /// A stream of the daemon's monitor records (`Monitor()`): the read end
    /// of a pipe, which the caller closes.
    func monitor() throws(ClientError) -> FileDescriptor {
        let reply = try call(BusInterface.interface, "Monitor") { (_) throws(BusError) in }
        defer { sd_bus_message_unref(reply.pointer) }
        var received: Int32 = -1
        let result = sd_bus_message_read_basic(reply.pointer, CChar(bitPattern: UInt8(ascii: "h")), &received)
        // The message owns the descriptor it carries: keep a copy of our own.
        let copy = result > 0 ? fcntl(received, F_DUPFD_CLOEXEC, 3) : -1
        guard copy >= 0 else {
            throw .failed(BusError.system(result < 0 ? result : -EBADMSG, "read the monitor's stream"))
        }
        return FileDescriptor(rawValue: copy)
    }

    // MARK: - Calls

    private func setProperty(
        _ name: String, _ signature: String, value: (BusMessage) throws(BusError) -> Void
    ) throws(ClientError) {
        let reply = try call("org.freedesktop.DBus.Properties", "Set") { (message) throws(BusError) in
            try message.append(BusInterface.interface)
            try message.append(name)
            try message.open("v", signature)
            try value(message)
            try message.close()
        }
        sd_bus_message_unref(reply.pointer)
    }

    /// Calls `member` of the daemon and waits for the reply (the caller unrefs it).
    private func call(
        _ interface: String, _ member: String, arguments: (BusMessage) throws(BusError) -> Void
    ) throws(ClientError) -> BusMessage {
        var message: OpaquePointer? = nil
        var result = sd_bus_message_new_method_call(
            bus, &message, BusInterface.name, BusInterface.path, interface, member)
        guard result >= 0, let message else { throw .failed(BusError.system(result, "make the call")) }
        defer { sd_bus_message_unref(message) }
        do {
            try arguments(BusMessage(message))
        } catch {
            throw .failed(error)
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer? = nil
        result = sd_bus_call(bus, message, 0, &error, &reply)
        guard result >= 0, let reply else {
            throw BusClient.classify(BusError.from(&error) ?? BusError.system(result, "call \(member)"))
        }
        return BusMessage(reply)
    }

    /// What an error reply means for the person who typed the command.
    static func classify(_ error: BusError) -> ClientError {
        switch error.name {
        case BusError.serviceUnknown, BusError.nameHasNoOwner, BusError.unknownObject:
            return .notRunning
        case BusError.accessDenied, BusError.polkitUnavailable, BusError.notActive,
            "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired":
            return .refused(error)
        default:
            return .failed(error)
        }
    }

    /// The `a{sv}` of `GetAll`: each member the table knows, read with its
    /// signature; others skipped.
    static func parseStatus(_ reply: BusMessage) throws(BusError) -> DaemonStatus {
        var status = DaemonStatus()
        try reply.enter("a", "{sv}")
        while sd_bus_message_enter_container(reply.pointer, CChar(bitPattern: UInt8(ascii: "e")), "sv") > 0 {
            let name = try reply.readString()
            if let property = BusProperty.named(name) {
                let signature = property.signature.description
                try reply.enter("v", signature)
                status.values[name] = try BusValue.read(signature, from: reply)
                try reply.exit()
            } else {
                try reply.skip("v")
            }
            try reply.exit()
        }
        try reply.exit()
        return status
    }
}
