/// What logind says of the person at the machine, as the loop sees it: the
/// active session of seat0 and whether the machine is about to sleep. Made
/// by `LogindWatch` from logind's answers and signals, and published only
/// whole: a session whose properties are still being read is not shown
/// half known.
struct LogindView: Equatable {
    /// logind answered: `session` says what seat0 has. False while logind
    /// is not on the bus, before it answered, and when seat0 cannot be read;
    /// then nothing of it quiets the daemon (it works as without logind).
    var isKnown: Bool
    /// seat0's active session; nil when it has none.
    var session: SeatSession?
    /// Between `PrepareForSleep(true)` and `PrepareForSleep(false)`.
    var preparingForSleep: Bool

    /// Nothing known: logind absent, or not answered yet.
    static let unknown = LogindView(isKnown: false, session: nil, preparingForSleep: false)
}

/// The active session of seat0, as far as pausing needs it
/// (org.freedesktop.login1.Session).
struct SeatSession: Equatable {
    /// logind's session id ("2", "c1").
    var id: String
    /// `Class`: "user", "greeter" (a login screen), "lock-screen", ...
    var sessionClass: String
    /// `Active`: the session is in the foreground of its seat.
    var isActive: Bool
    /// `LockedHint`: its screen locker says the screen is locked.
    var isLocked: Bool
    /// `IdleHint`: its desktop says the person is away (the screen blanks).
    var isIdle: Bool

    /// A session a person reads in: a foreground session that is not a login screen.
    var isSomeonesSession: Bool { isActive && sessionClass != "greeter" }
}
