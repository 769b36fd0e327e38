/// What the lifecycle needs to know of an accelerometer.
protocol LifecycleSensor: Equatable {
    /// The IIO `name` attribute, as the driver reports it.
    var name: DeviceText { get }
    /// The udev syspath.
    var sysfsPath: DeviceText { get }
    /// Why the sensor cannot be used as it is described (a malformed mount
    /// matrix or scale); nil when it can. No retry mends it, a udev change can.
    var unusableReason: String? { get }
}

/// The sensor and output lifecycle of the daemon as one state machine:
/// states, events and transitions, each with a name for the log, the way
/// libinput writes its state machines.
///
/// It is pure. The daemon performs what a state asks for (discover a sensor
/// in `lookingForSensor`, open the capture and the frame sink in `opening`,
/// hold them only in `active`) and reports the outcome as the next event;
/// time is passed in. The retry back-off of a sensor that keeps failing
/// lives here too (`RetryBackoff`): an attempt counts as a success only once
/// the capture has delivered samples for `provingTime`, so a sensor that
/// opens and then fails at once is retried less and less often instead of
/// every second.
struct SensorLifecycle<Sensor: LifecycleSensor> {
    enum State: String, Equatable {
        /// Not wanted (switched off, or not by `[Activation]`): nothing held.
        case off
        /// Wanted and no sensor known: the daemon runs discovery now.
        case lookingForSensor = "looking-for-sensor"
        /// Wanted, no usable sensor: waiting for udev to announce one (or
        /// for `rescanAt` where no udev monitor exists).
        case waitingForSensor = "waiting-for-sensor"
        /// Wanted and a sensor known: the daemon opens the capture and the sink now.
        case opening
        /// An attempt failed; the next is due at `retryAt`.
        case retrying
        /// Capturing and emitting: the only state that holds the sensor and the sink.
        case active
        /// Start-up failed for a reason no retry mends; the daemon exits.
        case failed
    }

    enum Event: Equatable {
        /// The person's switch.
        case enabledChanged(Bool)
        /// `[Activation] When=` after a reload.
        case modeChanged(ActivationMode)
        /// The tablet-mode switch; nil when the machine has none (any more).
        case tabletModeChanged(Bool?)
        /// The first round of the loop is done: failures are retried from now on.
        case started
        /// Discovery chose this sensor.
        case sensorFound(Sensor)
        /// Discovery found none.
        case sensorNotFound
        /// udev announced an accelerometer (added or bound); worth looking again.
        case sensorAppeared
        /// udev says the sensor in use went away (removed or unbound).
        case sensorRemoved
        /// udev changed the sensor in use (its mount matrix, its location).
        case sensorChanged(Sensor)
        /// The capture and the sink are open.
        case opened
        case openFailed(CaptureFailure)
        /// The capture delivered samples. Sent only while `awaitsSamples`.
        case samplesRead
        /// The driver refuses reads for now; try again at `until`.
        case readsRefused(until: Double)
        /// The open capture failed; `sensorStillExists` tells a broken
        /// sensor (retried) from one that is gone (looked for again).
        case readFailed(CaptureFailure, sensorStillExists: Bool)
        /// A reload changed `[Device]`: choose and open afresh.
        case deviceSettingsChanged
        /// A reload changed what the sink is made with (the horizontal wheel): reopen it.
        case sinkSettingsChanged
        /// Time passed: due retries, rescans and read holds.
        case tick

        /// `*_to_str` for the log.
        var name: String {
            switch self {
            case .enabledChanged(let on): return on ? "enabled" : "disabled"
            case .modeChanged(let mode): return "mode-\(mode.rawValue)"
            case .tabletModeChanged(let on): return on.map { $0 ? "tablet-mode" : "laptop-mode" } ?? "no-tablet-switch"
            case .started: return "started"
            case .sensorFound: return "sensor-found"
            case .sensorNotFound: return "sensor-not-found"
            case .sensorAppeared: return "sensor-appeared"
            case .sensorRemoved: return "sensor-removed"
            case .sensorChanged: return "sensor-changed"
            case .opened: return "opened"
            case .openFailed: return "open-failed"
            case .samplesRead: return "samples-read"
            case .readsRefused: return "reads-refused"
            case .readFailed: return "read-failed"
            case .deviceSettingsChanged: return "device-settings-changed"
            case .sinkSettingsChanged: return "sink-settings-changed"
            case .tick: return "tick"
            }
        }
    }

