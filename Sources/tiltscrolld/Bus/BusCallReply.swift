import CSystemd
import Glibc
import TiltScrollCommon

/// A method call the loop answers later: `Calibrate` once the pose is taken
/// (or why it cannot be), `Monitor` with the stream's descriptor. Holds a
/// reference to the call until it is answered; a call dropped unanswered
/// (the daemon stopping) gets an error, so no caller waits for its timeout.
final class BusCallReply: CalibrationReply, MonitorReply {
    private var call: OpaquePointer?
    private let connection: BusConnection

    init(_ call: OpaquePointer, connection: BusConnection) {
        self.call = sd_bus_message_ref(call)
        self.connection = connection
    }

    deinit {
        refused(BusError(name: "org.freedesktop.DBus.Error.Failed", message: "tiltscrolld is stopping"))
    }

    func succeeded() {
        send { _, _ in 0 }
    }

    func attached(_ descriptor: FileDescriptor) {
        send { _, reply in
            var fd = descriptor.rawValue
            // sd-bus duplicates the descriptor into the message.
            return sd_bus_message_append_basic(reply, CChar(bitPattern: UInt8(ascii: "h")), &fd)
        }
    }

    func refused(_ error: BusError) {
        guard let call else { return }
        self.call = nil
        defer { sd_bus_message_unref(call) }
        var wire = sd_bus_error()
        defer { sd_bus_error_free(&wire) }
        _ = error.fill(&wire)
        let result = sd_bus_reply_method_error(call, &wire)
        connection.refreshWaitState()
        if result < 0 { Log.debug("Cannot answer a call: \(Errno(rawValue: -result).description)") }
    }

    /// Sends the method return, with what `fill` appends to it.
    private func send(_ fill: (OpaquePointer, OpaquePointer) -> Int32) {
        guard let call else { return }
        self.call = nil
        defer { sd_bus_message_unref(call) }
        var reply: OpaquePointer? = nil
        var result = sd_bus_message_new_method_return(call, &reply)
        if result >= 0, let reply {
            result = fill(call, reply)
            if result >= 0 { result = sd_bus_send(nil, reply, nil) }
            sd_bus_message_unref(reply)
        }
        connection.refreshWaitState()
        if result < 0 { Log.debug("Cannot answer a call: \(Errno(rawValue: -result).description)") }
    }
}

extension BusService: BusEndpoint {
    var descriptor: FileDescriptor { connection.descriptor }
    var events: Int16 { connection.events }
    func deadline(now: Double) -> Double? { connection.deadline(now: now) }
}
