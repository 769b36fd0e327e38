/// `tiltscrolld --status`: for people, and as JSON for scripts.
extension DaemonStatus {
    /// Lines for a person at a terminal.
    func rendered() -> String {
        let sensor = sensorName.isEmpty ? "none" : "\(sensorName) (\(sensorPath))"
        return """
            tiltscrolld \(version): \(state) (\(stateReason))
            Enabled:     \(enabled ? "yes" : "no")
            Active:      \(active ? "yes" : "no")
            Sensitivity: \(sensitivity) (a factor on [Scroll] Speed=)
            Sensor:      \(sensor)
            Orientation: \(orientation)
            Tablet mode: \(tabletMode)

            """
    }

    /// One JSON object keyed by the bus's member names, pairs as arrays:
    /// `{"Enabled": true, ..., "State": ["active", "..."], ...}`.
    func json() -> String {
        let members: [(String, String)] = [
            ("Enabled", "\(enabled)"), ("Sensitivity", "\(sensitivity)"), ("Active", "\(active)"),
            ("State", "[\(Self.jsonString(state)), \(Self.jsonString(stateReason))]"),
            ("TabletMode", Self.jsonString(tabletMode)),
            ("Sensor", "[\(Self.jsonString(sensorName)), \(Self.jsonString(sensorPath))]"),
            ("Orientation", Self.jsonString(orientation)), ("Version", Self.jsonString(version)),
        ]
        return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}\n"
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
