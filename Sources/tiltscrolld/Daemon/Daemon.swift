import Glibc
import ScrollPhysics
import TiltScrollCommon

/// How the daemon was asked to run, and where its files are.
struct DaemonRole {
    /// `--dry-run`: frames are printed instead of emitted, and the daemon
    /// holds no PID file, so that it can run beside the real one.
    var printsFrames = false
    /// The configuration file and whether it must exist.
    var configSource: (path: String, required: Bool) = (Configuration.defaultPath, false)
    var controlsStore = UserControlsStore.standard
    var calibrationStore = CalibrationStore.standard
    var pidFile = PidFile.fromEnvironment()
    /// What systemd passed (`$NOTIFY_SOCKET`, the watchdog).
    var service = ServiceNotifier.Environment.current()
}

/// The running daemon: one thread, one `poll()` loop, and the parts it
/// drives, each with one job:
///
/// - `lifecycle` (`SensorLifecycle`): whether a sensor is wanted, found,
///   failing or captured; its `active` state owns the `SensorSession` (the
///   capture and the uinput device);
/// - `engine` (`ScrollEngine`, pure): samples in, frames out;
/// - `persistence`: the person's controls and the neutral pose, kept
///   across restarts; `instance`: the PID file and the settings journal;
/// - `posture` (`PostureWatch`): tablet mode from the hinge angle where
///   the machine has an accelerometer in its base and no tablet-mode
///   switch, and the switch it may publish;
/// - the event sources: `signals`, `hotplug` (udev), `switches`
///   (tablet mode, the lid), `touch` (touchscreens and pens), `bus` (the
///   D-Bus interface), `logind` (the person's session and sleep, on the
///   bus's connection), `monitors` (`tiltscrollctl monitor`);
/// - `snapshot`: what the daemon is doing, built once a round; the systemd
///   status, the bus's properties and the monitors' state derive from it.
///
/// Every source of events is a descriptor or a deadline, and the machine is
/// reached only through `platform` (`DaemonPlatform`), so a unit test runs
/// this loop with fakes at memory speed. A round (`round()`) waits, reads
/// what woke it, applies the requests that came (signals, the bus) with the
/// round's time, moves samples to the engine and frames to the output, does
/// what the lifecycle's state asks for, and publishes the snapshot when it
/// changed. With nothing to do (scrolling off) no deadline exists but the
/// watchdog's, and the process sleeps in `poll()`; while active, the sensor
/// runs only as fast as the engine demands and frames ride on its wake-ups.
final class Daemon {
    typealias Lifecycle = SensorLifecycle<AccelerometerDevice, SensorSession, SettingsJournal>

    let platform: DaemonPlatform
    let role: DaemonRole
    private(set) var configuration: Configuration
    private(set) var lifecycle: Lifecycle
    private(set) var engine: ScrollEngine
    private(set) var persistence: Persistence
    private var instance: DaemonInstance?
    private let signals: SignalSource
    private var hotplug: DeviceEventSource? {
        didSet { hotplugDescriptor = hotplug?.descriptor }
    }
    /// The two sources' descriptors, fixed while each is open: the round
    /// polls them without a call through their protocols (with the
    /// reference counting around it, about 70 instructions a round).
    private let signalDescriptor: FileDescriptor
    private var hotplugDescriptor: FileDescriptor?
    private var switches = MachineSwitches()
    /// Internal for the tests: what the hinge reads and tells.
    let posture: PostureWatch
    private let touch: TouchDevices
    private var bus: BusEndpoint?
    /// logind, while a `Pause*=` key asks what it says and the bus is there.
    private var logind: LogindSource?
    /// What logind said last; `.unknown` without it.
    private var logindView = LogindView.unknown
    /// The lid switches' state said last, to say changes once.
    private var lidClosed: Bool?
    private let monitors = MonitorStreams()
    private var notifier: ServiceNotifier
    /// What the daemon was doing at the end of the last round.
    private(set) var snapshot: DaemonSnapshot
    /// What signals and the bus asked for this round, applied in order.
    private var requests: [ControlRequest] = []
    /// A reload failed: the message, until one succeeds.
    private var configurationProblem: String?
    private let poller = Poller()
    /// Set once SIGTERM or SIGINT came.
    private(set) var isStopping = false
    /// When the daemon started: the origin of `--dry-run`'s times.
    let startTime: Double

    init(platform: DaemonPlatform, role: DaemonRole, configuration: Configuration, signals: SignalSource) {
        let now = platform.now()
        self.platform = platform
        self.role = role
        self.configuration = configuration
        self.signals = signals
        signalDescriptor = signals.descriptor
        persistence = Persistence(
            controlsStore: role.controlsStore, calibrationStore: role.calibrationStore,
            mode: configuration.activation.when)
        engine = ScrollEngine(settings: persistence.controls.applied(to: configuration.scroll))
        lifecycle = Lifecycle(
            activation: ActivationInputs(
                mode: configuration.activation.when, tabletMode: nil, enabled: persistence.controls.enabled),
            hasDeviceMonitor: false)
        touch = TouchDevices(opener: platform.touchInputs)
        posture = PostureWatch(platform: platform, mayPublish: !role.printsFrames)
        notifier = ServiceNotifier(environment: role.service, now: now)
        startTime = now
        snapshot = DaemonSnapshot(
            phase: .off(lifecycle.activation), sensor: nil, controls: persistence.controls, tabletMode: nil,
            orientation: nil)
    }

