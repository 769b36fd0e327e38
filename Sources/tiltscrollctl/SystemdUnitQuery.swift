import CSystemd
import Glibc
import TiltScrollCommon

/// Asks the service manager over D-Bus (sd-bus from libsystemd) for the main
/// process of a unit: the `MainPID` property of
/// `/org/freedesktop/systemd1/unit/<escaped name>`, interface
/// `org.freedesktop.systemd1.Service`. Reading a property needs no privilege.
enum SystemdUnitQuery {
    enum Answer: Equatable {
        /// The unit runs with this main process.
        case mainPID(Int32)
        /// systemd answered: the unit has no main process (stopped, or not installed).
        case noMainProcess
        /// systemd could not be asked (no system bus, not booted with systemd); the text says why.
        case unavailable(String)
    }

    /// How long to wait for systemd before falling back to the PID file.
    static let timeoutMicroseconds: UInt64 = 2_000_000

    static func mainPID(ofUnit unit: String) -> Answer {
        var bus: OpaquePointer? = nil
        let opened = sd_bus_open_system(&bus)
        guard opened >= 0, let bus else {
            return .unavailable("cannot reach systemd on the system bus: \(Errno(rawValue: -opened))")
        }
        defer { sd_bus_flush_close_unref(bus) }
        _ = sd_bus_set_method_call_timeout(bus, timeoutMicroseconds)

        var objectPath: UnsafeMutablePointer<CChar>? = nil
        let encoded = sd_bus_path_encode("/org/freedesktop/systemd1/unit", unit, &objectPath)
        guard encoded >= 0, let objectPath else {
            return .unavailable("cannot name unit \(unit) on the bus: \(Errno(rawValue: -encoded))")
        }
        defer { free(objectPath) }

        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var pid: UInt32 = 0
        let asked = sd_bus_get_property_trivial(
            bus, "org.freedesktop.systemd1", objectPath, "org.freedesktop.systemd1.Service", "MainPID",
            &error, CChar(UInt8(ascii: "u")), &pid)
        guard asked >= 0 else {
            let detail = error.message.map { String(cString: $0) } ?? Errno(rawValue: -asked).description
            return .unavailable("systemd did not say whether \(unit) runs: \(detail)")
        }
        guard pid > 0, pid <= UInt32(Int32.max) else { return .noMainProcess }
        return .mainPID(Int32(pid))
    }
}
