import Glibc
import ScrollPhysics

/// Signals, udev hotplug, tablet-mode switches and reloads.
extension Daemon {
    /// Feeds `event` to the activation state machine; a transition is logged
    /// with its names (debug), as libinput logs its state machines.
    func handle(_ event: Activation.Event) {
        let (from, to) = activation.handle(event)
        guard from != to else { return }
        Log.debug("Activation: \(Activation.name(from)) -> \(Activation.name(to)) on \(Activation.name(event))")
    }

    func handleSignals(now: Double) {
        signals.drain { signal in
            switch signal {
            case SIGTERM, SIGINT:
                if !stopRequested { Log.info("\(SignalChannel.name(signal)): stopping") }
                stopRequested = true
            case SIGUSR1:
                recalibrate(now: now)
            case SIGUSR2:
                toggle()
            case SIGHUP:
                reload(now: now)
            default:
                break
            }
        }
    }

    func recalibrate(now: Double) {
        guard source != nil else {
            Log.notice("Recalibration asked while not scrolling; the pose is taken when scrolling starts")
            return
        }
        engine.recalibrate(at: now)
        saveNeutralWhenSet = output != .monitor
        Log.info("Recalibrated: the current pose is neutral")
    }

    func toggle() {
        guard activation.mode == .manual else {
            Log.notice("Toggle ignored: it needs [Activation] When=manual (now \(activation.mode.rawValue))")
            return
        }
        handle(.manualToggle)
        Log.info(activation.isWanted ? "Scrolling switched on" : "Scrolling switched off")
    }

    // MARK: - Reload

    /// SIGHUP: read the configuration again; a bad file keeps the running one.
    func reload(now: Double) {
        notifier.reloading()
        let new: Configuration
        do {
            new = try Configuration.load(path: configSource.path, required: configSource.required)
        } catch {
            Log.error("Reload failed, keeping the running configuration: \(error)")
            // Shown by `systemctl status` until the state changes or a reload succeeds.
            lastStatus = "Configuration error, running with the previous one: \(error)"
            notifier.ready(status: lastStatus)
            return
        }
        apply(new, now: now)
        Log.info("Reloaded \(configSource.path)")
        lastStatus = statusLine()
        notifier.ready(status: lastStatus)
    }

    func apply(_ new: Configuration, now: Double) {
        let old = configuration
        configuration = new
        engine.apply(new.scroll)
        monitorView?.settings = new.scroll
        if new.device != old.device {
            // Another device, matrix, rate or mode: choose and open afresh.
            releaseSensor()
            device = nil
            reacquireAt = nil
            reacquireDelay = Daemon.firstRetryDelay
        } else if new.scroll.horizontal != old.scroll.horizontal, scrollDevice != nil {
            // The wheel's capabilities changed: a new uinput device, same capture.
            releaseSensor()
        }
        if output != .monitor, new.activation.when != old.activation.when {
            handle(.modeChanged(new.activation.when))
            scanSwitchesIfNeeded()
        }
    }

    // MARK: - Hotplug

    func handleDeviceEvents(now: Double) {
        guard let hotplug else { return }
        var lookForSensor = false
        let eventsLost = hotplug.drain { event in
            switch event.subsystem {
            case "iio":
                if let current = device, event.sysfsPath == current.sysfsPath {
                    handleCurrentDevice(event, now: now)
                } else if event.action == .add || event.action == .bind {
                    lookForSensor = lookForSensor || device == nil || source == nil
                }
            case "input":
                handleInputDevice(event)
                handleTouchDeviceEvent(event, now: now)
            default:
                break
            }
        }
        if eventsLost {
            // A remove or add may be among the lost: check the sensor in use
            // is still there, and look for one if none is.
            if let current = device, !FileSystem.exists(current.sysfsPath) {
                handleCurrentDevice(
                    DeviceEvent(action: .remove, subsystem: "iio", sysfsPath: current.sysfsPath, deviceNode: nil),
                    now: now)
            }
            lookForSensor = true
            rescanSwitches()
            refreshTouchDevices(now: now)
        }
        if lookForSensor, source == nil {
            device = nil
            reacquireAt = nil
            reacquireDelay = Daemon.firstRetryDelay
        }
    }

    func handleCurrentDevice(_ event: DeviceEvent, now: Double) {
        switch event.action {
        case .remove, .unbind:
            Log.notice("\(device?.name ?? "The accelerometer") went away; waiting for it to return")
            releaseSensor()
            device = nil
        case .change:
            // hwdb or rules may have changed the mount matrix or location.
            guard
                let updated = try? DeviceDiscovery.describe(
                    sysfsPath: event.sysfsPath, matrixOverride: configuration.device.mountMatrix)
            else { return }
            if updated.mountMatrix != mountMatrix {
                Log.info("Mount matrix of \(updated.name) is now \(updated.mountMatrix) (\(updated.mountMatrixSource))")
                if source != nil { engine.recalibrate(at: now) }
            }
            adopt(updated)
        default:
            break
        }
    }

    // MARK: - Tablet-mode switches

    /// Only `auto` and `tablet-mode` care about switches; the others never open them.
    var wantsSwitches: Bool {
        output != .monitor && (activation.mode == .auto || activation.mode == .tabletMode)
    }

    /// Forgets the switches known and looks again (after lost udev events).
    func rescanSwitches() {
        for sw in switches { sw.close() }
        switches.removeAll()
        scanSwitchesIfNeeded()
    }

    func scanSwitchesIfNeeded() {
        guard wantsSwitches else {
            for sw in switches { sw.close() }
            switches.removeAll()
            handle(.tabletModeChanged(nil))
            return
        }
        if switches.isEmpty {
            switches = TabletModeSwitch.scan()
            for sw in switches {
                Log.info(
                    "Tablet-mode switch: \(sw.name) (\(sw.deviceNode)), \(sw.isTabletMode ? "tablet" : "laptop") mode")
            }
        }
        updateTabletMode()
    }

    func handleInputDevice(_ event: DeviceEvent) {
        guard wantsSwitches, let node = event.deviceNode, node.hasPrefix("/dev/input/event") else { return }
        switch event.action {
        case .add:
            guard !switches.contains(where: { $0.deviceNode == node }),
                let found = (try? TabletModeSwitch.open(deviceNode: node)) ?? nil
            else { return }
            Log.info("Tablet-mode switch appeared: \(found.name) (\(node))")
            switches.append(found)
        case .remove:
            if let index = switches.firstIndex(where: { $0.deviceNode == node }) {
                switches[index].close()
                switches.remove(at: index)
            }
        default:
            return
        }
        updateTabletMode()
    }

    /// Drains the switches that poll() found readable. Looked up by
    /// descriptor, because a reload or hotplug event handled earlier in the
    /// same round may have changed the list.
    func handleSwitches() {
        guard !switches.isEmpty else { return }
        var changed = false
        var gone: [Int] = []
        for (index, sw) in switches.enumerated() where poller.isReadable(sw.descriptor) {
            do {
                changed = try sw.drain() || changed
            } catch {
                gone.append(index)
            }
        }
        for index in gone.reversed() {
            switches[index].close()
            switches.remove(at: index)
            changed = true
        }
        if changed { updateTabletMode() }
    }

    func updateTabletMode() {
        let state: Bool? = switches.isEmpty ? nil : switches.contains { $0.isTabletMode }
        guard state != activation.tabletMode else { return }
        handle(.tabletModeChanged(state))
        if let state { Log.info(state ? "Tablet mode" : "Laptop mode") }
    }
}
