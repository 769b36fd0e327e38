/// The changes a caller may ask for on the bus, each guarded by its own
/// polkit action (polkit/io.github.tiltscroll.policy: allowed for the active
/// local session, refused otherwise unless a rule says else).
public enum BusAction: String, CaseIterable, Hashable, Sendable {
    /// Writing `Enabled`.
    case switchScrolling = "io.github.tiltscroll.switch"
    /// `Calibrate()`.
    case calibrate = "io.github.tiltscroll.calibrate"
    /// Writing `Sensitivity`.
    case setSensitivity = "io.github.tiltscroll.set-sensitivity"

    /// The polkit action id.
    public var polkitAction: String { rawValue }

    /// What the caller wanted, for the error a refusal answers with.
    public var purpose: String {
        switch self {
        case .switchScrolling: return "switch tilt scrolling on or off"
        case .calibrate: return "re-centre tilt scrolling"
        case .setSensitivity: return "change the sensitivity of tilt scrolling"
        }
    }
}