    // MARK: - Start and stop

    /// Runs until SIGTERM or SIGINT; returns the process exit status.
    func run() -> Int32 {
        guard start() else {
            shutDown()
            return 1
        }
        while !isStopping {
            do {
                try round()
            } catch {
                Log.error("\(error); stopping")
                shutDown()
                return 1
            }
        }
        shutDown()
        return 0
    }

    /// Finds the sensor, claims the machine, opens what is wanted and joins
    /// the bus. False when the daemon cannot run (no accelerometer, another
    /// daemon, a failure no retry mends); the log said why.
    func start() -> Bool {
        let now = platform.now()
        let chosen: AccelerometerDevice
        do {
            chosen = try platform.chooseSensor(configuration.device)
        } catch {
            Log.error(error.message)
            return false
        }
        do {
            hotplug = try platform.openHotplug()
        } catch {
            Log.warning(
                "Hotplug disabled: \(error.message); looking for a returning sensor every "
                    + "\(Int(Lifecycle.rescanInterval)) s instead")
        }
        lifecycle = Lifecycle(activation: lifecycle.activation, hasDeviceMonitor: hotplug != nil)
        step(.sensorFound(chosen), now: now)
        posture.discover(display: chosen, base: platform.findBaseSensor(besides: chosen))
        if !role.printsFrames {
            do {
                instance = try DaemonInstance.claim(role.pidFile)
            } catch .alreadyRunning(let pid, let path) {
                // Two daemons would scroll twice as far.
                Log.error("Another tiltscrolld is already running (PID \(pid), \(path)); stop it first")
                return false
            } catch {
                Log.debug("No PID file: \(error)")
            }
        }
        posture.journalFiles = (instance?.journalFile, instance?.baseJournalFile)
        followSwitches(now: now)
        reconcile(now: now)
        if case .failed = lifecycle.state { return false }
        step(.started, now: now)
        snapshot = makeSnapshot()
        connectBus()
        notifier.ready(status: snapshot.serviceStatus)
        // An active start was said with its details when it opened.
        if !snapshot.isActive { Log.info(snapshot.statusLine) }
        return true
    }

    /// Everything the daemon changed goes back: sysfs settings, the uinput
    /// device, the bus name, the PID file, the signal mask. The sensor goes
    /// first: nothing after it may keep it from being restored.
    func shutDown() {
        notifier.stopping()
        let now = platform.now()
        letGoOfSensor()
        posture.close()
        persistence.flush(now: now)
        // After the sensor: the sleep inhibitor may hold sleep back until then.
        logind?.close()
        logind = nil
        bus?.close()
        bus = nil
        monitors.closeAll()
        hotplug?.close()
        hotplug = nil
        switches.closeAll()
        touch.closeAll()
        instance?.release()
        instance = nil
        signals.close()
    }

    // MARK: - One round of the loop

    /// Waits for what comes next and handles it.
    func round() throws(SystemError) {
        let now = platform.now()
        followTouch(now: now)
        poller.reset()
        let signalSlot = poller.watch(signalDescriptor)
        let hotplugSlot = hotplugDescriptor.map { poller.watch($0) }
        for found in switches.switches { poller.watch(found.descriptor) }
        for device in touch.devices { poller.watch(device.descriptor) }
        // Which session was watched, by identity: a session opened this round was not.
        let opened = lifecycle.session.map(ObjectIdentifier.init)
        let sensorSlot = lifecycle.session?.pollDescriptor.map { poller.watch($0) }
        let ownDisplaySlot = posture.pollDescriptor.map { poller.watch($0) }
        let busSlot = bus.map { poller.watch($0.descriptor, events: $0.events) }
        if !monitors.isEmpty { monitors.watch(into: poller) }

        try platform.wait(poller, until: nextDeadline(now: now), now: now)
        let woke = platform.now()

        if poller.isReadable(signalSlot) { readSignals() }
        if let hotplugSlot, poller.isReadable(hotplugSlot) { handleDeviceEvents(now: woke) }
        // A switch that said something is followed at once, before the
        // samples; the hinge's part of tablet mode is followed every round
        // below (`followPosture`).
        if switches.drainReadable({ poller.isReadable($0) }) { followSwitchStates(now: woke) }
        if !touch.devices.isEmpty {
            touch.drainReadable { poller.isReadable($0) }
            passTouchChanges(now: woke)
        }
        if let busSlot { serveBus(ready: poller.isReady(busSlot), now: woke) }
        if !monitors.isEmpty { monitors.dropClosed { poller.isReady($0) } }
        applyRequests(now: woke)
        // The session may have changed with the requests: the one open now,
        // taken once for the round's samples and frame.
        let session = lifecycle.session
        if let session, lifecycle.readsAllowed(at: woke) {
            // A session opened this round was not watched: its descriptor is read from the next.
            let ready = ObjectIdentifier(session) == opened && sensorSlot.map { poller.isReadable($0) } ?? false
            captureSamples(session, now: woke, descriptorReady: ready)
            posture.takeSession(session, now: woke)
            session.follow(sampleDemand, now: woke)
        }
        posture.readOwnDisplay(now: woke, descriptorReady: ownDisplaySlot.map { poller.isReadable($0) } ?? false)
        // A read that failed let go of the session: the frame then goes nowhere.
        if let frame = takeDueFrame(now: woke), let session, session === lifecycle.session {
            session.emit(frame, at: woke) { engine.readout }
            if !monitors.isEmpty { monitors.count(frame) }
        }
        notifier.pingWatchdogIfDue(now: woke)
        followPosture(now: woke)
        reconcile(now: woke)
        persistence.saveIfDue(now: woke)
        publish(now: woke)
    }

