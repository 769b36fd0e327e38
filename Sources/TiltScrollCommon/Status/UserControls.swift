import ScrollPhysics

/// What the person at the machine chose from the desktop or the command
/// line: the switch (`Enabled`) and the sensitivity. Kept across restarts
/// in the state directory (`controls`), apart from the configuration file,
/// which stays the administrator's.
public struct UserControls: Equatable, Sendable {
    public var enabled: Bool
    /// A factor on `[Scroll] Speed=`.
    public var sensitivity: Double

    public static let sensitivityRange = 0.25...4.0
    public static let defaultSensitivity = 1.0

    /// The controls of a first start: `Enabled` as `When=` implies, sensitivity 1.
    public static func initial(for mode: ActivationMode) -> UserControls {
        UserControls(enabled: ActivationInputs.initialEnabled(for: mode), sensitivity: defaultSensitivity)
    }

    /// Why `value` cannot be the sensitivity, for the caller; nil when it can.
    public static func problem(withSensitivity value: Double) -> String? {
        guard value.isFinite, sensitivityRange.contains(value) else {
            return "Sensitivity must be a number from 0.25 to 4, got \(value)"
        }
        return nil
    }

    /// The scroll settings with the sensitivity applied to `Speed=`.
    public func applied(to settings: ScrollSettings) -> ScrollSettings {
        var scaled = settings
        scaled.speed *= sensitivity
        return scaled
    }

    public init(enabled: Bool, sensitivity: Double) {
        self.enabled = enabled
        self.sensitivity = sensitivity
    }
}
