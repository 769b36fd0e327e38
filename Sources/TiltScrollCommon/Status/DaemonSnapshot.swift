import ScrollPhysics

/// What the daemon is doing, built once per round of the loop. Every view
/// of the daemon derives from it: the systemd status line, the bus's
/// properties (`BusProperty`), the log's "Status:" line and the monitor's
/// state line. Comparing two costs no allocation, so the loop builds one
/// each round and the views are remade only when it changed.
public struct DaemonSnapshot: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        /// Not wanted: why, from the switch, `[Activation]` and the
        /// tablet-mode switch, or paused because nobody can be reading.
        case off(ActivationInputs)
        /// Wanted, no sensor captured yet: the failure that keeps it so, if any.
        case waitingForSensor(CaptureFailure?)
        /// Capturing and emitting; the intent state once the first sample came.
        case active(CaptureMode, IntentState?)
        /// Start-up failed for good.
        case failed(CaptureFailure)

        /// `==`, with the round's usual question (active then and now)
        /// answered in place: the synthesized comparison is a call that
        /// copies and destroys both phases' payloads.
        @inlinable
        public func isSame(as other: Phase) -> Bool {
            if case .active(let mode, let intent) = self, case .active(let otherMode, let otherIntent) = other {
                return mode == otherMode && intent == otherIntent
            }
            return self == other
        }
    }

    public var phase: Phase
    /// The accelerometer the daemon is about (chosen, captured or failing); nil when none.
    public var sensor: SensorIdentity?
    public var controls: UserControls
    /// Tablet mode as `tabletModeSource` tells it; nil when nothing does (yet).
    public var tabletMode: Bool?
    /// Where tablet mode comes from: the machine's switch, the hinge angle, neither.
    public var tabletModeSource: TabletModeSource
    /// The accelerometer in the keyboard base the hinge angle is read with,
    /// beside `sensor` (the display's, which scrolls); nil when there is none
    /// or it has no use (a tablet-mode switch decides, `When=` does not ask).
    public var baseSensor: SensorIdentity?
    /// The edge of the display that is up, while a sensor is captured.
    public var orientation: ScreenOrientation?
    /// A reload failed and the previous configuration runs; the message.
    public var configurationProblem: String?

    public var isActive: Bool {
        if case .active = phase { return true }
        return false
    }

    /// Whether the snapshot is plainly what the daemon is doing now, given
    /// part by part: the loop's question every round, asked before
    /// `update`, and nearly always the answer is yes. A quick look that
    /// calls nothing and retains nothing: the sensors are given by
    /// identity, and a configuration problem only as whether there is one
    /// (there is then no plain answer). Given as references, the parts were
    /// retained for the look: the daemon's question cost about 290
    /// instructions a round then, 190 now; a snapshot built, compared and
    /// dropped every round cost about 950 (Benchmarks/README.md, "The
    /// daemon in parts"). False means the parts may differ:
    /// `update` then compares them for equality. Inlinable: the look runs
    /// in the daemon's own code.
    @inlinable
    public func plainlyMatches(
        phase: Phase, sensor: ObjectIdentifier?, controls: UserControls, tabletMode: Bool?,
        tabletModeSource: TabletModeSource, baseSensor: ObjectIdentifier?, orientation: ScreenOrientation?,
        hasConfigurationProblem: Bool
    ) -> Bool {
        !hasConfigurationProblem && self.configurationProblem == nil && phase.isSame(as: self.phase)
            && sensor == self.sensor.map(ObjectIdentifier.init) && controls == self.controls
            && tabletMode == self.tabletMode && tabletModeSource == self.tabletModeSource
            && baseSensor == self.baseSensor.map(ObjectIdentifier.init) && orientation == self.orientation
    }

    /// Brings the snapshot up to what the daemon is doing now, given part
    /// by part: returns the snapshot as it was when any part differs, nil
    /// when none does. Every stored part is a parameter;
    /// `updatingEachPartIsNews` checks each is compared.
    @inlinable
    public mutating func update(
        phase: Phase, sensor: SensorIdentity?, controls: UserControls, tabletMode: Bool?,
        tabletModeSource: TabletModeSource, baseSensor: SensorIdentity?, orientation: ScreenOrientation?,
        configurationProblem: String?
    ) -> DaemonSnapshot? {
        if phase.isSame(as: self.phase), sensor == self.sensor, controls == self.controls,
            tabletMode == self.tabletMode, tabletModeSource == self.tabletModeSource, baseSensor == self.baseSensor,
            orientation == self.orientation, configurationProblem == self.configurationProblem
        {
            return nil
        }
        let old = self
        self = DaemonSnapshot(
            phase: phase, sensor: sensor, controls: controls, tabletMode: tabletMode,
            tabletModeSource: tabletModeSource, baseSensor: baseSensor, orientation: orientation,
            configurationProblem: configurationProblem)
        return old
    }

    /// The state's name on the bus (`State`).
    public var stateName: ScrollingStateName {
        switch phase {
        case .active(_, let intent): ScrollingStateName(activeIn: intent)
        case .off(let activation): activation.pausedBy == nil ? .off : .paused
        case .failed: .off
        case .waitingForSensor: .waitingForSensor
        }
    }

    /// One line for `systemctl status`, the log and the bus's `State` reason.
    public var statusLine: String {
        let name = sensor?.name.description ?? "?"
        switch phase {
        case .active(let mode, let intent):
            return "Scrolling with \(name) (\(mode.rawValue) capture)"
                + (intent.map { "; \($0.name): \($0.reason)" } ?? "")
        case .off(let activation):
            if let pause = activation.pausedBy { return "Scrolling paused: \(pause.sentence)" }
            return "Scrolling off: \(activation.offReason ?? "not wanted")"
        case .failed(let failure):
            return failure.sentence
        case .waitingForSensor(let failure?):
            return "\(failure.sentence); trying again"
        case .waitingForSensor(nil):
            return "Waiting for an accelerometer"
        }
    }

    /// The systemd status: the status line, and a configuration that did
    /// not load until one does.
    public var serviceStatus: String {
        guard let configurationProblem else { return statusLine }
        return "\(statusLine) (configuration error, running with the previous one: \(configurationProblem))"
    }

    public init(
        phase: Phase, sensor: SensorIdentity? = nil, controls: UserControls, tabletMode: Bool? = nil,
        tabletModeSource: TabletModeSource? = nil, baseSensor: SensorIdentity? = nil,
        orientation: ScreenOrientation? = nil, configurationProblem: String? = nil
    ) {
        self.phase = phase
        self.sensor = sensor
        self.controls = controls
        self.tabletMode = tabletMode
        self.tabletModeSource = tabletModeSource ?? .assumed(for: tabletMode)
        self.baseSensor = baseSensor
        self.orientation = orientation
        self.configurationProblem = configurationProblem
    }
}