    /// The earliest time anything needs the loop; nil sleeps until an event.
    func nextDeadline(now: Double) -> Double? {
        var deadline: Double? = nil
        func consider(_ time: Double?) {
            guard let time else { return }
            deadline = min(deadline ?? time, time)
        }
        if let session = lifecycle.session, lifecycle.readsAllowed(at: now) {
            consider(session.capture.nextReadTime(now: now))
        }
        consider(posture.nextReadTime(now: now))
        consider(lifecycle.nextDeadline)
        consider(persistence.saveDue)
        consider(engine.frameDeadline)
        consider(bus?.deadline(now: now))
        consider(notifier.nextWatchdogPing)
        consider(monitors.deadline)
        return deadline
    }

    // MARK: - Samples and frames

    /// What the scrolling capture runs at: the engine's demand, and at
    /// least the pair rate while the hinge is watched on its samples.
    private var sampleDemand: SampleDemand {
        var demand = engine.sampleDemand
        if let hinge = posture.demandRate, hinge > demand.rate { demand.rate = hinge }
        return demand
    }

    private func captureSamples(_ session: SensorSession, now: Double, descriptorReady: Bool) {
        if session.pollDescriptor != nil {
            guard descriptorReady else { return }
        } else {
            guard let due = session.capture.nextReadTime(now: now), due <= now else { return }
        }
        do {
            let (status, delivered) = try session.read(into: &engine, now: now)
            if case .retryLater(let until) = status {
                step(.readsRefused(until: until), now: now)
            } else if delivered, lifecycle.isProving {
                step(.samplesRead, now: now)
            }
        } catch {
            lose(session, error, now: now)
        }
        if persistence.waitsForNeutral {
            persistence.saveNeutralIfTaken(engine.neutral, for: lifecycle.sensor)
        }
    }

    /// On every wake-up: a frame when one is due, so that samples that come
    /// about as often as frames carry them (`ScrollEngine.isFrameDue(at:)`),
    /// and the timer (`frameDeadline`) fires only when they do not. Taken
    /// from the engine with no session to emit it to as well, so that the
    /// engine's clock moves on.
    private func takeDueFrame(now: Double) -> ScrollFrame? {
        guard engine.isFrameDue(at: now) else { return nil }
        return engine.frame(at: now)
    }

    /// The open capture failed: a broken sensor is retried, keeping its
    /// raised sampling frequency; one that is gone is looked for.
    private func lose(_ session: SensorSession, _ error: CaptureError, now: Double) {
        let sensor = lifecycle.sensor
        let failure = CaptureFailure(step: .read, message: "\(sensor?.name ?? "the accelerometer"): \(error.message)")
        let exists = sensor.map { platform.sensorExists(at: $0.sysfsPath) } ?? false
        let kept = session.capture.releaseForRetry()
        step(.readFailed(failure, sensorStillExists: exists, kept: kept.isEmpty ? nil : kept), now: now)
    }

    // MARK: - The lifecycle

    /// Feeds `event` to the lifecycle and carries out what it hands back:
    /// the transition is logged by name (debug), an event the state did not
    /// expect is said, a session let go of is closed, settings kept for
    /// retries that will not come are restored, the report is said.
    private func step(_ event: Lifecycle.Event, now: Double) {
        let outcome = lifecycle.handle(event, at: now)
        if let transition = outcome.transition { Log.debug("Lifecycle: \(transition)") }
        if let unexpected = outcome.unexpected { Log.notice("Lifecycle: \(unexpected)") }
        if let (session, forRetry) = outcome.released {
            session.close(forRetry: forRetry)
            engine.halt()
        }
        outcome.restore?.restoreAll()
        if let report = outcome.report { say(report, now: now) }
    }

    /// Does what the lifecycle's state asks for until it asks for nothing:
    /// discovery in `lookingForSensor`, opening in `opening`.
    private func reconcile(now: Double) {
        if let due = lifecycle.nextDeadline, now >= due { step(.tick, now: now) }
        // Each step moves on (found or not, opened or failed); the bound is a guard.
        for _ in 0..<8 {
            switch lifecycle.state {
            case .lookingForSensor:
                do {
                    step(.sensorFound(try platform.chooseSensor(configuration.device)), now: now)
                } catch {
                    Log.debug("No accelerometer yet: \(error.message)")
                    step(.sensorNotFound, now: now)
                }
            case .opening(let sensor, let kept):
                open(sensor, kept: kept, now: now)
            default:
                return
            }
        }
    }

