import Testing

@testable import tiltscrolld

@Suite struct CommandLineParsing {
    @Test func runsTheDaemonWithTheDefaultConfigWhenGivenNothing() throws {
        let options = try CommandLineOptions.parse([])
        #expect(options.action == .run)
        #expect(options.configSource.path == "/etc/tiltscroll.conf")
        #expect(options.configSource.required == false)
    }

    @Test func anExplicitConfigMustExist() throws {
        let options = try CommandLineOptions.parse(["--config", "/tmp/x.conf", "--dry-run", "-v"])
        #expect(options.configSource.path == "/tmp/x.conf")
        #expect(options.configSource.required)
        #expect(options.dryRun && options.verbose)
    }

    @Test func acceptsInlineValues() throws {
        let options = try CommandLineOptions.parse(["--config=/a.conf", "--replay=/t.trace"])
        #expect(options.configPath == "/a.conf")
        #expect(options.action == .replay(path: "/t.trace"))
    }

    @Test func framesGoWithTheDemo() throws {
        let options = try CommandLineOptions.parse(["--frames", "--demo"])
        #expect(options.action == .demo && options.frames)
        #expect(try !CommandLineOptions.parse(["--demo"]).frames)
    }

    @Test(arguments: [
        (["--frames"], "--frames applies only to --demo"),
        (["--replay", "/t.trace", "--frames"], "--frames applies only to --demo"),
        (["--demo", "--frames=yes"], "--frames takes no value"),
        (["--config"], "--config needs a value"),
        (["--config", "--dry-run"], "--config needs a value"),
        (["--demo", "--monitor"], "--demo and --monitor cannot be used together"),
        (["--demo", "--dry-run"], "--dry-run applies only to running the daemon"),
        (["--versoin"], "unknown option '--versoin' (did you mean --version?)"),
        (["--help=yes"], "--help takes no value"),
        (["frobnicate"], "unknown option 'frobnicate'"),
    ])
    func rejectsWhatItCannotUnderstand(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try CommandLineOptions.parse(arguments) }
    }
}
