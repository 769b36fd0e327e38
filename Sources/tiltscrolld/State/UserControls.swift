import ScrollPhysics

/// What the person at the machine chose from the desktop or the command
/// line: the switch (`Enabled`) and the sensitivity. Kept across restarts
/// in the state directory (`controls`), apart from the configuration file,
/// which stays the administrator's.
struct UserControls: Equatable {
    var enabled: Bool
    /// A factor on `[Scroll] Speed=`.
    var sensitivity: Double

    static let sensitivityRange = 0.25...4.0
    static let defaultSensitivity = 1.0

    /// The controls of a first start: `Enabled` as `When=` implies, sensitivity 1.
    static func initial(for mode: ActivationMode) -> UserControls {
        UserControls(enabled: ActivationInputs.initialEnabled(for: mode), sensitivity: defaultSensitivity)
    }

    /// Why `value` cannot be the sensitivity, for the caller; nil when it can.
    static func problem(withSensitivity value: Double) -> String? {
        guard value.isFinite, sensitivityRange.contains(value) else {
            return "Sensitivity must be a number from 0.25 to 4, got \(value)"
        }
        return nil
    }

    /// The scroll settings with the sensitivity applied to `Speed=`.
    func applied(to settings: ScrollSettings) -> ScrollSettings {
        var scaled = settings
        scaled.speed *= sensitivity
        return scaled
    }
}

/// Kept in `controls` in the state directory; loading never stops the
/// daemon (a missing file is a first start, a bad one is reported and the
/// first start's controls are used).
typealias UserControlsStore = PersistedFile<UserControls>

extension UserControls: PersistedRecord {
    static let file = RecordFile(
        name: "controls", storage: .state, kind: "controls", sizeLimit: 1024, permissions: .masked(0o644))

    func formatted() throws(RecordFormatError) -> String {
        if let problem = UserControls.problem(withSensitivity: sensitivity) {
            throw RecordFormatError(message: problem)
        }
        return UserControlsFormat.format(self)
    }

    static func parse(_ text: String) throws(RecordFormatError) -> UserControls {
        try UserControlsFormat.parse(text)
    }
}

/// The file's text:
///
///     # tiltscroll controls (tiltscrolld(8), FILES); written by tiltscrolld
///     version=1
///     enabled=yes
///     sensitivity=1.5
enum UserControlsFormat {
    static let version = 1
    static let keys = ["version", "enabled", "sensitivity"]

    static func format(_ controls: UserControls) -> String {
        KeyValueText.render(
            comment: "tiltscroll controls (tiltscrolld(8), FILES); written by tiltscrolld",
            [
                ("version", "\(version)"), ("enabled", controls.enabled ? "yes" : "no"),
                ("sensitivity", "\(controls.sensitivity)"),
            ])
    }

    static func parse(_ text: String) throws(RecordFormatError) -> UserControls {
        let values = try KeyValueText.values(in: text, keys: keys)
        let version = values["version"]!
        let enabled = values["enabled"]!
        let sensitivity = values["sensitivity"]!
        guard DecimalNumber.parseInteger(version.text) == Int64(self.version) else {
            throw .init(
                line: version.line,
                message: "version '\(version.text)' is not \(self.version) (another tiltscroll wrote it)")
        }
        let on: Bool
        switch enabled.text {
        case "yes": on = true
        case "no": on = false
        default: throw .init(line: enabled.line, message: "enabled must be yes or no, got '\(enabled.text)'")
        }
        guard let factor = DecimalNumber.parse(sensitivity.text) else {
            throw .init(line: sensitivity.line, message: "'\(sensitivity.text)' is not a finite decimal number")
        }
        if let problem = UserControls.problem(withSensitivity: factor) {
            throw .init(line: sensitivity.line, message: problem)
        }
        return UserControls(enabled: on, sensitivity: factor)
    }
}