    /// Opens the capture and the output, and sets the neutral pose: the one
    /// saved by an earlier run on the first activation, the pose held now
    /// on every later one.
    private func open(_ sensor: AccelerometerDevice, kept: SettingsJournal?, now: Double) {
        // A buffer is exclusive, and the journal file is the same: the hinge's own goes first.
        posture.closeOwnDisplay()
        let journal = kept ?? SettingsJournal(file: instance?.journalFile)
        let capture: SampleSource
        do {
            capture = try platform.openCapture(sensor, configuration.device, journal: journal)
        } catch {
            let failure = CaptureFailure(
                step: .capture, message: "\(sensor.name): \(error.message)",
                retryMayMend: error.kind != .permissionDenied)
            step(.openFailed(failure, kept: journal.isEmpty ? nil : journal), now: now)
            return
        }
        let output: FrameOutput
        do {
            output =
                role.printsFrames
                ? FramePrinter(startTime: startTime)
                : try platform.openScrollDevice(horizontal: configuration.scroll.horizontal)
        } catch {
            capture.release()
            step(
                .openFailed(CaptureFailure(step: .scrollDevice, message: "\(error)", retryMayMend: false), kept: nil),
                now: now)
            return
        }
        let session = SensorSession(capture: capture, output: output, mountMatrix: sensor.mountMatrix)
        engine.setSensorResolution(capture.calibration.resolution)
        if !hasActivatedBefore, let saved = persistence.savedNeutral(for: sensor) {
            engine.restoreNeutral(saved)
        } else {
            engine.recalibrate(at: now)
        }
        hasActivatedBefore = true
        step(.opened(session), now: now)
        // Where the output shows the physics (--dry-run), a new session
        // starts from the pose taken now; every later change of the intent
        // is told as it comes (`say(from:to:)`).
        session.output.note(.intent, at: now) { engine.readout }
    }

    /// The saved neutral pose applies to the first activation only.
    private var hasActivatedBefore = false

    /// The session goes, if there is one (the daemon is stopping).
    private func letGoOfSensor() {
        if case .retrying(_, _, let kept?) = lifecycle.state { kept.restoreAll() }
        if case .opening(_, let kept?) = lifecycle.state { kept.restoreAll() }
        if let session = lifecycle.session {
            session.close(forRetry: false)
            engine.halt()
        }
    }

    /// What the lifecycle reports, in the log.
    private func say(_ report: Lifecycle.Report, now: Double) {
        switch report {
        case .started:
            let name = lifecycle.sensor?.name.description ?? "?"
            let mode = lifecycle.session?.capture.mode.rawValue ?? "?"
            let node = lifecycle.session?.output.deviceNode.map { " as \($0)" } ?? ""
            Log.info("Scrolling with \(name) (\(mode) capture)\(node)")
        case .stopped(let reason):
            Log.info("Scrolling off: \(reason)")
        case .paused(let reason):
            Log.info("Scrolling paused: \(reason.sentence)")
        case .failure(.failing(let failure, let retryIn)):
            Log.warning(
                "\(failure.sentence); trying again in \(RetryBackoff.format(retryIn)), then less and less often "
                    + "(at most every \(RetryBackoff.format(RetryBackoff.longestDelay)))")
        case .failure(.stillFailing(let failure, let attempts, let since, let retryIn)):
            Log.warning(
                "\(failure.sentence); still failing after \(attempts) attempts in "
                    + "\(RetryBackoff.format(now - since)); next in \(RetryBackoff.format(retryIn))")
        case .recovered(let attempts):
            Log.notice(
                "\(lifecycle.sensor?.name.description ?? "The accelerometer") works again after \(attempts) failed attempts"
            )
        case .gone(let name, let failure?):
            Log.warning("Lost \(name): \(failure.message); waiting for it to return")
        case .gone(let name, nil):
            Log.notice("\(name) went away; waiting for it to return")
        case .unusable(let name, let reason):
            Log.error("\(name): \(reason)")
        case .fatal(let failure):
            Log.error(failure.sentence)
        }
    }

    // MARK: - Requests: signals and the bus

    private func readSignals() {
        signals.drain { signal in
            switch signal {
            case SIGTERM, SIGINT: requests.append(.stop(SignalChannel.name(signal)))
            case SIGUSR1: requests.append(.calibrate(by: "SIGUSR1", reply: nil))
            case SIGUSR2: requests.append(.toggle(by: "SIGUSR2"))
            case SIGHUP: requests.append(.reload)
            default: break
            }
        }
    }

    /// Dispatches what the bus brought (`ready`) or what its deadline asks
    /// for; what callers asked for joins the round's requests, what logind
    /// said is followed at once.
    private func serveBus(ready: Bool, now: Double) {
        guard let bus else { return }
        if !ready, bus.deadline(now: now).map({ $0 > now }) ?? true { return }
        do {
            try bus.process(into: &requests)
            takeLogindViews(now: now)
        } catch {
            Log.warning(
                "Lost the system bus (\(error.message)); the D-Bus interface is off and the session is not "
                    + "followed until tiltscrolld restarts")
            stopWatchingLogind(now: now)
            bus.close()
            self.bus = nil
        }
    }

