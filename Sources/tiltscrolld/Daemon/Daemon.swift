import Glibc
import ScrollPhysics

/// The running daemon: one thread, one `poll()` loop.
///
/// Every source of events is a descriptor or a deadline: signals (signalfd),
/// udev hotplug (netlink), tablet-mode switches and touch devices (evdev,
/// read-only), the system bus (sd-bus's socket, and its deadline while a
/// call of the daemon's awaits an answer), the sensor (a buffer descriptor,
/// or a read deadline when polling sysfs), the physics' output clock, the
/// lifecycle's retries and the systemd watchdog. With nothing to do
/// (scrolling off) no deadline exists except the watchdog's, and the process
/// sleeps in `poll()`; while active, the sensor runs only as fast as the
/// engine demands (Daemon+Rate.swift), and frames ride on its wake-ups.
///
/// Whether the sensor and the uinput device are held is the lifecycle's to
/// say (`SensorLifecycle`); where frames go, and what the run mode implies,
/// the sink's (`FrameSink`).
final class Daemon {
    typealias Lifecycle = SensorLifecycle<AccelerometerDevice>

    var configuration: Configuration
    let configSource: (path: String, required: Bool)
    let sink: FrameSink

    var engine: ScrollEngine
    var lifecycle: Lifecycle
    /// The person's switch and sensitivity; persisted when the sink persists state.
    var controls: UserControls
    let controlsStore: UserControlsStore
    /// Saving the controls failed; said once until a save works again.
    var controlsSaveFailing = false
    /// The controls are saved at most once per `controlsSaveInterval`: a
    /// desktop slider sends many changes, each not worth a file replaced and
    /// synced (it cost more than the rest of the change). The first change
    /// after a quiet interval is saved at once; later ones at `controlsSaveDue`.
    var controlsSavedAt = -Double.infinity
    var controlsSaveDue: Double?
    static let controlsSaveInterval = 1.0
    let signals: SignalChannel
    var hotplug: HotplugListener?
    var switches: [TabletModeSwitch] = []
    /// io.github.tiltscroll.TiltScroll1, when the sink serves it and the bus is there.
    var bus: BusService?
    /// What the published properties were made of, so that the loop
    /// rebuilds them only when it changed.
    var publishedKey: PublishedKey?
    /// The engine's orientation as last looked at, and when to look again:
    /// it changes with the pose, so it is read at most `engineLookInterval`
    /// apart (on rounds the loop makes anyway), never per sample.
    var engineOrientation: ScreenOrientation?
    var nextEngineLook = -Double.infinity
    static let engineLookInterval = 0.25
    /// Touchscreens and pens, followed while scrolling (`Daemon+Touch`).
    let touchDevices = TouchDevices()
    /// The intent state last shown (`Daemon+Intent`); nil while not capturing.
    var shownIntent: IntentState?

    /// The mount matrix of the lifecycle's sensor, kept apart for the per-sample path.
    var mountMatrix = MountMatrix.identity
    /// The open capture and the uinput device: held only while the
    /// lifecycle is active (`step` releases them when it leaves).
    var source: SampleSource?
    /// The sampling frequency a failed capture raised, kept raised while the
    /// lifecycle retries the same sensor (each attempt would otherwise write
    /// it and its journal again); restored when it stops trying.
    var retainedSettings: SettingsJournal?
    var scrollDevice: ScrollDevice?

    var notifier: ServiceNotifier
    let calibrationStore: CalibrationStore
    /// A neutral pose saved by an earlier run, applied on the first activation only.
    var savedNeutral: Vector3?
    /// Save the neutral pose once the engine has one (after a recalibration).
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
    /// Emission failures are logged once per streak, not once per frame.
    var emitFailing = false

    init(
        configuration: Configuration, configSource: (path: String, required: Bool), sink: FrameSink,
        signals: SignalChannel, now: Double
    ) {
        self.configuration = configuration
        self.configSource = configSource
        self.sink = sink
        self.signals = signals
        self.controlsStore = UserControlsStore.standard
        let controls =
            sink.persistsState
            ? Daemon.loadControls(from: controlsStore, mode: configuration.activation.when)
            : UserControls.initial(for: configuration.activation.when)
        self.controls = controls
        self.engine = ScrollEngine(settings: controls.applied(to: configuration.scroll))
        self.lifecycle = Daemon.makeLifecycle(configuration, controls, sink, hasDeviceMonitor: false)
        self.notifier = ServiceNotifier(now: now)
        self.calibrationStore = CalibrationStore.standard
        self.startTime = now
    }

    static func makeLifecycle(
        _ configuration: Configuration, _ controls: UserControls, _ sink: FrameSink, hasDeviceMonitor: Bool
    ) -> Lifecycle {
        Lifecycle(
            activation: ActivationInputs(
                mode: configuration.activation.when, tabletMode: nil, enabled: controls.enabled),
            followsActivation: sink.followsActivation, hasDeviceMonitor: hasDeviceMonitor)
    }

    // MARK: - Start and stop

