import ScrollPhysics

/// Why it is quiet: the engine's intent state (holding, following, jostled,
/// resting, lifting, touched) in the log, the systemd status, `--dry-run`
/// and `--monitor`, on change. The loop compares the state, an enum, each
/// round; words are made only when it changed, never per sample.
extension Daemon {
    /// The intent state while the sensor is captured; nil otherwise.
    var currentIntent: IntentState? { source != nil ? engine.intentState : nil }

    /// Says a change of the intent state: one debug line (a device put down
    /// and picked up, a hand held still and tilted again, are every-minute
    /// events of normal use, not news for the journal), the systemd status,
    /// and an `event intent` line in `--dry-run`.
    func followIntent(now: Double) {
        let state = currentIntent
        guard state != shownIntent else { return }
        let previous = shownIntent
        shownIntent = state
        guard let state else { return }
        if let previous {
            Log.debug("Intent: \(previous.name) -> \(state.name) (\(state.reason))")
        } else {
            Log.debug("Intent: \(state.name) (\(state.reason))")
        }
        if sink.destination == .standardOutput {
            var line = ""
            printer.writeChanges(engine.readout, at: now - startTime, to: &line)
            StandardOutput.write(line)
        }
        updateStatus(quietly: true)
    }
}

extension IntentState {
    /// What the state means to the person holding the device, for the
    /// status and the monitor.
    var reason: String {
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