    /// Applies the round's requests in the order they came, with the round's time.
    private func applyRequests(now: Double) {
        guard !requests.isEmpty else { return }
        // Taken first: applying one never adds another, but a request must
        // not be applied twice if it did.
        let pending = requests
        requests.removeAll(keepingCapacity: true)
        for request in pending {
            switch request {
            case .change(.enabled(let on), let who): setEnabled(on, by: who, now: now)
            case .change(.sensitivity(let factor), let who): setSensitivity(factor, by: who, now: now)
            case .toggle(let who): setEnabled(!persistence.controls.enabled, by: who, now: now)
            case .calibrate(let who, let reply): recalibrate(by: who, reply: reply, now: now)
            case .watch(let who, let reply): monitors.attach(reply, by: who, now: now)
            case .reload: reload(now: now)
            case .stop(let signal):
                if !isStopping { Log.info("\(signal): stopping") }
                isStopping = true
            }
        }
    }

    /// The switch: on top of `[Activation] When=`, persisted. Takes effect
    /// within the round (the sensor opened or let go) and is published at its end.
    private func setEnabled(_ on: Bool, by who: String, now: Double) {
        guard persistence.setEnabled(on, now: now) else { return }
        Log.info("Scrolling switched \(on ? "on" : "off") (\(who))")
        step(.enabledChanged(on), now: now)
    }

    /// A factor on `Speed=`, persisted; the configuration file is left as it is.
    private func setSensitivity(_ factor: Double, by who: String, now: Double) {
        guard persistence.setSensitivity(factor, now: now) else { return }
        engine.apply(persistence.controls.applied(to: configuration.scroll))
        // A slider sends many; they are not each worth a line of the journal.
        Log.debug("Sensitivity \(factor) (\(who))")
    }

    /// Makes the current pose neutral, saved once the engine has taken it;
    /// refused while not scrolling, when there is no pose to take.
    private func recalibrate(by who: String, reply: CalibrationReply?, now: Double) {
        guard lifecycle.isActive else {
            Log.notice("Recalibration asked (\(who)) while not scrolling; the pose is taken when scrolling starts")
            reply?.refused(
                BusError(
                    name: BusError.notActive,
                    message: "Tilt scrolling is not active (\(snapshot.statusLine)); the pose is taken when it starts"))
            return
        }
        engine.recalibrate(at: now)
        persistence.saveNeutralWhenTaken()
        Log.info("Recalibrated (\(who)): the current pose is neutral")
        reply?.succeeded()
    }

    // MARK: - Reload

    /// SIGHUP: read the configuration again; a bad file keeps the running one.
    private func reload(now: Double) {
        notifier.reloading()
        let new: Configuration
        do {
            new = try Configuration.load(path: role.configSource.path, required: role.configSource.required)
        } catch {
            Log.error("Reload failed, keeping the running configuration: \(error)")
            configurationProblem = "\(error)"
            // systemd waits for READY=1 after RELOADING=1, failed or not.
            notifier.ready(status: makeSnapshot().serviceStatus)
            return
        }
        configurationProblem = nil
        apply(new, now: now)
        Log.info("Reloaded \(role.configSource.path)")
        reconcile(now: now)
        notifier.ready(status: makeSnapshot().serviceStatus)
    }

    private func apply(_ new: Configuration, now: Double) {
        let old = configuration
        configuration = new
        engine.apply(persistence.controls.applied(to: new.scroll))
        if new.device != old.device {
            // Another device, matrix, rate or mode: choose and open afresh.
            step(.deviceSettingsChanged, now: now)
            discoverHinge()
        } else if new.scroll.horizontal != old.scroll.horizontal {
            // The wheel's capabilities changed: a new uinput device.
            step(.outputSettingsChanged, now: now)
        }
        if new.activation.when != old.activation.when { step(.modeChanged(new.activation.when), now: now) }
        if new.activation != old.activation {
            followSwitches(now: now)
            watchLogind(now: now)
            if new.activation.pauseForSleep != old.activation.pauseForSleep {
                logind?.holdSleepInhibitor(new.activation.pauseForSleep)
            }
            updatePause(now: now)
        }
    }

    // MARK: - udev

    private func handleDeviceEvents(now: Double) {
        guard let hotplug else { return }
        var appeared = false
        var accelerometersChanged = false
        let eventsLost = hotplug.drain { event in
            switch event.subsystem {
            case "iio":
                accelerometersChanged = true
                if let current = lifecycle.sensor, event.sysfsPath == current.sysfsPath {
                    handleCurrentSensor(event, now: now)
                } else if event.action == .add || event.action == .bind {
                    appeared = true
                }
            case "input":
                switches.handle(event, on: platform)
                followSwitchStates(now: now)
                handleTouchDeviceEvent(event, now: now)
            default:
                break
            }
        }
        if eventsLost {
            // A remove or add may be among the lost: check the sensor in use
            // is still there, and look for one if none is.
            if let current = lifecycle.sensor, !platform.sensorExists(at: current.sysfsPath) {
                step(.sensorRemoved, now: now)
            }
            appeared = true
            switches.rescan(on: platform)
            followSwitchStates(now: now)
            touch.refresh()
            passTouchChanges(now: now)
        }
        if appeared { step(.sensorAppeared, now: now) }
        if accelerometersChanged || eventsLost {
            discoverHinge()
            followPosture(now: now)
        }
    }

