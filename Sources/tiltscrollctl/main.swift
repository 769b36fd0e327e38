import Glibc
import TiltScrollCommon

// tiltscrollctl: parse the command line, run the one command it names.
let options: ClientCommandLine
do {
    options = try ClientCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.error("tiltscrollctl: \(error)\nTry 'tiltscrollctl --help'.")
    exit(2)
}
if options.verbose { Log.threshold = .debug }
exit(ClientCommands.run(options))
