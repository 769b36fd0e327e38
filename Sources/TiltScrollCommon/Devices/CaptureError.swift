/// Why finding, opening or reading an accelerometer failed, with a message a
/// user can act on: it names the device, the path or attribute, and the cause.
///
/// The message quotes what the kernel and udev said (names, paths,
/// attribute contents), so it is kept escaped and bounded
/// (`DisplayEscaping`, one line at most): printed, logged, put in the
/// systemd status or a D-Bus property, it is safe as it is. Parts that are
/// `DeviceText` arrive escaped already and stay as they are.
public struct CaptureError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// No accelerometer exists, or the one asked for is not among them.
        case notFound
        /// An attribute or udev property holds a value that does not parse.
        case invalidValue
        /// The device lacks what the requested capture mode needs.
        case unsupported
        /// Another process holds the device's buffer (`EBUSY`).
        case busy
        /// The device went away (unbound, unplugged: `ENODEV`, `ENOENT`, `EIO`).
        case deviceGone
        /// Not allowed to read or change an attribute (`EACCES`, `EPERM`).
        case permissionDenied
        /// Any other failed system call.
        case system
    }

    public var kind: Kind
    /// What failed, escaped whenever it is set.
    public var message: String {
        get { escapedMessage }
        set { escapedMessage = DisplayEscaping.escape(newValue, limit: DisplayEscaping.lineLimit) }
    }
    private var escapedMessage: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        escapedMessage = DisplayEscaping.escape(message, limit: DisplayEscaping.lineLimit)
    }

    public var description: String { message }

    /// An error from a failed system call on `path`, classified by its errno so
    /// callers can tell "busy" from "gone" without parsing text.
    public static func system(_ error: SystemError, doing action: String) -> CaptureError {
        let kind: Kind
        switch error.code {
        case .resourceBusy: kind = .busy
        case .noSuchDevice, .noSuchFileOrDirectory, .noSuchDeviceOrAddress, .ioError: kind = .deviceGone
        case .permissionDenied, .notPermitted, .readOnlyFileSystem: kind = .permissionDenied
        default: kind = .system
        }
        var message = "\(action): \(error.code)"
        if kind == .permissionDenied {
            message +=
                " (run tiltscrolld as root; under systemd the unit must allow it: DeviceAllow=char-iio, "
                + "ReadWritePaths=/sys/devices)"
        }
        return CaptureError(kind: kind, message: message)
    }
}
