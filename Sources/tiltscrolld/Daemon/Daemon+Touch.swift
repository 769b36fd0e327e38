import ScrollPhysics

/// Touchscreens and pens: a finger or pen on the screen pauses tilt
/// (`[Scroll] PauseOnTouch=`), and its lifting makes the pose held neutral
/// (`ZeroOnTouch=`, the engine's business).
extension Daemon {
    /// Whether touch devices are followed: with `PauseOnTouch=yes`, while the
    /// sensor is captured. Otherwise they are not even open, so that a
    /// finger on the screen of a laptop in laptop mode never wakes the daemon.
    var wantsTouchDevices: Bool { configuration.scroll.pauseOnTouch && source != nil }

    /// Opens or closes the touch devices as `wantsTouchDevices` says; every
    /// round, before the loop waits (a new capture, a reload, a release).
    func reconcileTouchDevices(now: Double) {
        guard wantsTouchDevices != touchDevices.isFollowing else { return }
        if wantsTouchDevices {
            touchDevices.open()
        } else {
            touchDevices.closeAll()
        }
        passTouchChanges(now: now)
    }

    /// Reads the touch devices poll() found readable and tells the engine
    /// when the first contact began or the last one ended: before the
    /// samples and the frame of the same round, so that the pause comes
    /// within one frame.
    func handleTouchDevices(now: Double) {
        guard !touchDevices.devices.isEmpty else { return }
        touchDevices.drainReadable { poller.isReadable($0) }
        passTouchChanges(now: now)
    }

    /// A udev event of subsystem "input": a touchscreen or pen that appeared
    /// is followed, one that went away released.
    func handleTouchDeviceEvent(_ event: DeviceEvent, now: Double) {
        guard touchDevices.isFollowing, let node = event.deviceNode else { return }
        switch event.action {
        case .add:
            guard let kind = event.touchKind, TouchInputRecord.isEventNode(node) else { return }
            touchDevices.added(TouchInputRecord(sysfsPath: event.sysfsPath, deviceNode: node, kind: kind))
        case .remove:
            touchDevices.removed(deviceNode: node)
        default:
            return
        }
        passTouchChanges(now: now)
    }

    /// After lost udev events: the devices udev lists now.
    func refreshTouchDevices(now: Double) {
        touchDevices.refresh()
        passTouchChanges(now: now)
    }

    private func passTouchChanges(now: Double) {
        let change = touchDevices.takeChange()
        if change.begin { tellEngineTouch(true, now: now) }
        if change.end { tellEngineTouch(false, now: now) }
    }

    private func tellEngineTouch(_ touching: Bool, now: Double) {
        // No line of its own in the log: the intent state says it (touched).
        engine.touch(touching, at: now)
        if sink.destination == .standardOutput {
            var line = ""
            printer.write(
                ReplayStep(
                    time: now - startTime, event: .touch(touching: touching), frame: nil, readout: engine.readout),
                to: &line)
            StandardOutput.write(line)
        }
    }
}
