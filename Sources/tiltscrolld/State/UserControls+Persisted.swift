import ScrollPhysics
import TiltScrollCommon

/// Kept in `controls` in the state directory; loading never stops the
/// daemon (a missing file is a first start, a bad one is reported and the
/// first start's controls are used).
typealias UserControlsStore = PersistedFile<UserControls>

extension UserControls: PersistedRecord {
    public static let file = RecordFile(
        name: "controls", storage: .state, kind: "controls", sizeLimit: 1024, permissions: .masked(0o644))

    public func formatted() throws(RecordFormatError) -> String {
        if let problem = UserControls.problem(withSensitivity: sensitivity) {
            throw RecordFormatError(message: problem)
        }
        return UserControlsFormat.format(self)
    }

    public static func parse(_ text: String) throws(RecordFormatError) -> UserControls {
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

    public static func parse(_ text: String) throws(RecordFormatError) -> UserControls {
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
