/// The sections of `tiltscroll.conf`, in the order they are written.
public enum ConfigSection: String, CaseIterable, Sendable {
    case device = "Device"
    case scroll = "Scroll"
    case activation = "Activation"

    /// `[Device]`, as written in the file and in messages.
    public var header: String { "[\(rawValue)]" }
}
