import TiltScrollCommon

/// What the lifecycle needs to know of an accelerometer.
protocol LifecycleSensor: Equatable {
    /// The IIO `name` attribute, as the driver reports it.
    var name: DeviceText { get }
    /// The udev syspath.
    var sysfsPath: DeviceText { get }
    /// The name and path as the daemon's views show them, shared.
    var identity: SensorIdentity { get }
    /// Why the sensor cannot be used as it is described (a malformed mount
    /// matrix or scale); nil when it can. No retry mends it, a udev change can.
    var unusableReason: String? { get }
}

/// The sensor and output lifecycle of the daemon as one state machine, the
/// way libinput writes its state machines: states that carry their own
/// data, named events, one handler per state, every transition named for
/// the log, and an event a state does not expect said, never dropped
/// silently.
///
/// The machine holds what each state owns: the sensor it is about, the
/// open `Session` (the capture and the uinput device) in `active` only,
/// what a failed capture kept raised for its retries (`Kept`) in `opening`
/// and `retrying` only, and the deadline of `retrying` and of a rescan. It
/// does no I/O. The daemon performs what a state asks for (discover in
/// `lookingForSensor`, open in `opening`), reports the outcome as the next
/// event, and carries out what an `Outcome` hands back: a session to let
/// go, kept settings to restore. Time is passed in.
///
/// A class rather than a value: the daemon asks it several things every
/// round (the session, the deadline, the state for the snapshot), and each
/// question put to a value stored in the daemon's class copied the whole
/// machine first (about 1,300 instructions a round, Benchmarks/daemon-bench).
///
/// The retry back-off of a sensor that keeps failing lives here too
/// (`RetryBackoff`): an attempt counts as a success only once the capture
/// has delivered samples for `provingTime`, so a sensor that opens and then
/// fails at once is retried less and less often instead of every second.
final class SensorLifecycle<Sensor: LifecycleSensor, Session: AnyObject, Kept> {
    /// What the active state holds.
    struct Active {
        var sensor: Sensor
        var session: Session
        /// When the capture opened.
        var openedAt: Double
        /// The capture has not proven itself yet: the daemon reports
        /// `samplesRead` until it has delivered samples for `provingTime`.
        var isProving: Bool
        /// The driver refused reads; none until then.
        var readsHeldUntil: Double?
    }

    enum State {
        /// Not wanted (switched off, or not by `[Activation]`); the sensor
        /// chosen is remembered, to be opened when wanted.
        case off(remembered: Sensor?)
        /// Wanted and no sensor known: the daemon runs discovery now.
        case lookingForSensor
        /// Wanted, no usable sensor (none, or the one chosen is unusable):
        /// waiting for udev to announce one, or for `rescanAt` where no udev
        /// monitor exists.
        case waitingForSensor(unusable: Sensor?, rescanAt: Double?)
        /// Wanted and a sensor known: the daemon opens the capture and the
        /// output now, with what an earlier attempt kept.
        case opening(Sensor, kept: Kept?)
        /// An attempt failed; the next is due at `retryAt`.
        case retrying(Sensor, retryAt: Double, kept: Kept?)
        /// Capturing and emitting: the only state that holds a session.
        case active(Active)
        /// Start-up failed for a reason no retry mends; the daemon exits.
        case failed(CaptureFailure)

        /// `*_to_str` for the log and the status.
        var name: String {
            switch self {
            case .off: "off"
            case .lookingForSensor: "looking-for-sensor"
            case .waitingForSensor: "waiting-for-sensor"
            case .opening: "opening"
            case .retrying: "retrying"
            case .active: "active"
            case .failed: "failed"
            }
        }

        /// The sensor the state is about, if any.
        var sensor: Sensor? {
            switch self {
            case .off(let remembered): remembered
            case .waitingForSensor(let unusable, _): unusable
            case .opening(let sensor, _), .retrying(let sensor, _, _): sensor
            case .active(let active): active.sensor
            case .lookingForSensor, .failed: nil
            }
        }
    }

