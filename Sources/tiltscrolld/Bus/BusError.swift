import CSystemd
import Glibc

/// A D-Bus error: the error name clients switch on and a message for people.
///
/// The same value serves both directions: what a failed call of the
/// daemon's own (to the bus driver, to polkit) came back with, and what the
/// daemon answers a caller it refuses.
struct BusError: Error, Equatable, CustomStringConvertible {
    /// A D-Bus error name, e.g. `org.freedesktop.DBus.Error.AccessDenied`.
    var name: String
    var message: String

    var description: String { "\(name): \(message)" }

    // The names the daemon answers with (tiltscrolld(8), "D-BUS INTERFACE").
    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    static let invalidArguments = "org.freedesktop.DBus.Error.InvalidArgs"
    static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    /// Scrolling is not active, so there is no pose to take (`Calibrate`).
    static let notActive = "io.github.tiltscroll.TiltScroll1.Error.NotActive"
    /// polkit could not be asked (not installed, stopped, not answering);
    /// the change is refused.
    static let polkitUnavailable = "io.github.tiltscroll.TiltScroll1.Error.PolkitUnavailable"

    /// The error a libsystemd call returned as a negative errno, for `operation`.
    static func system(_ result: Int32, _ operation: String) -> BusError {
        BusError(name: "System.Error.\(-result)", message: "\(operation): \(Errno(rawValue: -result).description)")
    }

    /// The error in an sd-bus error structure, when one is set.
    static func from(_ error: UnsafePointer<sd_bus_error>?) -> BusError? {
        guard let error, let name = error.pointee.name else { return nil }
        return BusError(
            name: String(cString: name), message: error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// Puts this error into an sd-bus error structure, for sd-bus to send.
    func fill(_ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sd_bus_error_set(error, name, message)
    }
}
