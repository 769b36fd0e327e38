import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// The error names the daemon may send: dbus-daemon disconnects a peer that
/// sends an invalid one, so every error from a failed libsystemd call must
/// become a valid name.
@Suite struct BusErrorNames {
    @Test func everyErrnoBecomesAValidStandardName() {
        for code in 1...133 {
            let error = BusError.system(-Int32(code), "dispatch the change")
            #expect(BusError.isValidName(error.name), "errno \(code): \(error.name)")
            #expect(error.name.hasPrefix("org.freedesktop.DBus.Error."), "errno \(code): \(error.name)")
        }
    }

    @Test(arguments: [
        (EACCES, "org.freedesktop.DBus.Error.AccessDenied"), (EPERM, "org.freedesktop.DBus.Error.AccessDenied"),
        (ENOMEM, "org.freedesktop.DBus.Error.NoMemory"), (EINVAL, "org.freedesktop.DBus.Error.InvalidArgs"),
        (ENOENT, "org.freedesktop.DBus.Error.FileNotFound"), (ETIMEDOUT, "org.freedesktop.DBus.Error.Timeout"),
        (EIO, "org.freedesktop.DBus.Error.IOError"), (ECONNRESET, "org.freedesktop.DBus.Error.Disconnected"),
        (ENOBUFS, "org.freedesktop.DBus.Error.LimitsExceeded"), (ENOTCONN, "org.freedesktop.DBus.Error.Failed"),
        (EXDEV, "org.freedesktop.DBus.Error.Failed"),
    ])
    func errnosMapAsSdBusMapsThem(code: Int32, name: String) {
        #expect(BusError.system(-code, "x").name == name)
        #expect(BusError.system(-code, "register").message == "register: \(Errno(rawValue: code))")
    }

    @Test(arguments: [
        "System.Error.5", "org.freedesktop.DBus.Error.", "org..Error", "NoDots", "", "org.freedesktop.D-Bus.Error",
        "io.github.tiltscroll.TiltScroll1.Error.9NotActive",
    ])
    func invalidNamesAreSeen(name: String) {
        #expect(!BusError.isValidName(name))
    }

    @Test func theDaemonsOwnNamesAreValid() {
        for name in [
            BusError.accessDenied, BusError.invalidArguments, BusError.limitsExceeded, BusError.notActive,
            BusError.polkitUnavailable,
        ] {
            #expect(BusError.isValidName(name), "\(name)")
        }
    }
}