    enum Event {
        /// The person's switch.
        case enabledChanged(Bool)
        /// `[Activation] When=` after a reload.
        case modeChanged(ActivationMode)
        /// Tablet mode, and where it comes from (the machine's switch, the
        /// hinge angle); nil when nothing tells it (now).
        case tabletModeChanged(Bool?, from: TabletModeSource)
        /// Why nobody can be reading (the session, sleep, the lid); nil when somebody may be.
        case pauseChanged(PauseReason?)
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
        /// The capture and the output are open.
        case opened(Session)
        /// Opening failed; `kept` is what the attempt left raised for the next.
        case openFailed(CaptureFailure, kept: Kept?)
        /// The capture delivered samples, while it proves itself.
        case samplesRead
        /// The driver refuses reads for now; try again at `until`.
        case readsRefused(until: Double)
        /// The open capture failed; `sensorStillExists` tells a broken
        /// sensor (retried, keeping `kept` raised) from one that is gone
        /// (looked for again).
        case readFailed(CaptureFailure, sensorStillExists: Bool, kept: Kept?)
        /// A reload changed `[Device]`: choose and open afresh.
        case deviceSettingsChanged
        /// A reload changed what the output is made with (the horizontal wheel): reopen it.
        case outputSettingsChanged
        /// Time passed: due retries and rescans, a read hold's end.
        case tick

        /// `*_to_str` for the log.
        var name: String {
            switch self {
            case .enabledChanged(let on): on ? "enabled" : "disabled"
            case .modeChanged(let mode): "mode-\(mode.rawValue)"
            case .tabletModeChanged(let on, let source):
                on.map { $0 ? "tablet-mode" : "laptop-mode" }
                    ?? (source == .none ? "no-tablet-switch" : "tablet-mode-unknown")
            case .pauseChanged(let reason): reason.map { "paused-\($0.rawValue)" } ?? "unpaused"
            case .started: "started"
            case .sensorFound: "sensor-found"
            case .sensorNotFound: "sensor-not-found"
            case .sensorAppeared: "sensor-appeared"
            case .sensorRemoved: "sensor-removed"
            case .sensorChanged: "sensor-changed"
            case .opened: "opened"
            case .openFailed: "open-failed"
            case .samplesRead: "samples-read"
            case .readsRefused: "reads-refused"
            case .readFailed: "read-failed"
            case .deviceSettingsChanged: "device-settings-changed"
            case .outputSettingsChanged: "output-settings-changed"
            case .tick: "tick"
            }
        }
    }

    /// What the daemon should say about an event, beyond the transition.
    enum Report: Equatable {
        /// Scrolling started (not in the middle of a failure streak).
        case started
        /// Scrolling stopped because it is no longer wanted; the reason.
        case stopped(String)
        /// Scrolling stopped because nobody can be reading.
        case paused(PauseReason)
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

    /// What handling one event came to, for the daemon to carry out and say.
    struct Outcome {
        /// "active -> retrying (read-failed)"; nil when the state stayed.
        var transition: String?
        /// The state did not expect the event, which changed nothing: a
        /// line for the log ("opened while off").
        var unexpected: String?
        var report: Report?
        /// A session the machine let go of: the daemon closes it, keeping
        /// the raised sampling frequency when `forRetry`.
        var released: (session: Session, forRetry: Bool)?
        /// Settings a failed capture kept for retries that will not come:
        /// the daemon restores them.
        var restore: Kept?
    }

    /// How long a new capture must deliver samples before it counts as working.
    static var provingTime: Double { 5.0 }
    /// Without a udev monitor nothing announces a returning sensor; look again this often.
    static var rescanInterval: Double { 5.0 }

    private(set) var state: State {
        didSet { answers = Answers(state) }
    }
    private(set) var activation: ActivationInputs
    /// Whether udev announces sensors; without it, `waitingForSensor` rescans.
    let hasDeviceMonitor: Bool
    /// The failure the status shows: the last one, until a capture proves itself.
    private(set) var failure: CaptureFailure?
    private(set) var backoff = RetryBackoff()
    /// Until `started`, a failure no retry mends is fatal.
    private var hasStarted = false
    /// What the loop asks every round, derived from `state` whenever it is
    /// set: a question put to the state itself copied it each time (its
    /// payloads through the generic type's value witnesses), ten times a
    /// round, about a thousand instructions (Benchmarks/daemon-bench).
    private var answers: Answers