    private func handleCurrentSensor(_ event: DeviceEvent, now: Double) {
        switch event.action {
        case .remove, .unbind:
            step(.sensorRemoved, now: now)
        case .change:
            // hwdb or rules may have changed the mount matrix or location.
            guard
                let updated = try? platform.describeSensor(
                    at: event.sysfsPath, matrixOverride: configuration.device.mountMatrix),
                let current = lifecycle.sensor
            else { return }
            if updated.mountMatrix != current.mountMatrix {
                Log.info("Mount matrix of \(updated.name) is now \(updated.mountMatrix) (\(updated.mountMatrixSource))")
                if let session = lifecycle.session {
                    session.mountMatrix = updated.mountMatrix
                    engine.recalibrate(at: now)
                }
            }
            step(.sensorChanged(updated), now: now)
        default:
            break
        }
    }

    // MARK: - The machine's switches

    /// The switches a key asks for: tablet mode for `When=auto` and
    /// `tablet-mode`, the lid for `PauseWhenLidClosed=yes`. The others are
    /// never opened.
    private var wantedSwitches: SwitchKinds {
        var kinds: SwitchKinds = []
        // Publishing asks too: a machine with a switch of its own needs no second one.
        if hingeDecidesActivation || publishesTabletMode { kinds.insert(.tabletMode) }
        if configuration.activation.pauseWhenLidClosed { kinds.insert(.lid) }
        return kinds
    }

    private func followSwitches(now: Double) {
        switches.follow(wantedSwitches, on: platform)
        followSwitchStates(now: now)
    }

    /// The switches' state into the lifecycle: tablet mode as an
    /// activation input (with the hinge's, `followPosture`), the lid as a
    /// reason to pause.
    private func followSwitchStates(now: Double) {
        followPosture(now: now)
        let lid = switches.lidClosed
        if lid != lidClosed {
            if let lid, let was = lidClosed, lid != was { Log.info(lid ? "Lid closed" : "Lid opened") }
            lidClosed = lid
            updatePause(now: now)
        }
    }

    // MARK: - Tablet mode from the hinge

    /// Whether `When=` asks for tablet mode (`auto`, `tablet-mode`).
    private var hingeDecidesActivation: Bool {
        let mode = lifecycle.activation.mode
        return mode == .auto || mode == .tabletMode
    }

    private var publishesTabletMode: Bool { configuration.activation.publishTabletMode }

    /// Whether the hinge tells tablet mode: both accelerometers, no switch
    /// of the machine's, and `When=` or publishing asks.
    private var hingeTellsTabletMode: Bool {
        posture.isAvailable && switches.tabletMode == nil && (hingeDecidesActivation || publishesTabletMode)
    }

    /// The machine's accelerometers, for the hinge: the display's as the
    /// lifecycle would choose it, and the base's beside it.
    private func discoverHinge() {
        let display: AccelerometerDevice?
        do {
            display = try platform.chooseSensor(configuration.device)
        } catch {
            display = nil
        }
        posture.discover(display: display, base: display.flatMap { platform.findBaseSensor(besides: $0) })
    }

    /// The hinge where it tells tablet mode: the watch reads what is needed
    /// now and lets go of the rest, tablet mode (the switch's where there
    /// is one, else the hinge's) goes into the lifecycle, and the switch is
    /// published as configured. Every round, and at once after what changes
    /// it (a switch, the pause): no allocation while nothing changes.
    private func followPosture(now: Double) {
        // A machine with no switch and one accelerometer: nothing tells tablet
        // mode, nothing is to be published, and the lifecycle knows (every
        // round of most machines; what follows would conclude the same).
        if posture.isIdle, switches.tabletMode == nil, lifecycle.activation.tabletMode == nil,
            lifecycle.activation.tabletModeSource == .none
        {
            return
        }
        let needed =
            hingeTellsTabletMode && PostureWatch.isNeeded(lifecycle.activation, publishing: publishesTabletMode)
        followHinge(needed: needed, now: now)
        // After the watch followed: a capture that failed to open means the hinge no longer tells.
        let tells = hingeTellsTabletMode
        let state: Bool?
        let source: TabletModeSource
        if let switchState = switches.tabletMode {
            (state, source) = (switchState, .switch)
        } else if tells {
            (state, source) = (posture.tabletMode, .hinge)
        } else {
            (state, source) = (nil, .none)
        }
        if state != lifecycle.activation.tabletMode || source != lifecycle.activation.tabletModeSource {
            step(.tabletModeChanged(state, from: source), now: now)
            if source == .switch, let state { Log.info(state ? "Tablet mode" : "Laptop mode") }
            // The session whose samples served may be gone: the watch's own capture takes over.
            followHinge(needed: needed && tells, now: now)
        }
        let pause = lifecycle.activation.pause
        posture.publish(wanted: tells && publishesTabletMode && pause != .sleep, asLaptop: pause == .lidClosed)
    }

