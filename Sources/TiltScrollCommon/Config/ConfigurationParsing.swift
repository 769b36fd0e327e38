import ScrollPhysics

extension Configuration {
    /// Parses the text of a configuration file. `file` is only used in errors.
    ///
    /// Keys not given keep their defaults. A key given twice takes its last
    /// value, as in systemd's files. The first problem in the file is thrown;
    /// `check` finds them all.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> Configuration {
        try parse(bytes: Array(text.utf8), file: file)
    }

    /// Parses the raw bytes of a configuration file, which need not be UTF-8.
    public static func parse(bytes: [UInt8], file: String) throws(ConfigError) -> Configuration {
        let result = check(bytes: bytes, file: file)
        if let first = result.problems.first { throw first }
        return result.configuration
    }

    /// Reads the whole file and finds every problem in it, sorted by line
    /// (one that concerns the whole file first). The configuration has every
    /// valid key applied; it is only to be used when there is no problem.
    ///
    /// A line that cannot be read, an unknown section or key and a value a
    /// key does not take are each reported on their line. The keys under a
    /// section that is unknown or unreadable are not looked at: they would
    /// only repeat its problem. Two values that are valid alone but not
    /// together are reported unless one of the keys also has an invalid value.
    public static func check(bytes: [UInt8], file: String) -> Check {
        let statements: [ConfigStatement]
        do {
            statements = try ConfigFileSyntax.statements(of: bytes, file: file)
        } catch {
            return Check(configuration: Configuration(), problems: [error])
        }
        var configuration = Configuration()
        var problems: [ConfigError] = []
        var assignedLines = AssignedLines()
        var invalidKeys: Set<String> = []
        /// nil before the first header; `.some(nil)` under one that is not known.
        var section: ConfigSection?? = nil
        for statement in statements {
            func report(_ message: String) {
                problems.append(ConfigError(file: file, line: statement.line, message: message))
            }
            switch statement.content {
            case .unreadable(let message, let startsSection):
                report(message)
                if startsSection { section = .some(nil) }
            case .section(let name):
                let known = ConfigSection(rawValue: name)
                if known == nil { report(unknownSectionMessage(name)) }
                section = .some(known)
            case .assignment(let name, let value):
                guard case .some(let current) = section else {
                    report(outsideSectionMessage(name, value))
                    continue
                }
                guard let current else { continue }
                guard let key = ConfigKey.named(name, in: current) else {
                    report(unknownKeyMessage(name, in: current))
                    continue
                }
                do {
                    try key.assign(&configuration, value)
                    assignedLines[key.name] = statement.line
                } catch {
                    report(error.message)
                    invalidKeys.insert(key.name)
                }
            }
        }
        // The physics judges staleness by the rate the sensor was asked for.
        configuration.scroll.sampleRate = configuration.device.sampleRate
        for problem in configuration.combinationProblems(assignedLines, leavingOut: invalidKeys) {
            problems.append(ConfigError(file: file, line: problem.line, message: problem.message))
        }
        // Stable: problems on one line keep the order they were found in.
        let sorted = problems.enumerated().sorted {
            ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset)
        }
        return Check(configuration: configuration, problems: sorted.map(\.element))
    }

    /// What `check` found: the configuration and every problem, by line.
    public struct Check: Equatable {
        public var configuration: Configuration
        public var problems: [ConfigError]

        /// The problems as `--check-config` prints them, one per line.
        public var report: String { problems.map(\.description).joined(separator: "\n") }
    }

    /// The line each key was last assigned on.
    public typealias AssignedLines = [String: Int]

    /// Two values that are each valid but must be ordered: `smaller` < `larger`.
    private struct Ordering {
        public var smallerKey: String
        public var smaller: Double
        public var largerKey: String
        /// How the larger side is named in the message ("MaxTilt", "half of SampleRate").
        public var largerName: String
        public var larger: Double
    }

    /// Every pair of values that are valid alone but not together, with the
    /// line of the key to change (nil only if the defaults themselves clash).
    /// Pairs with a key in `invalid` (given a value it does not take) are
    /// left out: the value they would compare is not the one the user wrote.
    public func combinationProblems(_ lines: AssignedLines, leavingOut invalid: Set<String> = [])
        -> [(line: Int?, message: String)]
    {
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
        return orderings.filter { o in
            !(o.smaller < o.larger) && !invalid.contains(o.smallerKey) && !invalid.contains(o.largerKey)
        }.map { o in
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
    }

    public static func unknownSectionMessage(_ name: String) -> String {
        let sections = ConfigSection.allCases
        if let near = NearestName.nearest(to: name, among: sections.map(\.rawValue)) {
            return "unknown section [\(name)]; did you mean [\(near)]?"
        }
        let list = sections.map(\.header).joined(separator: ", ")
        return "unknown section [\(name)]; the sections are \(list)"
    }

    public static func outsideSectionMessage(_ name: String, _ value: String) -> String {
        let assignment = ConfigFileSyntax.shown("\(name)=\(value)")
        if let home = ConfigKey.all.first(where: { $0.name == name }) {
            return "'\(assignment)' comes before any section header; put it under \(home.section.header)"
        }
        let list = ConfigSection.allCases.map(\.header).joined(separator: ", ")
        return "'\(assignment)' comes before any section header; keys belong under \(list)"
    }

    public static func unknownKeyMessage(_ name: String, in section: ConfigSection) -> String {
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
