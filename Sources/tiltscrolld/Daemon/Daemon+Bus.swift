import Glibc
import ScrollPhysics

/// The daemon on the system bus: io.github.tiltscroll.TiltScroll1 in the loop.
extension Daemon: BusControls {
    /// Connects and registers; without a bus (a container, an initramfs)
    /// the daemon runs on, reachable by signals only.
    func startBus(now: Double) {
        do {
            let connection = try BusConnection.open()
            bus = try BusService.start(on: connection, properties: currentProperties(now: now), controls: self)
            publishedKey = currentPublishedKey()
        } catch {
            Log.notice(
                "No D-Bus interface (\(error.message)): tiltscrolld --enable, --disable and --status "
                    + "cannot reach this daemon; signals still work")
        }
    }

    /// Dispatches what the bus brought (`ready`) or what its deadline asks for.
    func serveBus(ready: Bool, now: Double) {
        guard let bus else { return }
        if !ready, bus.connection.deadline(now: now).map { $0 > now } ?? true { return }
        do {
            try bus.connection.process()
        } catch {
            Log.warning(
                "Lost the system bus (\(error.message)); the D-Bus interface is off until tiltscrolld restarts")
            bus.close()
            self.bus = nil
        }
    }

    // MARK: - Publishing

    /// What the published properties are made of: cheap to compare each round.
    struct PublishedKey: Equatable {
        var lifecycle: Int
        var controls: UserControls
        var mode: CaptureMode?
        var orientation: ScreenOrientation?
        var intent: IntentState?
    }

    func currentPublishedKey() -> PublishedKey {
        PublishedKey(
            lifecycle: lifecycle.revision, controls: controls, mode: source?.mode, orientation: engineOrientation,
            intent: shownIntent)
    }

    /// Rebuilds and publishes the properties when what they are made of
    /// changed; the engine's orientation is looked at now and then only.
    func publishIfChanged(now: Double) {
        guard let bus else { return }
        if lifecycle.state == .active, now >= nextEngineLook {
            nextEngineLook = now + Daemon.engineLookInterval
            engineOrientation = engine.readout.orientation
        }
        let key = currentPublishedKey()
        guard key != publishedKey else { return }
        publishedKey = key
        bus.publish(currentProperties(now: now))
    }

    func currentProperties(now: Double) -> PublishedProperties {
        let active = lifecycle.state == .active
        let state: ScrollingStateName
        switch lifecycle.state {
        case .active: state = ScrollingStateName(activeIn: shownIntent)
        case .off, .failed: state = .off
        case .lookingForSensor, .waitingForSensor, .opening, .retrying: state = .waitingForSensor
        }
        return PublishedProperties(
            enabled: controls.enabled, sensitivity: controls.sensitivity, active: active, state: state,
            stateReason: statusLine(), tabletMode: TabletModeReading(lifecycle.activation.tabletMode),
            sensor: lifecycle.sensor.map { ($0.name, $0.sysfsPath) },
            orientation: active ? engineOrientation : nil)
    }

    // MARK: - BusControls

    func busSetEnabled(_ on: Bool, by caller: BusCaller) {
        setEnabled(on, by: "over D-Bus by \(caller)", now: DaemonClock.now())
    }

    func busSetSensitivity(_ factor: Double, by caller: BusCaller) {
        setSensitivity(factor, by: "over D-Bus by \(caller)", now: DaemonClock.now())
    }

    func busCalibrate(by caller: BusCaller) throws(BusError) {
        let now = DaemonClock.now()
        guard recalibrate(now: now) else {
            throw BusError(
                name: BusError.notActive,
                message: "Tilt scrolling is not active (\(statusLine())); the pose is taken when it starts")
        }
    }
}