    /// The watch opens what is `needed` and lets go of the rest. Nothing to
    /// do while it needs and holds nothing, as on most machines: asked every
    /// round, it is not asked then (nor `[Device]`'s settings copied for it).
    private func followHinge(needed: Bool, now: Double) {
        guard needed || posture.holdsAnything else { return }
        posture.follow(needed: needed, ownDisplay: needed && isOff, settings: configuration.device, now: now)
    }

    /// The lifecycle is off: no session, nor one about to open.
    private var isOff: Bool {
        if case .off = lifecycle.state { return true }
        return false
    }

    // MARK: - Whether anybody can be reading

    /// Follows logind while a `Pause*=` key asks what it says and the bus
    /// is there; stops when none does (a reload).
    private func watchLogind(now: Double) {
        guard configuration.activation.followsLogind else {
            stopWatchingLogind(now: now)
            return
        }
        guard logind == nil, let bus else { return }
        do {
            logind = try bus.watchLogind(holdingSleepInhibitor: configuration.activation.pauseForSleep)
        } catch {
            Log.notice(
                "Cannot follow logind (\(error.message)): the session (locked, idle, nobody there) and sleep are "
                    + "not followed")
        }
    }

    private func stopWatchingLogind(now: Double) {
        guard let logind else { return }
        logind.close()
        self.logind = nil
        logindView = .unknown
        updatePause(now: now)
    }

    /// What logind said since the last round, in order: a sleep that came
    /// and went between two rounds still lets go of the sensor, and comes
    /// back to a fresh one. Once the sensor and the wheel are let go of,
    /// the sleep inhibitor closes and sleep goes on.
    private func takeLogindViews(now: Double) {
        guard let logind else { return }
        for view in logind.takeViews() {
            logindView = view
            updatePause(now: now)
            letSleep(view, logind)
        }
        // An inhibitor taken while sleep is being prepared holds it no longer than one round.
        letSleep(logindView, logind)
    }

    private func letSleep(_ view: LogindView, _ logind: LogindSource) {
        if view.preparingForSleep, lifecycle.session == nil, !posture.holdsAnything { logind.allowSleep() }
    }

    /// The pause the session, sleep and the lid call for, into the
    /// lifecycle: paused, it lets go of the sensor and the wheel as when
    /// switched off; resumed, it opens them afresh (a new neutral pose, a
    /// new decision between a hand and a table).
    private func updatePause(now: Double) {
        let reason = configuration.activation.pauseReason(logind: logindView, lidClosed: switches.lidClosed)
        guard reason != lifecycle.activation.pause else { return }
        step(.pauseChanged(reason), now: now)
        // Before sleep the hinge's sensors and switch go too, before the inhibitor does.
        followPosture(now: now)
    }

    // MARK: - Touch

    /// Touch devices are open only while they matter: `[Scroll]
    /// PauseOnTouch=yes` and a sensor captured. Otherwise a finger on the
    /// screen of a laptop in laptop mode never wakes the daemon.
    private func followTouch(now: Double) {
        let wanted = configuration.scroll.pauseOnTouch && lifecycle.isActive
        guard wanted != touch.isFollowing else { return }
        if wanted {
            touch.open()
        } else {
            touch.closeAll()
        }
        passTouchChanges(now: now)
    }

    /// A udev event of subsystem "input": a touchscreen or pen that appeared
    /// is followed, one that went away released.
    private func handleTouchDeviceEvent(_ event: DeviceEvent, now: Double) {
        guard touch.isFollowing, let node = event.deviceNode else { return }
        switch event.action {
        case .add:
            guard let kind = event.touchKind, TouchInputRecord.isEventNode(node) else { return }
            touch.added(TouchInputRecord(sysfsPath: event.sysfsPath, deviceNode: node, kind: kind))
        case .remove:
            touch.removed(deviceNode: node)
        default:
            return
        }
        passTouchChanges(now: now)
    }

    /// Tells the engine when the first contact began or the last one ended:
    /// before the samples and the frame of the same round, so that the
    /// pause comes within one frame.
    private func passTouchChanges(now: Double) {
        let change = touch.takeChange()
        if change.begin { tellEngineTouch(true, now: now) }
        if change.end { tellEngineTouch(false, now: now) }
    }

    private func tellEngineTouch(_ touching: Bool, now: Double) {
        // No line of its own in the log: the intent state says it (touched).
        engine.touch(touching, at: now)
        lifecycle.session?.output.note(.touch(touching), at: now) { engine.readout }
    }

    // MARK: - The bus

