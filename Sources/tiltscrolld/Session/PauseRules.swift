import TiltScrollCommon

extension ActivationSettings {
    /// Why nobody can be reading, from what logind and the lid switch say,
    /// as far as the `Pause*=` keys let each count; nil when somebody may
    /// be. The first that holds of `PauseReason`'s cases (in its order) is
    /// the one said.
    ///
    /// What logind has not said (`LogindView.unknown`: absent, not
    /// answered) pauses nothing, and neither does a machine without a lid
    /// switch (`lidClosed` nil): without them the daemon works as it did
    /// before it knew of sessions.
    func pauseReason(logind: LogindView, lidClosed: Bool?) -> PauseReason? {
        if pauseForSleep, logind.preparingForSleep { return .sleep }
        if pauseWhenLidClosed, lidClosed == true { return .lidClosed }
        guard logind.isKnown else { return nil }
        guard let session = logind.session, session.isSomeonesSession else {
            // A greeter's lock or idleness says nothing of a reader either.
            return pauseWithoutSession ? .noSession : nil
        }
        if pauseWhenLocked, session.isLocked || session.sessionClass == "lock-screen" { return .locked }
        if pauseWhenIdle, session.isIdle { return .idle }
        return nil
    }
}