    /// The state's answers to the loop's every-round questions.
    private struct Answers {
        var sensor: Sensor?
        /// The sensor's identity, for the round's snapshot: taken out of the
        /// sensor once per state rather than once per round.
        var sensorIdentity: SensorIdentity?
        var session: Session?
        var isProving = false
        var nextDeadline: Double?
        var readsHeldUntil: Double?

        init(_ state: State) {
            sensor = state.sensor
            sensorIdentity = sensor?.identity
            switch state {
            case .active(let active):
                session = active.session
                isProving = active.isProving
                readsHeldUntil = active.readsHeldUntil
                nextDeadline = active.readsHeldUntil
            case .retrying(_, let retryAt, _): nextDeadline = retryAt
            case .waitingForSensor(_, let rescanAt): nextDeadline = rescanAt
            case .off, .lookingForSensor, .opening, .failed: break
            }
        }
    }

    init(activation: ActivationInputs, hasDeviceMonitor: Bool) {
        self.activation = activation
        self.hasDeviceMonitor = hasDeviceMonitor
        let initial: State = activation.isWanted ? .lookingForSensor : .off(remembered: nil)
        state = initial
        answers = Answers(initial)
    }

    /// Whether scrolling is wanted now.
    var isWanted: Bool { activation.isWanted }

    var sensor: Sensor? { answers.sensor }

    /// The identity of `sensor`.
    var sensorIdentity: SensorIdentity? { answers.sensorIdentity }

    /// The open session; nil in every state but `active`.
    var session: Session? { answers.session }

    var isActive: Bool { answers.session != nil }

    /// The capture is active and has not proven itself yet: the daemon
    /// reports `samplesRead`.
    var isProving: Bool { answers.isProving }

    /// The earliest time the machine needs a `tick`; nil when none.
    var nextDeadline: Double? { answers.nextDeadline }

    /// Whether the open capture may be read at `now` (no hold in force).
    func readsAllowed(at now: Double) -> Bool {
        guard let hold = answers.readsHeldUntil else { return true }
        return now >= hold
    }

    /// Applies `event` at `now`.
    func handle(_ event: Event, at now: Double) -> Outcome {
        let before = state.name
        var outcome = Outcome()
        var expected = true
        switch event {
        case .enabledChanged(let on): activation.enabled = on
        case .modeChanged(let mode): activation.mode = mode
        case .tabletModeChanged(let on, let source):
            activation.tabletMode = on
            activation.tabletModeSource = source
        case .pauseChanged(let reason): activation.pause = reason
        case .started: hasStarted = true
        default:
            switch state {
            case .off(let remembered): expected = handleOff(event, remembered: remembered, now, &outcome)
            case .lookingForSensor: expected = handleLooking(event, now, &outcome)
            case .waitingForSensor(let unusable, let rescanAt):
                expected = handleWaiting(event, unusable: unusable, rescanAt: rescanAt, now, &outcome)
            case .opening(let sensor, let kept): expected = handleOpening(event, sensor, kept: kept, now, &outcome)
            case .retrying(let sensor, let retryAt, let kept):
                expected = handleRetrying(event, sensor, retryAt: retryAt, kept: kept, now, &outcome)
            case .active(let active): expected = handleActive(event, active, now, &outcome)
            case .failed: expected = handleFailed(event)
            }
        }
        if !expected { outcome.unexpected = "\(event.name) is not expected in \(before); ignored" }
        followWish(now, &outcome)
        let after = state.name
        if after != before { outcome.transition = "\(before) -> \(after) (\(event.name))" }
        return outcome
    }

    // MARK: - One handler per state
    //
    // Each returns whether the state expects the event. An event a state
    // expects may still change nothing (a sensor appearing while one is
    // captured); one it does not expect is a mistake somewhere, said by the
    // daemon.

    private func handleOff(
        _ event: Event, remembered: Sensor?, _ now: Double, _ outcome: inout Outcome
    ) -> Bool {
        switch event {
        case .sensorFound(let found):
            // Discovery at start-up while switched off: remembered for later.
            noteUnusable(found, &outcome)
            state = .off(remembered: found)
        case .sensorAppeared, .sensorRemoved, .deviceSettingsChanged:
            forgetSensor()
            state = .off(remembered: nil)
        case .sensorChanged(let changed):
            if remembered != nil { state = .off(remembered: changed) }
        case .tick, .outputSettingsChanged:
            break
        default:
            return false
        }
        return true
    }

