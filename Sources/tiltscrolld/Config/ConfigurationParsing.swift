import ScrollPhysics

extension Configuration {
    /// Parses the text of a configuration file. `file` is only used in errors.
    ///
    /// Keys not given keep their defaults. A key given twice takes its last
    /// value, as in systemd's files. Only the first problem is reported.
    static func parse(_ text: String, file: String) throws(ConfigError) -> Configuration {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses the raw bytes of a configuration file, which need not be UTF-8.
    static func parse(bytes: [UInt8], file: String) throws(ConfigError) -> Configuration {
        let statements = try ConfigFileSyntax.statements(of: bytes, file: file)
        var configuration = Configuration()
        var assignedLines = AssignedLines()
        var section: ConfigSection?
        for statement in statements {
            let fail = { (message: String) in ConfigError(file: file, line: statement.line, message: message) }
            switch statement.content {
            case .section(let name):
                guard let known = ConfigSection(rawValue: name) else { throw fail(unknownSectionMessage(name)) }
                section = known
            case .assignment(let name, let value):
                guard let section else { throw fail(outsideSectionMessage(name, value)) }
                guard let key = ConfigKey.named(name, in: section) else {
                    throw fail(unknownKeyMessage(name, in: section))
                }
                do {
                    try key.assign(&configuration, value)
                } catch {
                    throw fail(error.message)
                }
                assignedLines[key.name] = statement.line
            }
        }
        // The physics judges staleness by the rate the sensor was asked for.
        configuration.scroll.sampleRate = configuration.device.sampleRate
        if let problem = configuration.combinationProblem(assignedLines) {
            throw ConfigError(file: file, line: problem.line, message: problem.message)
        }
        return configuration
    }

    /// The line each key was last assigned on.
    typealias AssignedLines = [String: Int]

    /// Two values that are each valid but must be ordered: `smaller` < `larger`.
    private struct Ordering {
        var smallerKey: String
        var smaller: Double
        var largerKey: String
        /// How the larger side is named in the message ("MaxTilt", "half of SampleRate").
        var largerName: String
        var larger: Double
    }

    /// The first pair of values that are valid alone but not together, with
    /// the line of the key to change (nil only if the defaults themselves clash).
    func combinationProblem(_ lines: AssignedLines) -> (line: Int?, message: String)? {
        let orderings = [
            Ordering(
                smallerKey: "DeadZone", smaller: scroll.deadZoneDegrees,
                largerKey: "MaxTilt", largerName: "MaxTilt", larger: scroll.maxTiltDegrees),
            Ordering(
                smallerKey: "HorizontalDeadZone", smaller: scroll.horizontalDeadZoneDegrees,
                largerKey: "MaxTilt", largerName: "MaxTilt", larger: scroll.maxTiltDegrees),
            // A cutoff at or above the Nyquist frequency of the samples filters nothing.
            Ordering(
                smallerKey: "SmoothingCutoff", smaller: scroll.smoothingMinCutoff,
                largerKey: "SampleRate", largerName: "half of SampleRate", larger: device.sampleRate / 2),
        ]
        func number(_ value: Double) -> String { ConfigValueFormat.format(value) }
        func origin(_ key: String) -> String { lines[key].map { "set on line \($0)" } ?? "the default" }
        for o in orderings where !(o.smaller < o.larger) {
            // Blame the smaller side when the user set it, else the larger side.
            if let line = lines[o.smallerKey] {
                return (
                    line,
                    "\(o.smallerKey) (\(number(o.smaller))) must be smaller than \(o.largerName) "
                        + "(\(number(o.larger)), \(origin(o.largerKey)))"
                )
            }
            return (
                lines[o.largerKey],
                "\(o.largerName) (\(number(o.larger))) must be larger than \(o.smallerKey) "
                    + "(\(number(o.smaller)), \(origin(o.smallerKey)))"
            )
        }
        return nil
    }

    static func unknownSectionMessage(_ name: String) -> String {
        let sections = ConfigSection.allCases
        if let near = NearestName.nearest(to: name, among: sections.map(\.rawValue)) {
            return "unknown section [\(name)]; did you mean [\(near)]?"
        }
        let list = sections.map(\.header).joined(separator: ", ")
        return "unknown section [\(name)]; the sections are \(list)"
    }

    static func outsideSectionMessage(_ name: String, _ value: String) -> String {
        let assignment = ConfigFileSyntax.shown("\(name)=\(value)")
        if let home = ConfigKey.all.first(where: { $0.name == name }) {
            return "'\(assignment)' comes before any section header; put it under \(home.section.header)"
        }
        let list = ConfigSection.allCases.map(\.header).joined(separator: ", ")
        return "'\(assignment)' comes before any section header; keys belong under \(list)"
    }

    static func unknownKeyMessage(_ name: String, in section: ConfigSection) -> String {
        let shown = ConfigFileSyntax.shown(name)
        if let home = ConfigKey.all.first(where: { $0.name == name }) {
            return "\(shown) belongs in \(home.section.header), not \(section.header)"
        }
        let local = ConfigKey.keys(in: section).map(\.name)
        let prefix = "unknown key '\(shown)' in \(section.header)"
        if let near = NearestName.nearest(to: name, among: local) {
            let caseNote = near.lowercased() == name.lowercased() ? " (keys are case-sensitive)" : ""
            return "\(prefix); did you mean '\(near)'?\(caseNote)"
        }
        let elsewhere = ConfigKey.all.filter { $0.section != section }
        if let near = NearestName.nearest(to: name, among: elsewhere.map(\.name)),
            let home = elsewhere.first(where: { $0.name == near })
        {
            return "\(prefix); did you mean '\(near)' in \(home.section.header)?"
        }
        return "\(prefix); the keys of \(section.header) are \(local.joined(separator: ", "))"
    }
}
