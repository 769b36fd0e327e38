import ScrollPhysics

/// One `Key=` of `tiltscroll.conf`: where it lives, how its text becomes a
/// field of `Configuration`, and how that field is written back.
public struct ConfigKey: Sendable {
    /// A value that does not fit the key; `message` is the whole sentence.
    public struct InvalidValue: Error { var message: String }

    public let section: ConfigSection
    public let name: String
    /// What the key means, for the rendered file's comments.
    public let help: String
    /// Which values it takes: "0 < x <= 1000", "yes or no", "auto, poll, buffer".
    public let values: String
    /// Stores the value, or says what is wrong with it.
    public let assign: @Sendable (inout Configuration, String) throws(InvalidValue) -> Void
    /// The field's value as the file writes it.
    public let render: @Sendable (Configuration) -> String

    /// A number in `range`.
    public static func number(
        _ section: ConfigSection, _ name: String, _ field: WritableKeyPath<Configuration, Double> & Sendable,
        range: NumberRange, help: String
    ) -> ConfigKey {
        ConfigKey(
            section: section, name: name, help: help, values: range.interval,
            assign: { (configuration, text) throws(InvalidValue) in
                guard let value = DecimalNumber.parse(text), range.contains(value) else {
                    var message = "\(name) must be \(range.phrase), got '\(ConfigFileSyntax.shown(text))'"
                    if let value = DecimalNumber.parse(text), let note = range.boundaryNote(for: value) {
                        message += " (\(note))"
                    } else if text.contains("#") || text.contains(";") {
                        message += " (comments must be on a line of their own)"
                    }
                    throw InvalidValue(message: message)
                }
                configuration[keyPath: field] = value
            },
            render: { ConfigValueFormat.format($0[keyPath: field]) })
    }

    /// A systemd boolean.
    public static func boolean(
        _ section: ConfigSection, _ name: String, _ field: WritableKeyPath<Configuration, Bool> & Sendable,
        help: String
    ) -> ConfigKey {
        ConfigKey(
            section: section, name: name, help: help, values: "yes or no",
            assign: { (configuration, text) throws(InvalidValue) in
                guard let value = ConfigValueFormat.parseBoolean(text) else {
                    throw InvalidValue(
                        message: "\(name) must be a boolean (yes/no, true/false, on/off, 1/0), "
                            + "got '\(ConfigFileSyntax.shown(text))'")
                }
                configuration[keyPath: field] = value
            },
            render: { ConfigValueFormat.format($0[keyPath: field]) })
    }

    /// One word out of a fixed list; the words are matched exactly.
    public static func choice<Value: Equatable & Sendable>(
        _ section: ConfigSection, _ name: String, _ field: WritableKeyPath<Configuration, Value> & Sendable,
        words: [(word: String, value: Value)], help: String
    ) -> ConfigKey {
        let list = words.map(\.word)
        return ConfigKey(
            section: section, name: name, help: help, values: list.joined(separator: ", "),
            assign: { (configuration, text) throws(InvalidValue) in
                guard let match = words.first(where: { $0.word == text }) else {
                    var message =
                        "\(name) must be one of \(list.joined(separator: ", ")), got '\(ConfigFileSyntax.shown(text))'"
                    if let near = NearestName.nearest(to: text, among: list) { message += "; did you mean '\(near)'?" }
                    throw InvalidValue(message: message)
                }
                configuration[keyPath: field] = match.value
            },
            render: { configuration in
                let value = configuration[keyPath: field]
                return words.first(where: { $0.value == value })?.word ?? ""
            })
    }

    /// The words of a string-backed enum, in declaration order.
    public static func words<E: RawRepresentable & CaseIterable & Sendable>(of type: E.Type) -> [(
        word: String, value: E
    )]
    where E.RawValue == String {
        E.allCases.map { ($0.rawValue, $0) }
    }
}
