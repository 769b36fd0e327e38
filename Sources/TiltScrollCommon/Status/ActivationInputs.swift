/// What decides whether tilt scrolling is wanted: the person's switch
/// (`Enabled` on the bus, SIGUSR2, `tiltscrollctl toggle`), the
/// administrator's `[Activation] When=`, tablet mode (the machine's
/// tablet-mode switch, or the hinge angle where it has none), and whether
/// anybody can be reading (`pause`).
///
/// `Enabled` sits on top of `When=`: switched off, nothing scrolls whatever
/// `When=` says; switched on, `When=` decides. `When=manual` is "on while
/// enabled", and starts disabled on a first start (`initialEnabled`). A
/// pause sits below both: it quiets a daemon they want, and is said only
/// then (switched off and locked is "off", not "paused").
public struct ActivationInputs: Equatable, Sendable {
    public var mode: ActivationMode
    /// Tablet mode (true) or laptop mode (false), as `tabletModeSource`
    /// tells it; nil while nothing tells it: no source, or the hinge angle
    /// not decided yet (or not watched: scrolling is off anyway).
    public var tabletMode: Bool?
    /// Where `tabletMode` comes from: a `SW_TABLET_MODE` switch, the hinge
    /// angle (`PostureWatch`), or nowhere.
    public var tabletModeSource: TabletModeSource
    /// The person's switch.
    public var enabled: Bool
    /// Why nobody can be reading now (the screen locked, the lid closed,
    /// sleep...), as far as the `Pause*=` keys let it count; nil when
    /// somebody may be.
    public var pause: PauseReason?

    /// `Enabled` on a first start, before anything was persisted: off for
    /// `When=manual` (the administrator asked for scrolling only on request),
    /// on otherwise.
    public static func initialEnabled(for mode: ActivationMode) -> Bool {
        mode != .manual
    }

    /// Whether the switch, the settings and the machine's state ask for
    /// scrolling and nobody's absence keeps it quiet.
    public var isWanted: Bool { isWantedByPolicy && pause == nil }

    /// The pause that keeps a wanted daemon quiet; nil when it is not
    /// paused, or off anyway. A hinge that does not tell tablet mode counts
    /// as wanting it: it is let go of while paused, and comes back with the
    /// reader.
    public var pausedBy: PauseReason? { isWantedByPolicy || mayBeWantedByHinge ? pause : nil }

    /// Switched on, `When=` follows the hinge, and the hinge is not read.
    private var mayBeWantedByHinge: Bool {
        enabled && tabletModeSource == .hinge && tabletMode == nil && (mode == .auto || mode == .tabletMode)
    }

    /// Whether the switch, `When=` and tablet mode ask for scrolling,
    /// whoever is there. `When=auto` is always on only where nothing tells
    /// tablet mode: a hinge not decided yet keeps it off, as laptop mode
    /// does, so that a laptop never scrolls for the second it takes to tell.
    public var isWantedByPolicy: Bool {
        guard enabled else { return false }
        switch mode {
        case .always, .manual: return true
        case .auto: return tabletModeSource == .none ? true : tabletMode ?? false
        case .tabletMode: return tabletMode ?? false
        }
    }

    /// Why scrolling is not wanted, in words for the log, `systemctl status`
    /// and the bus; nil while it is wanted.
    public var offReason: String? {
        guard !isWanted else { return nil }
        if let pausedBy { return pausedBy.sentence }
        if !enabled {
            return mode == .manual
                ? "switched off (When=manual; switch it on with tiltscrollctl enable or from the desktop)"
                : "switched off (tiltscrollctl enable or the desktop switches it on)"
        }
        switch (tabletModeSource, tabletMode) {
        case (.none, _):
            return mode == .tabletMode
                ? "When=tablet-mode, but there is no tablet-mode switch, nor an accelerometer in the base to tell it "
                    + "from the hinge angle" : "not in tablet mode"
        case (.hinge, nil): return "telling tablet mode from the hinge angle"
        case (.hinge, _): return "not in tablet mode (the hinge angle says laptop)"
        case (.switch, _): return "not in tablet mode"
        }
    }

    /// `tabletModeSource` nil: the switch's when `tabletMode` is known, none otherwise.
    public init(
        mode: ActivationMode, tabletMode: Bool? = nil, tabletModeSource: TabletModeSource? = nil, enabled: Bool,
        pause: PauseReason? = nil
    ) {
        self.mode = mode
        self.tabletMode = tabletMode
        self.tabletModeSource = tabletModeSource ?? .assumed(for: tabletMode)
        self.enabled = enabled
        self.pause = pause
    }
}

/// Where tablet mode comes from: the `TabletModeSource` property on the bus.
public enum TabletModeSource: String, CaseIterable, Equatable, Sendable {
    /// The machine's `SW_TABLET_MODE` switch (its firmware's, through a
    /// platform driver): it takes precedence wherever it exists.
    case `switch`
    /// The angle between the display and the base, from their two
    /// accelerometers, where the machine has no switch.
    case hinge
    /// Neither: a tablet, a laptop with one accelerometer, or `When=` that
    /// does not ask (always, manual) and nothing published.
    case none

    /// Where a tablet mode given without its source comes from: the
    /// switch's when it is known, none otherwise (as before the hinge).
    public static func assumed(for tabletMode: Bool?) -> TabletModeSource {
        tabletMode == nil ? .none : .switch
    }

    // Compared every round (`DaemonSnapshot.update`, the hinge in the
    // daemon): the daemon's calls of the synthesized `==` went through the
    // generic `Equatable` witness in the standard library, about 16
    // instructions each; these are picked directly.
    public static func == (a: TabletModeSource, b: TabletModeSource) -> Bool {
        switch (a, b) {
        case (.switch, .switch), (.hinge, .hinge), (.none, .none): true
        default: false
        }
    }

    public static func != (a: TabletModeSource, b: TabletModeSource) -> Bool { !(a == b) }
}
