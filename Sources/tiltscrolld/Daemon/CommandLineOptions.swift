/// What the command line asks tiltscrolld to do.
struct CommandLineOptions: Equatable {
    /// The one action of this invocation.
    enum Action: Equatable {
        /// Run the daemon (the default).
        case run
        case help
        case version
        case checkConfig
        case listDevices
        case demo
        case replay(path: String)
        case monitor
        /// The running daemon, over the system bus.
        case calibrate
        case toggle
        case enable
        case disable
        case status
    }

    var action: Action = .run
    /// `--config PATH`; nil means the default path, where a missing file means defaults.
    var configPath: String? = nil
    /// `--dry-run`: print each frame instead of emitting it; needs no uinput.
    var dryRun = false
    /// `--frames`: `--demo` prints the frame lines even on a terminal.
    var frames = false
    /// `--json`: `--status` prints one JSON object, for scripts.
    var json = false
    /// `--verbose`: debug messages too.
    var verbose = false

    /// The configuration file to read and whether it must exist.
    var configSource: (path: String, required: Bool) {
        if let configPath { return (configPath, true) }
        return (Configuration.defaultPath, false)
    }
}

/// A command line that cannot be understood; the message says why.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension CommandLineOptions {
    /// Parses the arguments after the program name. Accepts `--opt VALUE` and
    /// `--opt=VALUE`; at most one action.
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var actionFlag: String? = nil
        var index = 0

        func setAction(_ action: Action, _ flag: String) throws(UsageError) {
            if let previous = actionFlag, previous != flag {
                throw UsageError(message: "\(previous) and \(flag) cannot be used together")
            }
            actionFlag = flag
            options.action = action
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var flag = Substring(argument)
            var inlineValue: String? = nil
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                flag = argument[..<equals]
                inlineValue = String(argument[argument.index(after: equals)...])
            }

            func value() throws(UsageError) -> String {
                if let inlineValue {
                    guard !inlineValue.isEmpty else { throw UsageError(message: "\(flag) needs a value") }
                    return inlineValue
                }
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError(message: "\(flag) needs a value")
                }
                index += 1
                return arguments[index - 1]
            }

            func noValue() throws(UsageError) {
                if inlineValue != nil { throw UsageError(message: "\(flag) takes no value") }
            }

            /// A flag that is an action and takes no value.
            func action(_ action: Action) throws(UsageError) {
                try noValue()
                try setAction(action, String(flag))
            }

            switch flag {
            case "-h", "--help": try action(.help)
            case "--version": try action(.version)
            case "--check-config": try action(.checkConfig)
            case "--list-devices": try action(.listDevices)
            case "--demo": try action(.demo)
            case "--monitor": try action(.monitor)
            case "--calibrate": try action(.calibrate)
            case "--toggle": try action(.toggle)
            case "--enable": try action(.enable)
            case "--disable": try action(.disable)
            case "--status": try action(.status)
            case "--json":
                try noValue()
                options.json = true
            case "--dry-run":
                try noValue()
                options.dryRun = true
            case "--frames":
                try noValue()
                options.frames = true
            case "-v", "--verbose":
                try noValue()
                options.verbose = true
            case "--config":
                options.configPath = try value()
            case "--replay":
                try setAction(.replay(path: try value()), "--replay")
            default:
                let suggestion = CommandLineOptions.nearestFlag(to: String(flag)).map { " (did you mean \($0)?)" } ?? ""
                throw UsageError(message: "unknown option '\(argument)'\(suggestion)")
            }
        }

        if options.dryRun, options.action != .run {
            throw UsageError(message: "--dry-run applies only to running the daemon")
        }
        if options.frames, options.action != .demo {
            throw UsageError(message: "--frames applies only to --demo")
        }
        if options.json, options.action != .status {
            throw UsageError(message: "--json applies only to --status")
        }
        return options
    }

    static let flags = [
        "--help", "--version", "--config", "--check-config", "--list-devices", "--dry-run", "--demo", "--frames",
        "--replay", "--monitor", "--calibrate", "--toggle", "--enable", "--disable", "--status", "--json",
        "--verbose",
    ]

    /// The known flag closest to a mistyped one, when it is close enough to be a typo.
    static func nearestFlag(to flag: String) -> String? {
        NearestName.nearest(to: flag, among: flags)
    }

    static let usage = """
        Usage: tiltscrolld [OPTION]...
        Turn the tilt of a convertible laptop or tablet into smooth scrolling.

          --config PATH     read PATH instead of /etc/tiltscroll.conf
          --check-config    report every error in the configuration, or print the effective one
          --list-devices    list the accelerometers found, with location, scale and mount matrix
          --dry-run         run, but print each scroll frame instead of emitting it
          --demo            play a bundled recorded trace in real time in the --monitor view;
                            off a terminal, print its frames as --replay does
          --frames          with --demo: print the frames, even on a terminal
          --replay FILE     run a recorded trace through the configured physics
          --monitor         show the live sensor, tilt and speed, refreshed in place

        The running daemon, over the system bus (no sudo from the active session):
          --enable          switch tilt scrolling on
          --disable         switch tilt scrolling off
          --toggle          switch it on when off, off when on
          --calibrate       make the current pose neutral
          --status          show what the daemon does and why; --json for scripts
          --json            with --status: one JSON object

          -v, --verbose     print debug messages
          -h, --help        show this help
              --version     show the version

        Signals: SIGUSR1 recalibrates, SIGUSR2 switches on or off, SIGHUP reloads
        the configuration, SIGTERM and SIGINT stop. See tiltscrolld(8), tiltscroll.conf(5).
        """
}
