import Glibc
import TiltScrollCommon

// tiltscrolld: parse the command line, run the one action it names.
let options: DaemonCommandLine
do {
    options = try DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.error("tiltscrolld: \(error)\nTry 'tiltscrolld --help'.")
    exit(2)
}
if options.verbose { Log.threshold = .debug }

let status: Int32
switch options.action {
case .help:
    StandardOutput.write(DaemonCommandLine.usage + "\n")
    status = 0
case .version:
    StandardOutput.write("tiltscrolld \(DaemonVersion.string)\n")
    status = 0
case .checkConfig: status = DaemonCommands.checkConfig(options)
case .run: status = DaemonCommands.run(options)
}
exit(status)
