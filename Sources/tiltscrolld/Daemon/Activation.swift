/// Whether tilt scrolling is on, written out as a state machine (inputs,
/// state, transitions) in the way libinput writes its own, so every change is
/// explicit; the daemon logs each transition with the names of its states and
/// event (`Daemon.handle(_:)`, at debug level).
///
/// Scrolling is active when it is wanted (by `[Activation] When=` and the
/// tablet-mode switch or the manual toggle) and a sensor is available. Only
/// while active does the daemon hold the sensor and the uinput device; while
/// inactive it sleeps with nothing to poll but signals and udev.
struct Activation: Equatable {
    enum State: Equatable {
        /// Not wanted: the sensor is released, no uinput device exists.
        case off
        /// Wanted, but no usable accelerometer yet: waiting for one to appear.
        case waitingForSensor
        /// Scrolling: sensor captured, uinput device present.
        case active
    }

    enum Event: Equatable {
        case tabletModeChanged(Bool?)
        case manualToggle
        case sensorAvailable(Bool)
        case modeChanged(ActivationMode)
    }

    private(set) var mode: ActivationMode
    /// The state of a `SW_TABLET_MODE` switch, nil when the machine has none.
    private(set) var tabletMode: Bool?
    /// The SIGUSR2 toggle, meaningful in `manual` mode; starts off.
    private(set) var manuallyEnabled = false
    private(set) var sensorAvailable = false

    init(mode: ActivationMode) { self.mode = mode }

    /// Whether the user's settings and the machine's state ask for scrolling.
    var isWanted: Bool {
        switch mode {
        case .always: return true
        case .auto: return tabletMode ?? true
        case .tabletMode: return tabletMode ?? false
        case .manual: return manuallyEnabled
        }
    }

    var state: State {
        guard isWanted else { return .off }
        return sensorAvailable ? .active : .waitingForSensor
    }

    /// Applies `event`; returns the state before and after, so the caller acts on the edge.
    @discardableResult
    mutating func handle(_ event: Event) -> (from: State, to: State) {
        let before = state
        switch event {
        case .tabletModeChanged(let value): tabletMode = value
        case .manualToggle: manuallyEnabled.toggle()
        case .sensorAvailable(let value): sensorAvailable = value
        case .modeChanged(let value): mode = value
        }
        return (before, state)
    }

    /// Why scrolling is off or waiting, in words for the log and `systemctl status`.
    var explanation: String {
        switch state {
        case .active: return "active"
        case .waitingForSensor: return "waiting for an accelerometer"
        case .off:
            switch mode {
            case .manual: return "off (When=manual; toggle with tiltscrolld --toggle)"
            case .tabletMode where tabletMode == nil: return "off (When=tablet-mode but no tablet-mode switch found)"
            default: return "off (not in tablet mode)"
            }
        }
    }

    static func name(_ state: State) -> String {
        switch state {
        case .off: return "off"
        case .waitingForSensor: return "waiting-for-sensor"
        case .active: return "active"
        }
    }

    static func name(_ event: Event) -> String {
        switch event {
        case .tabletModeChanged(let value): return "tablet-mode-\(value.map { $0 ? "on" : "off" } ?? "unknown")"
        case .manualToggle: return "manual-toggle"
        case .sensorAvailable(let value): return value ? "sensor-available" : "sensor-lost"
        case .modeChanged(let value): return "when-\(value.rawValue)"
        }
    }
}
