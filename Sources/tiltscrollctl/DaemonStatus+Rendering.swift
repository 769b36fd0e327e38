import TiltScrollCommon

/// `tiltscrollctl status`: for people, and as JSON for scripts. Both follow
/// the property table (`BusProperty.all`), so a new property shows in both.
extension DaemonStatus {
    /// One line a property, in the interface's order, for a person at a terminal.
    func rendered() -> String {
        let width = (BusProperty.all.map(\.label.count).max() ?? 0) + 2
        var out = ""
        for property in BusProperty.all {
            guard let value = values[property.name] else { continue }
            let label = property.label + ":"
            out += label + String(repeating: " ", count: max(1, width - label.count)) + property.show(value) + "\n"
        }
        return out
    }

    /// One JSON object keyed by the bus's member names, pairs as arrays:
    /// `{"Enabled": true, ..., "State": ["active", "..."], ...}`.
    func json() -> String {
        let members = BusProperty.all.compactMap { property in
            values[property.name].map { "\(JSONText.string(property.name)): \($0.json)" }
        }
        return "{" + members.joined(separator: ", ") + "}\n"
    }
}
