/// Why tilt scrolling is quiet though it is switched on and `[Activation]
/// When=` wants it: nobody can be reading. The bus names every one of them
/// `paused` (`State`); the reason says which.
///
/// The cases are in order of precedence: when several hold, the first is
/// the one said (a closed lid says more than the lock screen behind it).
public enum PauseReason: String, CaseIterable, Equatable, Sendable {
    /// logind announced `PrepareForSleep(true)`: the sensor and the wheel
    /// go before the machine sleeps.
    case sleep
    /// A `SW_LID` switch reports the lid closed.
    case lidClosed = "lid-closed"
    /// seat0 has no active session, or a greeter's: a login screen, or a
    /// switch to another virtual terminal.
    case noSession = "no-session"
    /// The active session's screen is locked (`LockedHint`).
    case locked
    /// The active session is idle (`IdleHint`, which desktops set when they blank the screen).
    case idle

    /// The reason in words, for the status line and the log.
    public var sentence: String {
        switch self {
        case .sleep: "the machine is going to sleep"
        case .lidClosed: "the lid is closed"
        case .noSession: "no session is active on this seat"
        case .locked: "the screen is locked"
        case .idle: "the session is idle"
        }
    }
}
