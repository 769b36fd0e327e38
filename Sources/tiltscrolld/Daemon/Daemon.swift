import Glibc
import ScrollPhysics

/// Where scroll frames go.
enum FrameOutput: Equatable {
    /// The uinput device: the daemon's purpose.
    case uinput
    /// `--dry-run`: one printed line per frame, no uinput needed.
    case print
    /// `--monitor`: nothing is emitted; the terminal view shows the state.
    case monitor
}

/// The running daemon: one thread, one `poll()` loop.
///
/// Every source of events is a descriptor or a deadline: signals (signalfd),
/// udev hotplug (netlink), tablet-mode switches (evdev), the sensor (a buffer
/// descriptor, or a read deadline when polling sysfs), the physics' output
/// clock, a re-acquire back-off and the systemd watchdog. With nothing to do
/// (scrolling off) no deadline exists except the watchdog's, and the process
/// sleeps in `poll()`; while active, the sensor runs only as fast as the
/// engine demands (Daemon+Rate.swift), and frames ride on its wake-ups.
final class Daemon {
    var configuration: Configuration
    let configSource: (path: String, required: Bool)
    let output: FrameOutput

    var engine: ScrollEngine
    var activation: Activation
    let signals: SignalChannel
    var hotplug: HotplugListener?
    var switches: [TabletModeSwitch] = []

    /// The accelerometer chosen, while one is known.
    var device: AccelerometerDevice?
    /// Its mount matrix, kept apart for the per-sample path.
    var mountMatrix = MountMatrix.identity
    /// The open capture, only while scrolling is active.
    var source: SampleSource?
    /// Reads are held back until then after the driver refused them (another
    /// process's buffer running).
    var holdReadsUntil: Double?
    var scrollDevice: ScrollDevice?

    /// When to try again to open a sensor that exists but failed to open.
    var reacquireAt: Double?
    var reacquireDelay = Daemon.firstRetryDelay
    static let firstRetryDelay = 1.0
    static let longestRetryDelay = 30.0
    /// Without hotplug events nothing announces a returning sensor; look again this often.
    static let rescanWithoutHotplug = 5.0

    var notifier: ServiceNotifier
    let calibrationStore: CalibrationStore
    /// A neutral pose saved by an earlier run, applied on the first activation only.
    var savedNeutral: Vector3?
    /// Save the neutral pose once the engine has one (after SIGUSR1).
    var saveNeutralWhenSet = false
    var pidFile: PidFile?
    /// Where captures record the settings they change, for the next daemon
    /// if this one is killed; only while this process holds the PID file.
    var settingsJournalFile: SettingsJournalFile?

    var stopRequested = false
    var poller = Poller()
    let startTime: Double
    var printer = ReplayPrinter()
    var monitorView: MonitorView?
    /// The latest sample before and after the mount matrix, for the monitor.
    var lastRaw = Vector3.zero
    var lastCorrected = Vector3.zero
    /// The last status line sent to systemd and logged, and what it was made
    /// of: the line is rebuilt only when its parts change, so the loop does
    /// not format a string on every iteration.
    var lastStatus = ""
    var lastStatusKey: StatusKey?
    /// Set by the first acquisition when it failed for a reason no retry mends.
    var startupFailure: String?
    /// Emission failures are logged once per streak, not once per frame.
    var emitFailing = false

    init(
        configuration: Configuration, configSource: (path: String, required: Bool), output: FrameOutput,
        signals: SignalChannel, now: Double
    ) {
        self.configuration = configuration
        self.configSource = configSource
        self.output = output
        self.signals = signals
        self.engine = ScrollEngine(settings: configuration.scroll)
        // The monitor shows the sensor whatever the activation says.
        self.activation = Activation(mode: output == .monitor ? .always : configuration.activation.when)
        self.notifier = ServiceNotifier(now: now)
        self.calibrationStore = CalibrationStore.standard
        self.startTime = now
    }

    // MARK: - Start and stop

    /// Finds the sensor, starts the services around it and runs the loop
    /// until SIGTERM or SIGINT. Returns the process exit status.
    func run() -> Int32 {
        let now = DaemonClock.now()
        do {
            adopt(try chooseDevice())
        } catch {
            Log.error(error.message)
            return 1
        }
        if output != .monitor, let chosen = device {
            savedNeutral = loadSavedNeutral(for: chosen)
        }
        do {
            hotplug = try HotplugListener.open()
        } catch {
            Log.warning(
                "Hotplug disabled: \(error.message); looking for a returning sensor every \(Int(Daemon.rescanWithoutHotplug)) s instead"
            )
        }
        scanSwitchesIfNeeded()
        if output == .uinput {
            do {
                let file = try PidFile.create()
                pidFile = file
                // No other daemon runs, so a journal in the runtime directory
                // is a dead one's: put its settings back before capturing,
                // or this daemon would take the changed values for originals.
                let journalFile = SettingsJournalFile(directory: file.directory)
                SettingsJournal.restoreLeftovers(from: journalFile)
                settingsJournalFile = journalFile
            } catch .alreadyRunning(let pid, let path) {
                // Two daemons would scroll twice as far.
                Log.error("Another tiltscrolld is already running (PID \(pid), \(path)); stop it first")
                shutDown()
                return 1
            } catch {
                Log.debug("No PID file: \(error)")
            }
        }
        if output == .monitor {
            monitorView = MonitorView(settings: configuration.scroll, now: now)
        }

        reconcile(now: now)
        if let fatal = startupFailure {
            // Nothing retrying would mend (no uinput, no permission): say so and stop.
            Log.error(fatal)
            shutDown()
            return 1
        }
        lastStatus = statusLine()
        notifier.ready(status: lastStatus)
        // An active start was logged with its details by acquire().
        if activation.state != .active { Log.info(lastStatus) }

        let stoppedOnRequest = loop()
        shutDown()
        return stoppedOnRequest ? 0 : 1
    }

