import ScrollPhysics
import TiltScrollCommon

/// What the command line asks `tiltscrollctl` to do: one command, and its options.
struct ClientCommandLine: Equatable {
    enum Command: Equatable {
        case help
        case version
        // The running daemon, over the system bus.
        case status
        case enable
        case disable
        case toggle
        case calibrate
        case sensitivity(Double)
        case monitor
        // Tools that need no daemon.
        case listDevices
        case demo
        case replay(path: String)
    }

    var command: Command = .status
    /// `--json`: `status` prints one JSON object, for scripts.
    var json = false
    /// `--frames`: `demo` prints the frame lines even on a terminal.
    var frames = false
    /// `--config PATH`: the configuration `list-devices`, `demo` and
    /// `replay` apply; nil means the default path, where a missing file means defaults.
    var configPath: String? = nil
    var verbose = false

    /// The configuration file to read and whether it must exist.
    var configSource: (path: String, required: Bool) {
        if let configPath { return (configPath, true) }
        return (Configuration.defaultPath, false)
    }

    static let commands = [
        "status", "enable", "disable", "toggle", "calibrate", "sensitivity", "monitor", "list-devices", "demo",
        "replay", "help", "version",
    ]
    static let flags = ["--json", "--frames", "--config", "--verbose", "--help", "--version"]

    /// Parses the arguments after the program name: a command (`status`
    /// when none), its argument, and options anywhere.
    static func parse(_ arguments: [String]) throws(UsageError) -> ClientCommandLine {
        var options = ClientCommandLine()
        var reader = ArgumentReader(arguments)
        var named: String? = nil
        var operands: [String] = []
        while true {
            if let word = reader.nextWord() {
                if named == nil { named = word } else { operands.append(word) }
                continue
            }
            guard let flag = try reader.nextFlag() else { break }
            switch flag {
            case "--json":
                try reader.noValue()
                options.json = true
            case "--frames":
                try reader.noValue()
                options.frames = true
            case "--config": options.configPath = try reader.value()
            case "-v", "--verbose":
                try reader.noValue()
                options.verbose = true
            case "-h", "--help":
                try reader.noValue()
                named = named ?? "help"
            case "--version":
                try reader.noValue()
                named = named ?? "version"
            default:
                throw reader.unknown(among: flags)
            }
        }
        options.command = try command(named ?? "status", operands)
        if options.json, options.command != .status { throw UsageError(message: "--json applies only to status") }
        if options.frames, options.command != .demo { throw UsageError(message: "--frames applies only to demo") }
        return options
    }

    private static func command(_ name: String, _ operands: [String]) throws(UsageError) -> Command {
        func none(_ command: Command) throws(UsageError) -> Command {
            guard operands.isEmpty else { throw UsageError(message: "\(name) takes no argument") }
            return command
        }
        func one() throws(UsageError) -> String {
            guard operands.count == 1 else {
                throw UsageError(message: "\(name) takes one argument, \(operands.count) given")
            }
            return operands[0]
        }
        switch name {
        case "help": return try none(.help)
        case "version": return try none(.version)
        case "status": return try none(.status)
        case "enable": return try none(.enable)
        case "disable": return try none(.disable)
        case "toggle": return try none(.toggle)
        case "calibrate": return try none(.calibrate)
        case "monitor": return try none(.monitor)
        case "list-devices": return try none(.listDevices)
        case "demo": return try none(.demo)
        case "replay": return .replay(path: try one())
        case "sensitivity":
            let text = try one()
            guard let factor = DecimalNumber.parse(text) else {
                throw UsageError(message: "sensitivity takes a number from 0.25 to 4, got '\(text)'")
            }
            return .sensitivity(factor)
        default:
            let suggestion = NearestName.nearest(to: name, among: commands).map { " (did you mean \($0)?)" } ?? ""
            throw UsageError(message: "unknown command '\(name)'\(suggestion)")
        }
    }

    static let usage = """
        Usage: tiltscrollctl [OPTION]... [COMMAND [ARGUMENT]]
        Ask and show tiltscrolld, which turns the tilt of a convertible laptop or tablet
        into smooth scrolling.

        The running daemon, over the system bus (no sudo from the active session):
          status              show what it does and why (the default); --json for scripts
          enable              switch tilt scrolling on
          disable             switch tilt scrolling off
          toggle              switch it on when off, off when on
          calibrate           make the current pose neutral
          sensitivity FACTOR  scroll FACTOR times as fast as [Scroll] Speed= says (0.25 to 4)
          monitor             show the live sensor, tilt and speed, refreshed in place

        Tools that need no daemon:
          list-devices        list the accelerometers found, with location, scale and mount matrix
          demo                play a recorded trace in real time in the monitor's view;
                              off a terminal, or with --frames, print its frames as replay does
          replay FILE         run a recorded trace through the configured physics

        Options:
          --json              with status: one JSON object
          --frames            with demo: print the frames, even on a terminal
          --config PATH       the configuration list-devices, demo and replay apply
                              (default /etc/tiltscroll.conf)
          -v, --verbose       print debug messages
          -h, --help          show this help
              --version       show the version

        See tiltscrollctl(1), tiltscrolld(8), tiltscroll.conf(5).
        """
}