    /// Connects and registers; without a bus (a container, an initramfs)
    /// the daemon runs on, reachable by signals only.
    private func connectBus() {
        do {
            bus = try platform.connectBus(publishing: snapshot)
        } catch {
            Log.notice(
                "No D-Bus interface (\(error.message)): tiltscrollctl enable, disable and status "
                    + "cannot reach this daemon; signals still work; the session (locked, idle, nobody there) "
                    + "and sleep are not followed")
            return
        }
        watchLogind(now: platform.now())
    }

    // MARK: - The snapshot and its views

    /// What the daemon is doing now.
    func makeSnapshot() -> DaemonSnapshot {
        var now = snapshot
        _ = update(&now)
        return now
    }

    /// Brings `snapshot` up to what the daemon is doing now; what it was
    /// when anything changed (`DaemonSnapshot.update`). Asked first whether
    /// it `plainlyMatches`, as nearly always: the parts held by reference
    /// are then not retained.
    private func update(_ snapshot: inout DaemonSnapshot) -> DaemonSnapshot? {
        let phase: DaemonSnapshot.Phase
        let orientation: ScreenOrientation?
        // Active, as in most rounds: answered without a copy of the state.
        if let mode = lifecycle.session?.mode {
            (phase, orientation) = (.active(mode, engine.intentState), engine.orientation)
        } else {
            (phase, orientation) = (phaseWithoutSession, nil)
        }
        let source = lifecycle.activation.tabletModeSource
        let tabletMode = lifecycle.activation.tabletMode
        let base = source == .hinge ? posture.sensors?.base.identity : nil
        if snapshot.plainlyMatches(
            phase: phase, sensor: lifecycle.sensorIdentity.map(ObjectIdentifier.init), controls: persistence.controls,
            tabletMode: tabletMode, tabletModeSource: source, baseSensor: base.map(ObjectIdentifier.init),
            orientation: orientation, hasConfigurationProblem: configurationProblem != nil)
        {
            return nil
        }
        return snapshot.update(
            phase: phase, sensor: lifecycle.sensorIdentity, controls: persistence.controls, tabletMode: tabletMode,
            tabletModeSource: source, baseSensor: base, orientation: orientation,
            configurationProblem: configurationProblem)
    }

    /// The snapshot's phase while the lifecycle holds no session: in every
    /// state but `active`, which always holds one.
    private var phaseWithoutSession: DaemonSnapshot.Phase {
        switch lifecycle.state {
        case .off: .off(lifecycle.activation)
        case .lookingForSensor, .waitingForSensor, .opening, .retrying, .active: .waitingForSensor(lifecycle.failure)
        case .failed(let failure): .failed(failure)
        }
    }

    /// Brings the round's snapshot up to date and, when it changed, remakes
    /// every view of it: the systemd status, the bus's properties (one
    /// `PropertiesChanged`), the log, `--dry-run`'s intent lines; and feeds
    /// the monitors, by time while a sensor is captured.
    private func publish(now: Double) {
        // The optional is taken apart at once: kept to the end of the
        // function, the empty one was destroyed through the generic value
        // witness every round.
        var changed = false
        if let old = update(&snapshot) {
            changed = true
            say(from: old, to: snapshot, now: now)
            bus?.publish(snapshot)
        }
        if !monitors.isEmpty {
            monitors.writeIfDue(now: now, active: snapshot.isActive, changed: changed) { monitorRecord() }
        }
    }

    /// The log and the systemd status follow the snapshot.
    private func say(from old: DaemonSnapshot, to new: DaemonSnapshot, now: Double) {
        if case .active(_, let was) = old.phase, case .active(_, let intent) = new.phase, was != intent {
            // A device put down and picked up, a hand held still and tilted
            // again, are every-minute events of normal use: debug only.
            if let was, let intent {
                Log.debug("Intent: \(was.name) -> \(intent.name) (\(intent.reason))")
            }
            lifecycle.session?.output.note(.intent, at: now) { engine.readout }
        } else if case .active(_, let intent?) = new.phase, !old.isActive {
            Log.debug("Intent: \(intent.name) (\(intent.reason))")
        }
        let status = new.serviceStatus
        guard status != old.serviceStatus else { return }
        notifier.status(status)
        if new.phase.kind != old.phase.kind || new.sensor != old.sensor { Log.debug("Status: \(status)") }
    }

    /// The monitors' picture of now.
    private func monitorRecord() -> MonitorRecord {
        let device: String
        if let sensor = lifecycle.sensor {
            device =
                "\(sensor.name) (\(lifecycle.session.map { "\($0.capture.mode.rawValue) capture" } ?? "not captured"))"
        } else {
            device = "no accelerometer"
        }
        var record = MonitorRecord(
            state: "\(snapshot.statusLine)    [Activation] When=\(configuration.activation.when.rawValue)",
            device: device, settings: persistence.controls.applied(to: configuration.scroll))
        if let session = lifecycle.session {
            record.read(engine.readout)
            record.raw = session.lastRaw
            record.corrected = session.lastCorrected
            record.matrix = session.mountMatrix
        }
        return record
    }
}

extension DaemonSnapshot.Phase {
    /// The phase without its details, for deciding what is news.
    var kind: Int {
        switch self {
        case .off: 0
        case .waitingForSensor: 1
        case .active: 2
        case .failed: 3
        }
    }
}
