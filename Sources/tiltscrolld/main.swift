import Glibc

// tiltscrolld: parse the command line, run the one action it names.
let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.error("tiltscrolld: \(error)\nTry 'tiltscrolld --help'.")
    exit(2)
}
if options.verbose { Log.threshold = .debug }

let status: Int32
switch options.action {
case .help:
    StandardOutput.write(CommandLineOptions.usage + "\n")
    status = 0
case .version:
    StandardOutput.write("tiltscrolld \(Commands.version)\n")
    status = 0
case .checkConfig: status = Commands.checkConfig(options)
case .listDevices: status = Commands.listDevices(options)
case .demo: status = Commands.demo(options)
case .replay(let path): status = Commands.replayFile(path, options: options)
case .calibrate, .toggle, .enable, .disable, .status: status = Commands.control(options)
case .monitor: status = Commands.runDaemon(options, sink: .monitor)
case .run: status = Commands.runDaemon(options, sink: options.dryRun ? .dryRun : .uinput)
}
exit(status)