    /// Everything the daemon changed goes back: sysfs settings, the uinput
    /// device, the PID file, the signal mask.
    func shutDown() {
        notifier.stopping()
        releaseSensor()
        monitorView?.finish()
        hotplug?.close()
        for sw in switches { sw.close() }
        switches.removeAll()
        pidFile?.remove()
        signals.close()
    }

    // MARK: - The loop

    /// Runs until SIGTERM or SIGINT (true), or until `poll()` fails (false).
    func loop() -> Bool {
        while !stopRequested {
            let now = DaemonClock.now()
            poller.reset()
            let signalSlot = poller.watch(signals.descriptor)
            let hotplugSlot = hotplug.map { poller.watch($0.descriptor) }
            for sw in switches { poller.watch(sw.descriptor) }
            let sourceSlot = source?.pollDescriptor.map { poller.watch($0) }

            do {
                try poller.wait(until: nextDeadline(now: now), now: now)
            } catch {
                Log.error("\(error); stopping")
                return false
            }
            let woke = DaemonClock.now()

            if poller.isReadable(signalSlot) { handleSignals(now: woke) }
            if let hotplugSlot, poller.isReadable(hotplugSlot) { handleDeviceEvents(now: woke) }
            handleSwitches()
            captureSamples(now: woke, descriptorReady: sourceSlot.map { poller.isReadable($0) } ?? false)
            followSampleDemand(now: woke)
            emitDueFrame(now: woke)
            notifier.pingWatchdogIfDue(now: woke)
            if monitorView != nil { monitorView?.redrawIfDue(now: woke, snapshot: monitorSnapshot()) }
            reconcile(now: woke)
        }
        return true
    }

    /// The earliest time anything needs the loop; nil sleeps until an event.
    func nextDeadline(now: Double) -> Double? {
        var deadline: Double? = nil
        func consider(_ time: Double?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
        if let source {
            if let hold = holdReadsUntil { consider(hold) } else { consider(source.nextReadTime(now: now)) }
        }
        consider(engine.frameDeadline)
        consider(reacquireAt)
        consider(notifier.nextWatchdogPing)
        consider(monitorView?.nextRedraw)
        return deadline
    }

    // MARK: - Samples and frames

    func captureSamples(now: Double, descriptorReady: Bool) {
        guard let source else { return }
        if let hold = holdReadsUntil {
            guard now >= hold else { return }
            holdReadsUntil = nil
        }
        if source.pollDescriptor != nil {
            guard descriptorReady else { return }
        } else {
            guard let due = source.nextReadTime(now: now), due <= now else { return }
        }
        let matrix = mountMatrix
        do {
            let status = try source.read(now: now) { sample in
                let corrected = matrix.apply(sample.acceleration)
                lastRaw = sample.acceleration
                lastCorrected = corrected
                engine.feed(corrected, at: sample.time)
            }
            if case .retryLater(let until) = status { holdReadsUntil = until }
        } catch {
            lose(error, now: now)
        }
        if saveNeutralWhenSet, let neutral = engine.neutral, let device {
            saveNeutralWhenSet = false
            saveNeutral(neutral, for: device)
        }
    }

    /// On every wake-up: a frame when one is due, so that samples that come
    /// about as often as frames carry them (`ScrollEngine.isFrameDue(at:)`),
    /// and the timer (`frameDeadline`) fires only when they do not.
    func emitDueFrame(now: Double) {
        guard engine.isFrameDue(at: now), let frame = engine.frame(at: now) else { return }
        switch output {
        case .uinput:
            guard let scrollDevice else { return }
            do {
                try scrollDevice.emit(frame)
                if emitFailing {
                    emitFailing = false
                    Log.info("Scroll events flow again")
                }
            } catch {
                if !emitFailing {
                    emitFailing = true
                    Log.warning("Cannot emit scroll events: \(error)")
                }
            }
        case .print:
            var line = ""
            printer.write(
                ReplayStep(time: now - startTime, event: .frame, frame: frame, readout: engine.readout), to: &line)
            StandardOutput.write(line)
        case .monitor:
            monitorView?.record(frame)
        }
    }
}
