import TiltScrollCommon

/// What the command line asks `tiltscrolld` to do.
struct DaemonCommandLine: Equatable {
    enum Action: Equatable {
        /// Run the daemon (the default).
        case run
        case help
        case version
        case checkConfig
    }

    var action: Action = .run
    /// `--config PATH`; nil means the default path, where a missing file means defaults.
    var configPath: String? = nil
    /// `--dry-run`: print each frame instead of emitting it; needs no uinput.
    var dryRun = false
    /// `--verbose`: debug messages too.
    var verbose = false

    /// The configuration file to read and whether it must exist.
    var configSource: (path: String, required: Bool) {
        if let configPath { return (configPath, true) }
        return (Configuration.defaultPath, false)
    }
}

extension DaemonCommandLine {
    /// Parses the arguments after the program name. Accepts `--opt VALUE` and
    /// `--opt=VALUE`; at most one action.
    static func parse(_ arguments: [String]) throws(UsageError) -> DaemonCommandLine {
        var options = DaemonCommandLine()
        var actionFlag: String? = nil
        var reader = ArgumentReader(arguments)
        while let flag = try reader.nextFlag() {
            func action(_ action: Action) throws(UsageError) {
                try reader.noValue()
                if let previous = actionFlag, previous != flag {
                    throw UsageError(message: "\(previous) and \(flag) cannot be used together")
                }
                actionFlag = flag
                options.action = action
            }
            switch flag {
            case "-h", "--help": try action(.help)
            case "--version": try action(.version)
            case "--check-config": try action(.checkConfig)
            case "--dry-run":
                try reader.noValue()
                options.dryRun = true
            case "-v", "--verbose":
                try reader.noValue()
                options.verbose = true
            case "--config":
                options.configPath = try reader.value()
            default:
                throw reader.unknown(
                    among: flags, hint: clientFlags[flag].map { " (that is now 'tiltscrollctl \($0)')" })
            }
        }
        if options.dryRun, options.action != .run {
            throw UsageError(message: "--dry-run applies only to running the daemon")
        }
        return options
    }

    static let flags = ["--help", "--version", "--config", "--check-config", "--dry-run", "--verbose"]

    /// The client's commands, for a person who types them here.
    static let clientFlags = [
        "--enable": "enable", "--disable": "disable", "--toggle": "toggle", "--calibrate": "calibrate",
        "--status": "status", "--monitor": "monitor", "--demo": "demo", "--replay": "replay FILE",
        "--list-devices": "list-devices",
    ]

    static let usage = """
        Usage: tiltscrolld [OPTION]...
        Turn the tilt of a convertible laptop or tablet into smooth scrolling.

          --config PATH     read PATH instead of /etc/tiltscroll.conf
          --check-config    report every error in the configuration, or print the effective one
          --dry-run         run, but print each scroll frame instead of emitting it
          -v, --verbose     print debug messages
          -h, --help        show this help
              --version     show the version

        The running daemon is asked and shown by tiltscrollctl(1): status, enable,
        disable, toggle, calibrate, monitor; and demo, replay and list-devices.

        Signals: SIGUSR1 recalibrates, SIGUSR2 switches on or off, SIGHUP reloads
        the configuration, SIGTERM and SIGINT stop. See tiltscrolld(8), tiltscroll.conf(5).
        """
}