/// The accelerometer as views name it: its IIO name and sysfs path, kept
/// as the kernel gave them and escaped when shown (`DeviceText`).
///
/// Immutable and shared: each `AccelerometerDevice` holds its own, so the
/// snapshot built every round takes a reference to it rather than copies
/// of two strings, and two rounds' snapshots compare it by identity first.
public final class SensorIdentity: Equatable, Sendable {
    public let name: DeviceText
    public let path: DeviceText

    public init(name: DeviceText, path: DeviceText) {
        self.name = name
        self.path = path
    }

    /// Inlinable: the identity check, nearly always the answer, then costs
    /// no call.
    @inlinable
    public static func == (a: SensorIdentity, b: SensorIdentity) -> Bool {
        a === b || (a.name == b.name && a.path == b.path)
    }
}

/// The `State` property's name: what clients switch on. The quiet states of
/// an active daemon that the physics names map onto the contract's names in
/// `init(activeIn:)`; clients treat names they do not know like `active`.
public enum ScrollingStateName: String, CaseIterable, Equatable {
    /// Not enabled, or not wanted by `[Activation]`.
    case off
    /// Wanted, but no sensor can be captured (none yet, or it keeps failing).
    case waitingForSensor = "waiting-for-sensor"
    /// Scrolling: in a hand (also while carried, when only a deliberate
    /// tilt scrolls).
    case active
    /// Active, lying still on something (or just picked up from it):
    /// nothing scrolls until it is held in a hand again.
    case resting
    /// Active, a finger or pen on a touchscreen: tilt paused.
    case touched
    /// Active, held still: the neutral pose follows a slow drift.
    case following
    /// Switched on and wanted by `[Activation]`, but quiet because nobody
    /// can be reading (`PauseReason`: the screen locked, the session idle,
    /// the lid closed, sleep, no session on the seat): the sensor released,
    /// no wheel; back by itself when somebody can read again.
    case paused

    /// The name of an active daemon whose intent guard is in `intent`
    /// (nil: not known yet, as before the first sample).
    public init(activeIn intent: IntentState?) {
        switch intent {
        case .resting?, .lifting?: self = .resting
        case .touched?: self = .touched
        case .following?: self = .following
        case .holding?, .jostled?, nil: self = .active
        }
    }
}

extension IntentState {
    /// What the state means to the person holding the device, for the
    /// status and the monitor.
    public var reason: String {
        switch self {
        case .holding: "in a hand, tilt scrolls"
        case .following: "held still, the neutral pose follows a slow drift"
        case .jostled: "carried, walking or riding: only a deliberate tilt scrolls"
        case .resting: "lying still, nothing scrolls until it is picked up"
        case .lifting: "picked up, scrolls once it is held still"
        case .touched: "a finger or pen is on the screen, tilt paused"
        }
    }
}
