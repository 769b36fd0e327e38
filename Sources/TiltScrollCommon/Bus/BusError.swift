import CSystemd
import Glibc

/// A D-Bus error: the error name clients switch on and a message for people.
///
/// The same value serves both directions: what a failed call of the
/// daemon's own (to the bus driver, to polkit) came back with, and what the
/// daemon answers a caller it refuses.
public struct BusError: Error, Equatable, CustomStringConvertible {
    /// A D-Bus error name, e.g. `org.freedesktop.DBus.Error.AccessDenied`.
    public var name: String
    public var message: String

    public var description: String { "\(name): \(message)" }

    // The names the daemon answers with (tiltscrolld(8), "D-BUS INTERFACE").
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    public static let invalidArguments = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    /// Scrolling is not active, so there is no pose to take (`Calibrate`).
    public static let notActive = "io.github.tiltscroll.TiltScroll1.Error.NotActive"
    /// polkit could not be asked (not installed, stopped, not answering);
    /// the change is refused.
    public static let polkitUnavailable = "io.github.tiltscroll.TiltScroll1.Error.PolkitUnavailable"

    /// The error a libsystemd call returned as a negative errno, for
    /// `operation`. The name is the standard one for the errno, as
    /// `sd_bus_error_set_errno` picks it (`errorName(forErrno:)`): it may
    /// be sent to a caller, and the bus disconnects a peer that sends an
    /// invalid error name.
    public static func system(_ result: Int32, _ operation: String) -> BusError {
        let code = Errno(rawValue: result < 0 ? -result : result)
        return BusError(name: errorName(forErrno: code), message: "\(operation): \(code.description)")
    }

    /// The `org.freedesktop.DBus.Error.*` name for an errno: the pairs
    /// sd-bus maps (libsystemd's bus-error.c), and `Failed` for every other.
    public static func errorName(forErrno code: Errno) -> String {
        let prefix = "org.freedesktop.DBus.Error."
        switch code.rawValue {
        case ENOMEM: return prefix + "NoMemory"
        case EPERM, EACCES: return prefix + "AccessDenied"
        case EINVAL: return prefix + "InvalidArgs"
        case ESRCH: return prefix + "UnixProcessIdUnknown"
        case ENOENT: return prefix + "FileNotFound"
        case EEXIST: return prefix + "FileExists"
        case ETIMEDOUT, ETIME: return prefix + "Timeout"
        case EIO: return prefix + "IOError"
        case ENETRESET, ECONNABORTED, ECONNRESET: return prefix + "Disconnected"
        case EOPNOTSUPP: return prefix + "NotSupported"
        case EADDRNOTAVAIL: return prefix + "BadAddress"
        case ENOBUFS: return prefix + "LimitsExceeded"
        case EADDRINUSE: return prefix + "AddressInUse"
        case EBADMSG: return prefix + "InconsistentMessage"
        default: return prefix + "Failed"
        }
    }

    /// Whether `name` is a valid D-Bus error name (the specification's
    /// rules for interface names): at least two elements separated by dots,
    /// each of `[A-Za-z0-9_]` not starting with a digit, 255 bytes at most.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                return false
            }
            return element.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            }
        }
    }

    /// The error in an sd-bus error structure, when one is set.
    public static func from(_ error: UnsafePointer<sd_bus_error>?) -> BusError? {
        guard let error, let name = error.pointee.name else { return nil }
        return BusError(
            name: String(cString: name), message: error.pointee.message.map { String(cString: $0) } ?? "")
    }

    /// Puts this error into an sd-bus error structure, for sd-bus to send.
    public func fill(_ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sd_bus_error_set(error, name, message)
    }

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}