    /// One handled event, for the log: "active -> retrying (read-failed)".
    struct Transition: Equatable, CustomStringConvertible {
        var from: State
        var event: String
        var to: State
        var description: String { "\(from.rawValue) -> \(to.rawValue) (\(event))" }
    }

    /// What the daemon should say about an event, beyond the transition.
    enum Report: Equatable {
        /// Scrolling started (not in the middle of a failure streak).
        case started
        /// Scrolling stopped because it is no longer wanted; the reason.
        case stopped(String)
        /// A failed attempt worth saying, from the back-off.
        case failure(RetryBackoff.Report)
        /// A capture proved itself after this many failed attempts.
        case recovered(attempts: Int)
        /// The sensor went away: its name, and the failure that showed it, if any.
        case gone(DeviceText, CaptureFailure?)
        /// The sensor chosen cannot be used: its name and why.
        case unusable(DeviceText, String)
        /// Start-up failed for good.
        case fatal(CaptureFailure)
    }

    /// How long a new capture must deliver samples before it counts as working.
    static var provingTime: Double { 5.0 }
    /// Without a udev monitor nothing announces a returning sensor; look again this often.
    static var rescanInterval: Double { 5.0 }

    private(set) var state: State = .off
    private(set) var activation: ActivationInputs
    /// False for the monitor, which shows the sensor whatever the switch and `[Activation]` say.
    let followsActivation: Bool
    /// Whether udev announces sensors; without it, `waitingForSensor` rescans.
    let hasDeviceMonitor: Bool

    /// The sensor chosen, while one is known (also while off).
    private(set) var sensor: Sensor?
    /// The failure the status shows: the last one, until a capture proves itself.
    private(set) var failure: CaptureFailure?
    private(set) var backoff = RetryBackoff()
    /// When `retrying` ends.
    private(set) var retryAt: Double?
    /// When `waitingForSensor` looks again (no udev monitor).
    private(set) var rescanAt: Double?
    /// While active: reads are held until then (the driver refused them).
    private(set) var readHoldUntil: Double?
    /// While active: when the capture opened, and whether it has delivered samples.
    private(set) var openedAt: Double?
    /// While active: the capture has not yet proven itself, and the daemon
    /// reports `samplesRead`.
    private(set) var awaitsSamples = false
    private var isStarting = true
    /// Counts the changes of what the status and the bus show (state,
    /// sensor, failure, wish), so the daemon compares one number per round.
    private(set) var revision = 0

    init(activation: ActivationInputs, followsActivation: Bool, hasDeviceMonitor: Bool) {
        self.activation = activation
        self.followsActivation = followsActivation
        self.hasDeviceMonitor = hasDeviceMonitor
        state = isWanted ? .lookingForSensor : .off
    }

    /// Whether scrolling is wanted now.
    var isWanted: Bool { !followsActivation || activation.isWanted }

    /// The earliest time the machine needs a `tick`; nil when none.
    var nextDeadline: Double? {
        switch state {
        case .retrying: return retryAt
        case .waitingForSensor: return rescanAt
        case .active: return readHoldUntil
        default: return nil
        }
    }

    /// Whether the open capture may be read at `now` (no hold in force).
    func readsAllowed(at now: Double) -> Bool {
        guard let hold = readHoldUntil else { return true }
        return now >= hold
    }