    /// Finds the sensor, starts the services around it and runs the loop
    /// until SIGTERM or SIGINT. Returns the process exit status.
    func run() -> Int32 {
        let now = DaemonClock.now()
        let chosen: AccelerometerDevice
        do {
            chosen = try chooseDevice()
        } catch {
            Log.error(error.message)
            return 1
        }
        do {
            hotplug = try HotplugListener.open()
        } catch {
            Log.warning(
                "Hotplug disabled: \(error.message); looking for a returning sensor every \(Int(Lifecycle.rescanInterval)) s instead"
            )
        }
        lifecycle = Daemon.makeLifecycle(configuration, controls, sink, hasDeviceMonitor: hotplug != nil)
        step(.sensorFound(chosen), now: now)
        if sink.persistsState { savedNeutral = loadSavedNeutral(for: chosen) }
        scanSwitchesIfNeeded(now: now)
        if sink.holdsPidFile {
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
        if sink.destination == .monitorView {
            monitorView = MonitorView(settings: configuration.scroll, now: now)
        }

        reconcile(now: now)
        if lifecycle.state == .failed {
            // Nothing retrying would mend (no uinput, no permission); the report said why.
            shutDown()
            return 1
        }
        step(.started, now: now)
        if sink.servesBus { startBus(now: now) }
        lastStatus = statusLine()
        notifier.ready(status: lastStatus)
        // An active start was logged with its details when it opened.
        if lifecycle.state != .active { Log.info(lastStatus) }

        let stoppedOnRequest = loop()
        shutDown()
        return stoppedOnRequest ? 0 : 1
    }

    /// Everything the daemon changed goes back: sysfs settings, the uinput
    /// device, the bus name, the PID file, the signal mask. The sensor goes
    /// first: nothing after it may keep it from being restored.
    func shutDown() {
        notifier.stopping()
        releaseSensor()
        restoreRetainedSettings()
        if controlsSaveDue != nil { saveControls(now: DaemonClock.now()) }
        bus?.close()
        bus = nil
        monitorView?.finish()
        hotplug?.close()
        for sw in switches { sw.close() }
        switches.removeAll()
        touchDevices.closeAll()
        pidFile?.remove()
        signals.close()
    }

    // MARK: - The loop

    /// Runs until SIGTERM or SIGINT (true), or until `poll()` fails (false).
    func loop() -> Bool {
        while !stopRequested {
            let now = DaemonClock.now()
            reconcileTouchDevices(now: now)
            followIntent(now: now)
            poller.reset()
            let signalSlot = poller.watch(signals.descriptor)
            let hotplugSlot = hotplug.map { poller.watch($0.descriptor) }
            for sw in switches { poller.watch(sw.descriptor) }
            for device in touchDevices.devices { poller.watch(device.descriptor) }
            let sourceSlot = source?.pollDescriptor.map { poller.watch($0) }
            let busSlot = bus.map { poller.watch($0.connection.descriptor, events: $0.connection.events) }

            do {
                try poller.wait(until: nextDeadline(now: now), now: now)
            } catch {
                Log.error("\(error); stopping")
                return false
            }
            let woke = DaemonClock.now()

            if poller.isReadable(signalSlot) { handleSignals(now: woke) }
            if let hotplugSlot, poller.isReadable(hotplugSlot) { handleDeviceEvents(now: woke) }
            handleSwitches(now: woke)
            handleTouchDevices(now: woke)
            if let busSlot { serveBus(ready: poller.isReady(busSlot), now: woke) }
            captureSamples(now: woke, descriptorReady: sourceSlot.map { poller.isReadable($0) } ?? false)
            followSampleDemand(now: woke)
            emitDueFrame(now: woke)
            notifier.pingWatchdogIfDue(now: woke)
            if monitorView != nil { monitorView?.redrawIfDue(now: woke, snapshot: monitorSnapshot()) }
            reconcile(now: woke)
            publishIfChanged(now: woke)
            if let due = controlsSaveDue, woke >= due { saveControls(now: woke) }
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
        if let source, lifecycle.readsAllowed(at: now) { consider(source.nextReadTime(now: now)) }
        consider(lifecycle.nextDeadline)
        consider(controlsSaveDue)
        consider(engine.frameDeadline)
        consider(bus?.connection.deadline(now: now))
        consider(notifier.nextWatchdogPing)
        consider(monitorView?.nextRedraw)
        return deadline
    }

    // MARK: - Samples and frames

    func captureSamples(now: Double, descriptorReady: Bool) {
        guard let source, lifecycle.readsAllowed(at: now) else { return }
        if source.pollDescriptor != nil {
            guard descriptorReady else { return }
        } else {
            guard let due = source.nextReadTime(now: now), due <= now else { return }
        }
        let matrix = mountMatrix
        var delivered = false
        do {
            let status = try source.read(now: now) { sample in
                let corrected = matrix.apply(sample.acceleration)
                lastRaw = sample.acceleration
                lastCorrected = corrected
                engine.feed(corrected, at: sample.time)
                delivered = true
            }
            if case .retryLater(let until) = status {
                step(.readsRefused(until: until), now: now)
            } else if delivered, lifecycle.awaitsSamples {
                step(.samplesRead, now: now)
            }
        } catch {
            lose(error, now: now)
        }
        if saveNeutralWhenSet, let neutral = engine.neutral, let device = lifecycle.sensor {
            saveNeutralWhenSet = false
            saveNeutral(neutral, for: device)
        }
    }

    /// On every wake-up: a frame when one is due, so that samples that come
    /// about as often as frames carry them (`ScrollEngine.isFrameDue(at:)`),
    /// and the timer (`frameDeadline`) fires only when they do not.
    func emitDueFrame(now: Double) {
        guard engine.isFrameDue(at: now), let frame = engine.frame(at: now) else { return }
        switch sink.destination {
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
        case .standardOutput:
            var line = ""
            printer.write(
                ReplayStep(time: now - startTime, event: .frame, frame: frame, readout: engine.readout), to: &line)
            StandardOutput.write(line)
        case .monitorView:
            monitorView?.record(frame)
        }
    }
}