    private func handleLooking(_ event: Event, _ now: Double, _ outcome: inout Outcome) -> Bool {
        switch event {
        case .sensorFound(let found):
            if noteUnusable(found, &outcome) {
                enterWaiting(unusable: found, now)
            } else {
                state = .opening(found, kept: nil)
            }
        case .sensorNotFound:
            failure = nil
            enterWaiting(unusable: nil, now)
        case .sensorAppeared, .sensorRemoved, .deviceSettingsChanged, .tick, .outputSettingsChanged:
            // Discovery runs next anyway.
            break
        default:
            return false
        }
        return true
    }

    private func handleWaiting(
        _ event: Event, unusable: Sensor?, rescanAt: Double?, _ now: Double, _ outcome: inout Outcome
    ) -> Bool {
        switch event {
        case .sensorAppeared, .deviceSettingsChanged:
            // Choose afresh: the new one may be preferred, or usable.
            forgetSensor()
            state = .lookingForSensor
        case .sensorRemoved:
            if let unusable {
                forgetSensor()
                state = .lookingForSensor
                outcome.report = .gone(unusable.name, nil)
            }
        case .sensorChanged(let changed):
            guard unusable != nil else { return true }
            if changed.unusableReason == nil {
                // The change mended what made it unusable.
                failure = nil
                state = .opening(changed, kept: nil)
            } else {
                state = .waitingForSensor(unusable: changed, rescanAt: rescanAt)
            }
        case .tick:
            if let rescanAt, now >= rescanAt { state = .lookingForSensor }
        case .outputSettingsChanged:
            break
        default:
            return false
        }
        return true
    }

    private func handleOpening(
        _ event: Event, _ sensor: Sensor, kept: Kept?, _ now: Double, _ outcome: inout Outcome
    ) -> Bool {
        switch event {
        case .opened(let session):
            state = .active(Active(sensor: sensor, session: session, openedAt: now, isProving: true))
            if !backoff.isFailing { outcome.report = .started }
        case .openFailed(let failure, let keptNow):
            if !hasStarted, !failure.retryMayMend {
                self.failure = failure
                state = .failed(failure)
                outcome.restore = keptNow ?? kept
                outcome.report = .fatal(failure)
            } else {
                retry(sensor, after: failure, kept: keptNow ?? kept, now, &outcome)
            }
        case .sensorAppeared, .tick, .outputSettingsChanged:
            // Opening runs next anyway, with the settings of now.
            break
        case .sensorRemoved, .deviceSettingsChanged:
            outcome.restore = kept
            forgetSensor()
            state = .lookingForSensor
            if case .sensorRemoved = event { outcome.report = .gone(sensor.name, nil) }
        case .sensorChanged(let changed):
            state = .opening(changed, kept: kept)
        default:
            return false
        }
        return true
    }

    private func handleRetrying(
        _ event: Event, _ sensor: Sensor, retryAt: Double, kept: Kept?, _ now: Double, _ outcome: inout Outcome
    ) -> Bool {
        switch event {
        case .tick:
            if now >= retryAt { state = .opening(sensor, kept: kept) }
        case .sensorAppeared, .sensorRemoved, .deviceSettingsChanged:
            // Choose afresh, and forget the streak of the sensor that failed.
            outcome.restore = kept
            forgetSensor()
            state = .lookingForSensor
            if case .sensorRemoved = event { outcome.report = .gone(sensor.name, nil) }
        case .sensorChanged(let changed):
            state = .retrying(changed, retryAt: retryAt, kept: kept)
        case .outputSettingsChanged:
            break
        default:
            return false
        }
        return true
    }

