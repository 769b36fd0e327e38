import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

@Suite struct DaemonCommandLineParsing {
    @Test func runsTheDaemonWithTheDefaultConfigWhenGivenNothing() throws {
        let options = try DaemonCommandLine.parse([])
        #expect(options.action == .run)
        #expect(options.configSource.path == "/etc/tiltscroll.conf")
        #expect(options.configSource.required == false)
    }

    @Test func anExplicitConfigMustExist() throws {
        let options = try DaemonCommandLine.parse(["--config", "/tmp/x.conf", "--dry-run", "-v"])
        #expect(options.configSource.path == "/tmp/x.conf")
        #expect(options.configSource.required)
        #expect(options.dryRun && options.verbose)
        #expect(try DaemonCommandLine.parse(["--config=/a.conf"]).configPath == "/a.conf")
    }

    @Test(arguments: [
        (["--config"], "--config needs a value"),
        (["--config", "--dry-run"], "--config needs a value"),
        (["--check-config", "--dry-run"], "--dry-run applies only to running the daemon"),
        (["--check-config", "--help"], "--check-config and --help cannot be used together"),
        (["--versoin"], "unknown option '--versoin' (did you mean --version?)"),
        (["--help=yes"], "--help takes no value"),
        (["frobnicate"], "unexpected argument 'frobnicate'"),
        (["--status"], "unknown option '--status' (that is now 'tiltscrollctl status')"),
        (["--replay=/t.trace"], "unknown option '--replay=/t.trace' (that is now 'tiltscrollctl replay FILE')"),
    ])
    func rejectsWhatItCannotUnderstand(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try DaemonCommandLine.parse(arguments) }
    }
}

@Suite struct ClientCommandLineParsing {
    @Test func statusIsTheDefault() throws {
        #expect(try ClientCommandLine.parse([]).command == .status)
        #expect(try ClientCommandLine.parse(["--json"]).json)
        #expect(try ClientCommandLine.parse(["status", "--json"]) == ClientCommandLine.parse(["--json", "status"]))
    }

    @Test func eachCommandByItsName() throws {
        let expected: [(String, ClientCommandLine.Command)] = [
            ("enable", .enable), ("disable", .disable), ("toggle", .toggle), ("calibrate", .calibrate),
            ("monitor", .monitor), ("list-devices", .listDevices), ("demo", .demo), ("help", .help),
            ("version", .version),
        ]
        for (name, command) in expected {
            #expect(try ClientCommandLine.parse([name]).command == command, "\(name)")
        }
        #expect(try ClientCommandLine.parse(["replay", "/t.trace"]).command == .replay(path: "/t.trace"))
        #expect(try ClientCommandLine.parse(["sensitivity", "1.5"]).command == .sensitivity(1.5))
        #expect(try ClientCommandLine.parse(["--help"]).command == .help)
        let demo = try ClientCommandLine.parse(["demo", "--frames", "--config=/a.conf"])
        #expect(demo.frames && demo.configPath == "/a.conf" && demo.configSource.required)
    }

    @Test(arguments: [
        (["--frames"], "--frames applies only to demo"),
        (["replay", "/t.trace", "--frames"], "--frames applies only to demo"),
        (["toggle", "--json"], "--json applies only to status"),
        (["demo", "--frames=yes"], "--frames takes no value"),
        (["demo", "--config"], "--config needs a value"),
        (["replay"], "replay takes one argument, 0 given"),
        (["replay", "a", "b"], "replay takes one argument, 2 given"),
        (["enable", "now"], "enable takes no argument"),
        (["sensitivity", "fast"], "sensitivity takes a number from 0.25 to 4, got 'fast'"),
        (["stauts"], "unknown command 'stauts' (did you mean status?)"),
        (["--jsno"], "unknown option '--jsno' (did you mean --json?)"),
    ])
    func rejectsWhatItCannotUnderstand(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try ClientCommandLine.parse(arguments) }
    }
}
