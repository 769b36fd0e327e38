/// What decides whether tilt scrolling is wanted: the person's switch
/// (`Enabled` on the bus, SIGUSR2, `tiltscrollctl toggle`), the
/// administrator's `[Activation] When=` and the machine's tablet-mode switch.
///
/// `Enabled` sits on top of `When=`: switched off, nothing scrolls whatever
/// `When=` says; switched on, `When=` decides. `When=manual` is "on while
/// enabled", and starts disabled on a first start (`initialEnabled`).
package struct ActivationInputs: Equatable {
    package var mode: ActivationMode
    /// The state of a `SW_TABLET_MODE` switch (true in tablet mode); nil
    /// while the machine has none.
    package var tabletMode: Bool?
    /// The person's switch.
    package var enabled: Bool

    /// `Enabled` on a first start, before anything was persisted: off for
    /// `When=manual` (the administrator asked for scrolling only on request),
    /// on otherwise.
    package static func initialEnabled(for mode: ActivationMode) -> Bool {
        mode != .manual
    }

    /// Whether the switch, the settings and the machine's state ask for scrolling.
    package var isWanted: Bool {
        guard enabled else { return false }
        switch mode {
        case .always, .manual: return true
        case .auto: return tabletMode ?? true
        case .tabletMode: return tabletMode ?? false
        }
    }

    /// Why scrolling is not wanted, in words for the log, `systemctl status`
    /// and the bus; nil while it is wanted.
    package var offReason: String? {
        guard !isWanted else { return nil }
        if !enabled {
            return mode == .manual
                ? "switched off (When=manual; switch it on with tiltscrollctl enable or from the desktop)"
                : "switched off (tiltscrollctl enable or the desktop switches it on)"
        }
        if mode == .tabletMode, tabletMode == nil { return "When=tablet-mode, but there is no tablet-mode switch" }
        return "not in tablet mode"
    }

    package init(mode: ActivationMode, tabletMode: Bool? = nil, enabled: Bool) {
        self.mode = mode
        self.tabletMode = tabletMode
        self.enabled = enabled
    }
}
