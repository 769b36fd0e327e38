import Glibc
import ScrollPhysics

/// The one-shot actions of the command line, each returning an exit status.
enum Commands {
    static let version = "0.1.0"

    /// Loads the configuration the options name, printing the error if it is invalid.
    static func loadConfiguration(_ options: CommandLineOptions) -> Configuration? {
        let source = options.configSource
        do {
            return try Configuration.load(path: source.path, required: source.required)
        } catch {
            Log.error("\(error)")
            return nil
        }
    }

    /// Every problem in the file at once (`file:line: message`, by line) and
    /// status 1; else the effective configuration and status 0.
    static func checkConfig(_ options: CommandLineOptions) -> Int32 {
        let source = options.configSource
        let result = Configuration.check(path: source.path, required: source.required)
        guard result.problems.isEmpty else {
            Log.error(result.report)
            return 1
        }
        StandardOutput.write(result.configuration.renderEffective())
        return 0
    }

    static func listDevices(_ options: CommandLineOptions) -> Int32 {
        guard let configuration = loadConfiguration(options) else { return 1 }
        do {
            let devices = try DeviceDiscovery.enumerate(matrixOverride: configuration.device.mountMatrix)
            // No device: choosing one says why in words.
            if devices.isEmpty { _ = try DeviceDiscovery.choose(from: devices, name: nil) }
            StandardOutput.write(renderDeviceTable(devices))
            return 0
        } catch {
            Log.error(error.message)
            return 1
        }
    }

    /// `--demo`: on a terminal, the demo trace played in real time in the
    /// `--monitor` view; elsewhere, or with `--frames`, its frame lines.
    static func demo(_ options: CommandLineOptions) -> Int32 {
        guard FileDescriptor.standardOutput.isTerminal, !options.frames else {
            return replay(traceText: DemoTrace.text, origin: "the demo trace", options: options)
        }
        guard let configuration = loadConfiguration(options) else { return 1 }
        do {
            return DemoPlayback.play(try Trace.parse(DemoTrace.text), settings: configuration.scroll)
        } catch {
            Log.error("the demo trace: \(error)")
            return 1
        }
    }

    /// `--demo` off a terminal and `--replay`: a trace through the configured
    /// physics, frame by frame.
    static func replay(traceText: String, origin: String, options: CommandLineOptions) -> Int32 {
        guard let configuration = loadConfiguration(options) else { return 1 }
        let trace: Trace
        do {
            trace = try Trace.parse(traceText)
        } catch {
            Log.error("\(origin): \(error)")
            return 1
        }
        var out = ""
        out.write(ReplayPrinter.legend + "\n")
        var printer = ReplayPrinter()
        var replay = ScrollReplay(trace: trace, settings: configuration.scroll)
        while let step = replay.next() {
            printer.write(step, to: &out)
            if out.utf8.count > 16384 {
                StandardOutput.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        printer.writeSummary(replay.summary, to: &out)
        StandardOutput.write(out)
        return 0
    }

    static func replayFile(_ path: String, options: CommandLineOptions) -> Int32 {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: 64 << 20, followingLinks: true)
        } catch {
            Log.error("Cannot read the trace: \(error)")
            return 1
        }
        return replay(traceText: String(decoding: bytes, as: UTF8.self), origin: path, options: options)
    }

    /// `--enable`, `--disable`, `--toggle`, `--calibrate`, `--status`: the
    /// running daemon, over the system bus. A daemon the bus cannot reach
    /// (no system bus, or not on it: started by hand without the bus policy)
    /// still takes `--toggle` and `--calibrate` as signals, from root or its
    /// own user.
    static func control(_ options: CommandLineOptions) -> Int32 {
        do throws(ClientError) {
            let client = try BusClient.connect()
            switch options.action {
            case .enable:
                try client.setEnabled(true)
                StandardOutput.write("Tilt scrolling is switched on.\n")
            case .disable:
                try client.setEnabled(false)
                StandardOutput.write("Tilt scrolling is switched off.\n")
            case .toggle:
                let on = try client.toggle()
                StandardOutput.write("Tilt scrolling is switched \(on ? "on" : "off").\n")
            case .calibrate:
                try client.calibrate()
                StandardOutput.write("The current pose is neutral now.\n")
            default:
                let status = try client.status()
                StandardOutput.write(options.json ? status.json() : status.rendered())
            }
            return 0
        } catch .notRunning where options.action == .calibrate || options.action == .toggle {
            return signal(options.action == .calibrate ? .calibrate : .toggle)
        } catch .noBus(let why) where options.action == .calibrate || options.action == .toggle {
            Log.debug("No system bus (\(why)); trying a signal")
            return signal(options.action == .calibrate ? .calibrate : .toggle)
        } catch {
            Log.error("\(error)")
            return 1
        }
    }

    /// The request as a signal to the daemon systemd or the PID file names.
    static func signal(_ request: ControlRequest) -> Int32 {
        do {
            let pid = try ControlClient.send(request)
            StandardOutput.write("Sent \(SignalChannel.name(request.signal)) to tiltscrolld (PID \(pid)).\n")
            return 0
        } catch {
            Log.error("\(error)")
            return 1
        }
    }

    static func runDaemon(_ options: CommandLineOptions, sink: FrameSink) -> Int32 {
        HeapPolicy.returnLargeBuffersAtOnce()
        guard let configuration = loadConfiguration(options) else { return 1 }
        let signals: SignalChannel
        do {
            signals = try SignalChannel.open()
        } catch {
            Log.error("Cannot receive signals: \(error)")
            return 1
        }
        let daemon = Daemon(
            configuration: configuration, configSource: options.configSource, sink: sink, signals: signals,
            now: DaemonClock.now())
        return daemon.run()
    }
}
