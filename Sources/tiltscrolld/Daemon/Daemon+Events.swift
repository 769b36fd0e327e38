import Glibc
import ScrollPhysics

/// Signals, the person's controls, reloads, udev hotplug and tablet-mode switches.
extension Daemon {
    func handleSignals(now: Double) {
        signals.drain { signal in
            switch signal {
            case SIGTERM, SIGINT:
                if !stopRequested { Log.info("\(SignalChannel.name(signal)): stopping") }
                stopRequested = true
            case SIGUSR1:
                _ = recalibrate(now: now)
            case SIGUSR2:
                setEnabled(!controls.enabled, by: "SIGUSR2", now: now)
            case SIGHUP:
                reload(now: now)
            default:
                break
            }
        }
    }

    // MARK: - The person's controls (signals and the bus)

    /// Makes the current pose neutral, saved once the engine has taken it;
    /// false while not scrolling, when there is no pose to take.
    func recalibrate(now: Double) -> Bool {
        guard lifecycle.state == .active else {
            Log.notice("Recalibration asked while not scrolling; the pose is taken when scrolling starts")
            return false
        }
        engine.recalibrate(at: now)
        saveNeutralWhenSet = sink.persistsState
        Log.info("Recalibrated: the current pose is neutral")
        return true
    }

    /// The switch: on top of `[Activation] When=`, persisted. Takes effect
    /// at once (the sensor opened or let go) and is published.
    func setEnabled(_ on: Bool, by who: String, now: Double) {
        guard on != controls.enabled else { return }
        controls.enabled = on
        controlsChanged(now: now)
        Log.info("Scrolling switched \(on ? "on" : "off") (\(who))")
        step(.enabledChanged(on), now: now)
        reconcile(now: now)
        publishIfChanged(now: now)
    }

    /// A factor on `Speed=`, persisted; the configuration file is left as it is.
    func setSensitivity(_ factor: Double, by who: String, now: Double) {
        guard factor != controls.sensitivity else { return }
        controls.sensitivity = factor
        controlsChanged(now: now)
        engine.apply(controls.applied(to: configuration.scroll))
        // A slider sends many; they are not each worth a line of the journal.
        Log.debug("Sensitivity \(factor) (\(who))")
        publishIfChanged(now: now)
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
        reconcile(now: now)
        lastStatus = statusLine()
        notifier.ready(status: lastStatus)
    }

    func apply(_ new: Configuration, now: Double) {
        let old = configuration
        configuration = new
        engine.apply(controls.applied(to: new.scroll))
        monitorView?.settings = new.scroll
        if new.device != old.device {
            // Another device, matrix, rate or mode: choose and open afresh.
            step(.deviceSettingsChanged, now: now)
        } else if new.scroll.horizontal != old.scroll.horizontal, scrollDevice != nil {
            // The wheel's capabilities changed: a new uinput device.
            step(.sinkSettingsChanged, now: now)
        }
        if new.activation.when != old.activation.when {
            step(.modeChanged(new.activation.when), now: now)
            scanSwitchesIfNeeded(now: now)
        }
    }

    // MARK: - Hotplug

    func handleDeviceEvents(now: Double) {
        guard let hotplug else { return }
        var appeared = false
        let eventsLost = hotplug.drain { event in
            switch event.subsystem {
            case "iio":
                if let current = lifecycle.sensor, event.sysfsPath == current.sysfsPath {
                    handleCurrentDevice(event, now: now)
                } else if event.action == .add || event.action == .bind {
                    appeared = true
                }
            case "input":
                handleInputDevice(event, now: now)
                handleTouchDeviceEvent(event, now: now)
            default:
                break
            }
        }
        if eventsLost {
            // A remove or add may be among the lost: check the sensor in use
            // is still there, and look for one if none is.
            if let current = lifecycle.sensor, !FileSystem.exists(current.sysfsPath) {
                step(.sensorRemoved, now: now)
            }
            appeared = true
            rescanSwitches(now: now)
            refreshTouchDevices(now: now)
        }
        if appeared { step(.sensorAppeared, now: now) }
    }

    func handleCurrentDevice(_ event: DeviceEvent, now: Double) {
        switch event.action {
        case .remove, .unbind:
            step(.sensorRemoved, now: now)
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
            step(.sensorChanged(updated), now: now)
        default:
            break
        }
    }

    // MARK: - Tablet-mode switches

    /// Only `auto` and `tablet-mode` care about switches; the others never open them.
    var wantsSwitches: Bool {
        let mode = lifecycle.activation.mode
        return sink.followsActivation && (mode == .auto || mode == .tabletMode)
    }

    /// Forgets the switches known and looks again (after lost udev events).
    func rescanSwitches(now: Double) {
        for sw in switches { sw.close() }
        switches.removeAll()
        scanSwitchesIfNeeded(now: now)
    }

    func scanSwitchesIfNeeded(now: Double) {
        guard wantsSwitches else {
            for sw in switches { sw.close() }
            switches.removeAll()
            updateTabletMode(now: now)
            return
        }
        if switches.isEmpty {
            switches = TabletModeSwitch.scan()
            for sw in switches {
                Log.info(
                    "Tablet-mode switch: \(sw.name) (\(sw.deviceNode)), \(sw.isTabletMode ? "tablet" : "laptop") mode")
            }
        }
        updateTabletMode(now: now)
    }

    func handleInputDevice(_ event: DeviceEvent, now: Double) {
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
        updateTabletMode(now: now)
    }

    /// Drains the switches that poll() found readable. Looked up by
    /// descriptor, because a reload or hotplug event handled earlier in the
    /// same round may have changed the list.
    func handleSwitches(now: Double) {
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
        if changed { updateTabletMode(now: now) }
    }

    /// The switches' state into the lifecycle (nil: none, or not read).
    func updateTabletMode(now: Double) {
        let state: Bool? = switches.isEmpty ? nil : switches.contains { $0.isTabletMode }
        guard state != lifecycle.activation.tabletMode else { return }
        step(.tabletModeChanged(state), now: now)
        if let state { Log.info(state ? "Tablet mode" : "Laptop mode") }
    }
}