    /// Applies `event` at `now`.
    mutating func handle(_ event: Event, at now: Double) -> (transition: Transition, report: Report?) {
        let before = state
        let shown = (sensor, failure, activation)
        defer { if state != before || shown != (sensor, failure, activation) { revision &+= 1 } }
        var report: Report? = nil
        switch event {
        case .enabledChanged(let on): activation.enabled = on
        case .modeChanged(let mode): activation.mode = mode
        case .tabletModeChanged(let on): activation.tabletMode = on
        case .started: isStarting = false
        case .sensorFound(let found):
            // While off the sensor is remembered, to be opened when wanted.
            guard state == .lookingForSensor || state == .off else { break }
            sensor = found
            if let reason = found.unusableReason {
                let unusable = CaptureFailure(step: .capture, message: "\(found.name): \(reason)", retryMayMend: false)
                // A rescan finding it unchanged says nothing new.
                if unusable != failure { report = .unusable(found.name, reason) }
                failure = unusable
                if state != .off { enterWaiting(now) }
            } else if state != .off {
                state = .opening
            }
        case .sensorNotFound:
            guard state == .lookingForSensor else { break }
            sensor = nil
            failure = nil
            enterWaiting(now)
        case .sensorAppeared:
            // Choose afresh (the new one may be preferred), unless capturing.
            guard state != .active, state != .failed else { break }
            forgetSensor()
            if state != .off { state = .lookingForSensor }
        case .sensorRemoved:
            guard let gone = sensor, state != .failed else { break }
            forgetSensor()
            if state != .off {
                state = .lookingForSensor
                report = .gone(gone.name, nil)
            }
        case .sensorChanged(let changed):
            guard sensor != nil else { break }
            sensor = changed
            // A change may mend what made it unusable.
            if state == .waitingForSensor, changed.unusableReason == nil {
                failure = nil
                state = .opening
            }
        case .opened:
            guard state == .opening else { break }
            state = .active
            openedAt = now
            awaitsSamples = true
            readHoldUntil = nil
            if !backoff.isFailing { report = .started }
        case .openFailed(let failure):
            guard state == .opening else { break }
            if isStarting, !failure.retryMayMend {
                state = .failed
                self.failure = failure
                report = .fatal(failure)
            } else {
                report = fail(failure, now)
            }
        case .samplesRead:
            guard state == .active, awaitsSamples, let opened = openedAt else { break }
            if now - opened >= SensorLifecycle.provingTime {
                awaitsSamples = false
                failure = nil
                let attempts = backoff.reset()
                if attempts > 0 { report = .recovered(attempts: attempts) }
            }
        case .readsRefused(let until):
            guard state == .active else { break }
            readHoldUntil = until
        case .readFailed(let failure, let stillExists):
            guard state == .active else { break }
            // A capture that had proven itself failed: a new streak.
            if !awaitsSamples { backoff.reset() }
            leaveActive()
            if stillExists {
                report = fail(failure, now)
            } else {
                let name: DeviceText = sensor?.name ?? ""
                forgetSensor()
                state = .lookingForSensor
                report = .gone(name, failure)
            }
        case .deviceSettingsChanged:
            guard state != .failed else { break }
            forgetSensor()
            if state != .off { state = .lookingForSensor }
        case .sinkSettingsChanged:
            guard state == .active else { break }
            leaveActive()
            state = .opening
        case .tick:
            if state == .retrying, let due = retryAt, now >= due {
                retryAt = nil
                state = sensor == nil ? .lookingForSensor : .opening
            } else if state == .waitingForSensor, let due = rescanAt, now >= due {
                rescanAt = nil
                state = .lookingForSensor
            } else if state == .active, let hold = readHoldUntil, now >= hold {
                readHoldUntil = nil
            }
        }
        if let stopped = followWish() { report = report ?? .stopped(stopped) }
        return (Transition(from: before, event: event.name, to: state), report)
    }

    // MARK: - Helpers of handle()

    /// Turns off when no longer wanted, and starts when wanted again;
    /// returns the reason when an active capture stopped.
    private mutating func followWish() -> String? {
        guard state != .failed else { return nil }
        if !isWanted {
            guard state != .off else { return nil }
            let wasActive = state == .active
            leaveActive()
            retryAt = nil
            rescanAt = nil
            state = .off
            return wasActive ? activation.offReason ?? "off" : nil
        }
        if state == .off { state = sensor == nil ? .lookingForSensor : .opening }
        return nil
    }

    private mutating func fail(_ failure: CaptureFailure, _ now: Double) -> Report? {
        self.failure = failure
        let (delay, said) = backoff.failed(failure, at: now)
        retryAt = now + delay
        state = .retrying
        return said.map(Report.failure)
    }

    private mutating func enterWaiting(_ now: Double) {
        state = .waitingForSensor
        rescanAt = hasDeviceMonitor ? nil : now + SensorLifecycle.rescanInterval
    }

    private mutating func leaveActive() {
        openedAt = nil
        awaitsSamples = false
        readHoldUntil = nil
    }

    /// Forgets the sensor and everything learnt about it.
    private mutating func forgetSensor() {
        sensor = nil
        failure = nil
        backoff.reset()
        retryAt = nil
        rescanAt = nil
        leaveActive()
    }
}
