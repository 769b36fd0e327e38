import Glibc
import ScrollPhysics
import TiltScrollCommon

/// What each command of `tiltscrollctl` does; each returns an exit status.
enum ClientCommands {
    static func run(_ options: ClientCommandLine) -> Int32 {
        switch options.command {
        case .help:
            StandardOutput.write(ClientCommandLine.usage + "\n")
            return 0
        case .version:
            StandardOutput.write("tiltscrollctl \(DaemonVersion.string)\n")
            return 0
        case .status, .enable, .disable, .toggle, .calibrate, .sensitivity:
            return control(options)
        case .monitor: return MonitorCommand.run()
        case .listDevices: return listDevices(options)
        case .demo: return demo(options)
        case .replay(let path): return replayFile(path, options: options)
        }
    }

    // MARK: - The running daemon

    /// The running daemon, over the system bus. A daemon the bus cannot
    /// reach (no system bus, or not on it: started by hand without the bus
    /// policy) still takes `toggle` and `calibrate` as signals, from root or
    /// its own user.
    static func control(_ options: ClientCommandLine) -> Int32 {
        let fallback: ControlSignal? =
            switch options.command {
            case .toggle: .toggle
            case .calibrate: .calibrate
            default: nil
            }
        do throws(ClientError) {
            let client = try BusClient.connect()
            switch options.command {
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
            case .sensitivity(let factor):
                try client.setSensitivity(factor)
                StandardOutput.write("Sensitivity \(factor).\n")
            default:
                let status = try client.status()
                StandardOutput.write(options.json ? status.json() : status.rendered())
            }
            return 0
        } catch .notRunning where fallback != nil {
            return signal(fallback!)
        } catch .noBus(let why) where fallback != nil {
            Log.debug("No system bus (\(why)); trying a signal")
            return signal(fallback!)
        } catch {
            Log.error("tiltscrollctl: \(error)")
            return 1
        }
    }

    /// The request as a signal to the daemon systemd or the PID file names.
    static func signal(_ request: ControlSignal) -> Int32 {
        do {
            let pid = try ControlClient.send(request)
            StandardOutput.write("Sent \(SignalChannel.name(request.signal)) to tiltscrolld (PID \(pid)).\n")
            return 0
        } catch {
            Log.error("tiltscrollctl: \(error)")
            return 1
        }
    }

    // MARK: - Tools

    /// Loads the configuration the options name, printing the error if it is invalid.
    static func loadConfiguration(_ options: ClientCommandLine) -> Configuration? {
        let source = options.configSource
        do {
            return try Configuration.load(path: source.path, required: source.required)
        } catch {
            Log.error("tiltscrollctl: \(error)")
            return nil
        }
    }

    static func listDevices(_ options: ClientCommandLine) -> Int32 {
        guard let configuration = loadConfiguration(options) else { return 1 }
        do {
            let devices = try DeviceDiscovery.enumerate(matrixOverride: configuration.device.mountMatrix)
            // No device: choosing one says why in words.
            if devices.isEmpty { _ = try DeviceDiscovery.choose(from: devices, name: nil) }
            StandardOutput.write(renderDeviceTable(devices))
            return 0
        } catch {
            Log.error("tiltscrollctl: \(error.message)")
            return 1
        }
    }

    /// On a terminal, the demo trace played in real time in the monitor's
    /// view; elsewhere, or with `--frames`, its frame lines.
    static func demo(_ options: ClientCommandLine) -> Int32 {
        guard FileDescriptor.standardOutput.isTerminal, !options.frames else {
            return replay(traceText: DemoTrace.text, origin: "the demo trace", options: options)
        }
        guard let configuration = loadConfiguration(options) else { return 1 }
        do {
            return DemoPlayback.play(try Trace.parse(DemoTrace.text), settings: configuration.scroll)
        } catch {
            Log.error("tiltscrollctl: the demo trace: \(error)")
            return 1
        }
    }

    /// A trace through the configured physics, frame by frame.
    static func replay(traceText: String, origin: String, options: ClientCommandLine) -> Int32 {
        guard let configuration = loadConfiguration(options) else { return 1 }
        let trace: Trace
        do {
            trace = try Trace.parse(traceText)
        } catch {
            Log.error("tiltscrollctl: \(origin): \(error)")
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

    static func replayFile(_ path: String, options: ClientCommandLine) -> Int32 {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: 64 << 20, followingLinks: true)
        } catch {
            Log.error("tiltscrollctl: cannot read the trace: \(error)")
            return 1
        }
        return replay(traceText: String(decoding: bytes, as: UTF8.self), origin: path, options: options)
    }
}