    private func handleActive(_ event: Event, _ active: Active, _ now: Double, _ outcome: inout Outcome)
        -> Bool
    {
        switch event {
        case .samplesRead:
            guard active.isProving, now - active.openedAt >= SensorLifecycle.provingTime else { return true }
            var proven = active
            proven.isProving = false
            state = .active(proven)
            failure = nil
            let attempts = backoff.reset()
            if attempts > 0 { outcome.report = .recovered(attempts: attempts) }
        case .readsRefused(let until):
            var held = active
            held.readsHeldUntil = until
            state = .active(held)
        case .tick:
            if let hold = active.readsHeldUntil, now >= hold {
                var released = active
                released.readsHeldUntil = nil
                state = .active(released)
            }
        case .readFailed(let failure, let stillExists, let kept):
            // A capture that had proven itself failed: a new streak.
            if !active.isProving { backoff.reset() }
            if stillExists {
                outcome.released = (active.session, true)
                retry(active.sensor, after: failure, kept: kept, now, &outcome)
            } else {
                outcome.released = (active.session, false)
                outcome.restore = kept
                forgetSensor()
                state = .lookingForSensor
                outcome.report = .gone(active.sensor.name, failure)
            }
        case .sensorRemoved:
            outcome.released = (active.session, false)
            forgetSensor()
            state = .lookingForSensor
            outcome.report = .gone(active.sensor.name, nil)
        case .sensorChanged(let changed):
            var updated = active
            updated.sensor = changed
            state = .active(updated)
        case .deviceSettingsChanged:
            outcome.released = (active.session, false)
            forgetSensor()
            state = .lookingForSensor
        case .outputSettingsChanged:
            outcome.released = (active.session, false)
            state = .opening(active.sensor, kept: nil)
        case .sensorAppeared:
            // Another accelerometer while one is captured: it is chosen
            // only when this one goes.
            break
        default:
            return false
        }
        return true
    }

    private func handleFailed(_ event: Event) -> Bool {
        // The daemon exits; nothing it hears changes that.
        switch event {
        case .tick, .sensorAppeared, .sensorRemoved, .sensorChanged, .deviceSettingsChanged, .outputSettingsChanged:
            return true
        default:
            return false
        }
    }

    // MARK: - Helpers of the handlers

    /// Turns off when no longer wanted, and starts when wanted again.
    private func followWish(_ now: Double, _ outcome: inout Outcome) {
        switch state {
        case .failed:
            return
        case .off(let remembered):
            guard isWanted else { return }
            if let remembered, remembered.unusableReason == nil {
                state = .opening(remembered, kept: nil)
            } else {
                state = .lookingForSensor
            }
        case .active(let active):
            guard !isWanted else { return }
            outcome.released = (active.session, false)
            state = .off(remembered: active.sensor)
            outcome.report =
                outcome.report ?? activation.pausedBy.map { .paused($0) } ?? .stopped(activation.offReason ?? "off")
        case .opening(let sensor, let kept), .retrying(let sensor, _, let kept):
            guard !isWanted else { return }
            outcome.restore = kept
            state = .off(remembered: sensor)
        case .waitingForSensor(let unusable, _):
            guard !isWanted else { return }
            state = .off(remembered: unusable)
        case .lookingForSensor:
            guard !isWanted else { return }
            state = .off(remembered: nil)
        }
    }

    /// Records why `found` cannot be used, said once per new reason; true
    /// when it cannot.
    @discardableResult
    private func noteUnusable(_ found: Sensor, _ outcome: inout Outcome) -> Bool {
        guard let reason = found.unusableReason else { return false }
        let unusable = CaptureFailure(step: .capture, message: "\(found.name): \(reason)", retryMayMend: false)
        // A rescan finding it unchanged says nothing new.
        if unusable != failure { outcome.report = .unusable(found.name, reason) }
        failure = unusable
        return true
    }

    private func retry(
        _ sensor: Sensor, after failure: CaptureFailure, kept: Kept?, _ now: Double, _ outcome: inout Outcome
    ) {
        self.failure = failure
        let (delay, said) = backoff.failed(failure, at: now)
        state = .retrying(sensor, retryAt: now + delay, kept: kept)
        if let said { outcome.report = .failure(said) }
    }

    private func enterWaiting(unusable: Sensor?, _ now: Double) {
        state = .waitingForSensor(
            unusable: unusable, rescanAt: hasDeviceMonitor ? nil : now + SensorLifecycle.rescanInterval)
    }

    /// Forgets what was learnt about the sensor: its failure and its streak.
    private func forgetSensor() {
        failure = nil
        backoff.reset()
    }
}

extension AccelerometerDevice: LifecycleSensor {
    var unusableReason: String? { problem?.message }
}
