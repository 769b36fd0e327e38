extension Configuration {
    /// The effective configuration as a complete, valid configuration file:
    /// every section and key with its value, each preceded by a comment that
    /// says what it means, which values it takes and its default. Parsing the
    /// result gives back this configuration.
    public func renderEffective() -> String {
        let defaults = Configuration()
        var text = """
            # tiltscroll configuration: every key with its effective value.
            # See tiltscroll.conf(5). Lines starting with # or ; are comments;
            # a key given twice takes its last value.

            """
        for section in ConfigSection.allCases {
            text += "\n\(section.header)\n"
            for key in ConfigKey.keys(in: section) {
                let defaultValue = key.render(defaults)
                text += "# \(key.help.prefix(1).uppercased())\(key.help.dropFirst()).\n"
                text += "# \(key.values); default: \(defaultValue.isEmpty ? "empty" : defaultValue).\n"
                text += "\(key.name)=\(key.render(self))\n"
            }
        }
        return text
    }
}
