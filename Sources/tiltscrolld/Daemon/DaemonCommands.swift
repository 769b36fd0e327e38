import Glibc
import ScrollPhysics
import TiltScrollCommon

/// What `tiltscrolld` does besides running: each returns an exit status.
enum DaemonCommands {
    /// Every problem in the file at once (`file:line: message`, by line) and
    /// status 1; else the effective configuration and status 0.
    static func checkConfig(_ options: DaemonCommandLine) -> Int32 {
        let source = options.configSource
        let result = Configuration.check(path: source.path, required: source.required)
        guard result.problems.isEmpty else {
            Log.error(result.report)
            return 1
        }
        StandardOutput.write(result.configuration.renderEffective())
        return 0
    }

    /// The daemon, until SIGTERM or SIGINT.
    static func run(_ options: DaemonCommandLine) -> Int32 {
        HeapPolicy.returnLargeBuffersAtOnce()
        // A monitor that goes away must not take the daemon with it: its
        // stream's write fails with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
        let source = options.configSource
        let configuration: Configuration
        do {
            configuration = try Configuration.load(path: source.path, required: source.required)
        } catch {
            Log.error("\(error)")
            return 1
        }
        let signals: SignalChannel
        do {
            signals = try SignalChannel.open()
        } catch {
            Log.error("Cannot receive signals: \(error)")
            return 1
        }
        var role = DaemonRole()
        role.printsFrames = options.dryRun
        role.configSource = source
        let daemon = Daemon(
            platform: SystemPlatform(), role: role, configuration: configuration, signals: signals)
        return daemon.run()
    }
}
