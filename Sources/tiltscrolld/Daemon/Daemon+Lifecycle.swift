import Glibc
import ScrollPhysics

/// The lifecycle's side effects: discovering, opening and letting go of the
/// accelerometer and the uinput device, as the states ask; what is said
/// about it; the status line.
extension Daemon {
    /// Discovery plus `[Device] Name=`: the sensor to use, or why there is none.
    func chooseDevice() throws(CaptureError) -> AccelerometerDevice {
        try DeviceDiscovery.choose(
            from: DeviceDiscovery.enumerate(matrixOverride: configuration.device.mountMatrix),
            name: configuration.device.name)
    }

    /// Feeds `event` to the lifecycle: the transition is logged by name
    /// (debug), the sensor and the sink are let go as soon as the state is
    /// not active any more, what a failed capture kept for its retries goes
    /// back once the lifecycle stops retrying, and the report, if any, is said.
    func step(_ event: Lifecycle.Event, now: Double) {
        let (transition, report) = lifecycle.handle(event, at: now)
        if transition.from != transition.to { Log.debug("Lifecycle: \(transition)") }
        if let sensor = lifecycle.sensor { mountMatrix = sensor.mountMatrix }
        if lifecycle.state != .active, source != nil || scrollDevice != nil { releaseSensor() }
        if lifecycle.state != .retrying, lifecycle.state != .opening { restoreRetainedSettings() }
        if let report { say(report, now: now) }
    }

    /// Does what the lifecycle's state asks for until it asks for nothing:
    /// discovery in `lookingForSensor`, opening in `opening`.
    func reconcile(now: Double) {
        if let due = lifecycle.nextDeadline, now >= due { step(.tick, now: now) }
        // Each step moves on (found or not, opened or failed); the bound is a guard.
        for _ in 0..<8 {
            switch lifecycle.state {
            case .lookingForSensor:
                do {
                    step(.sensorFound(try chooseDevice()), now: now)
                } catch {
                    Log.debug("No accelerometer yet: \(error.message)")
                    step(.sensorNotFound, now: now)
                }
            case .opening:
                open(now: now)
            default:
                updateStatus()
                return
            }
        }
        updateStatus()
    }

    /// Opens the capture and the uinput device and sets the neutral pose.
    func open(now: Double) {
        guard let device = lifecycle.sensor else { return }
        let opened: SampleSource
        let journal = retainedSettings ?? SettingsJournal(file: settingsJournalFile)
        retainedSettings = nil
        do {
            opened = try Capture.open(
                device, mode: configuration.device.mode, rate: configuration.device.sampleRate, journal: journal)
        } catch {
            if !journal.isEmpty { retainedSettings = journal }
            let failure = CaptureFailure(
                step: .capture, message: "\(device.name): \(error.message)",
                retryMayMend: error.kind != .permissionDenied)
            step(.openFailed(failure), now: now)
            return
        }
        if sink.needsScrollDevice, scrollDevice == nil {
            do {
                scrollDevice = try ScrollDevice.create(horizontal: configuration.scroll.horizontal)
            } catch {
                opened.release()
                step(
                    .openFailed(CaptureFailure(step: .scrollDevice, message: "\(error)", retryMayMend: false)), now: now
                )
                return
            }
        }
        source = opened
        engine.setSensorResolution(opened.calibration.resolution)
        if let saved = savedNeutral {
            // Restored once, at start; every later activation captures the pose afresh.
            engine.restoreNeutral(saved)
            savedNeutral = nil
        } else {
            engine.recalibrate(at: now)
        }
        step(.opened, now: now)
    }

    /// Stops scrolling: the capture restores what it changed, the uinput
    /// device disappears, motion stops without a final frame.
    func releaseSensor() {
        if let source {
            if lifecycle.state == .retrying {
                let journal = source.releaseForRetry()
                if !journal.isEmpty { retainedSettings = journal }
            } else {
                source.release()
            }
        }
        source = nil
        engine.halt()
        scrollDevice?.destroy()
        scrollDevice = nil
        emitFailing = false
        engineOrientation = nil
    }

    /// Puts back what a failed capture kept for its retries (the raised
    /// sampling frequency), once the lifecycle stops retrying that sensor.
    func restoreRetainedSettings() {
        retainedSettings?.restoreAll()
        retainedSettings = nil
    }

    /// The open capture failed: a broken sensor is retried, one that is gone looked for.
    func lose(_ error: CaptureError, now: Double) {
        let device = lifecycle.sensor
        let failure = CaptureFailure(step: .read, message: "\(device?.name ?? "the accelerometer"): \(error.message)")
        let exists = device.map { FileSystem.exists($0.sysfsPath) } ?? false
        step(.readFailed(failure, sensorStillExists: exists), now: now)
    }

    /// What the lifecycle reports, in the log.
    func say(_ report: Lifecycle.Report, now: Double) {
        switch report {
        case .started:
            let name = lifecycle.sensor?.name ?? "?"
            let mode = source?.mode.rawValue ?? "?"
            let node = scrollDevice?.deviceNode.map { " as \($0)" } ?? ""
            Log.info("Scrolling with \(name) (\(mode) capture)\(node)")
        case .stopped(let reason):
            Log.info("Scrolling off: \(reason)")
        case .failure(.failing(let failure, let retryIn)):
            Log.warning(
                "\(failure.sentence); trying again in \(RetryBackoff.format(retryIn)), then less and less often "
                    + "(at most every \(RetryBackoff.format(RetryBackoff.longestDelay)))")
        case .failure(.stillFailing(let failure, let attempts, let since, let retryIn)):
            Log.warning(
                "\(failure.sentence); still failing after \(attempts) attempts in "
                    + "\(RetryBackoff.format(now - since)); next in \(RetryBackoff.format(retryIn))")
        case .recovered(let attempts):
            Log.notice("\(lifecycle.sensor?.name ?? "The accelerometer") works again after \(attempts) failed attempts")
        case .gone(let name, let failure?):
            Log.warning("Lost \(name): \(failure.message); waiting for it to return")
        case .gone(let name, nil):
            Log.notice("\(name) went away; waiting for it to return")
        case .unusable(let name, let reason):
            Log.error("\(name): \(reason)")
        case .fatal(let failure):
            Log.error(failure.sentence)
        }
    }

    // MARK: - Persisted state

    func loadSavedNeutral(for device: AccelerometerDevice) -> Vector3? {
        calibrationStore.neutralPose(forDeviceNamed: device.name, at: device.sysfsPath)
    }

    func saveNeutral(_ neutral: Vector3, for device: AccelerometerDevice) {
        let record = CalibrationRecord(deviceName: device.name, devicePath: device.sysfsPath, neutral: neutral)
        do {
            try calibrationStore.save(record)
            Log.info("Saved the neutral pose to \(calibrationStore.path)")
        } catch {
            Log.warning("Cannot save the neutral pose: \(error)")
        }
    }

    /// The controls saved by an earlier run, or a first start's for `mode`.
    static func loadControls(from store: UserControlsStore, mode: ActivationMode) -> UserControls {
        switch store.load() {
        case .loaded(let controls): return controls
        case .missing: return .initial(for: mode)
        case .unusable(let message):
            Log.warning("\(message); starting as on a first start")
            return .initial(for: mode)
        }
    }

    /// Saves the controls now, or at the end of the interval since the last save.
    func controlsChanged(now: Double) {
        guard sink.persistsState else { return }
        if now - controlsSavedAt >= Daemon.controlsSaveInterval {
            saveControls(now: now)
        } else {
            controlsSaveDue = controlsSavedAt + Daemon.controlsSaveInterval
        }
    }

    func saveControls(now: Double) {
        controlsSaveDue = nil
        controlsSavedAt = now
        do {
            try controlsStore.save(controls)
            controlsSaveFailing = false
        } catch {
            if !controlsSaveFailing { Log.warning("Cannot save the switch and the sensitivity: \(error)") }
            controlsSaveFailing = true
        }
    }

    // MARK: - Status

    /// One line for `systemctl status`, the log and the bus's `State`.
    func statusLine() -> String {
        let name = lifecycle.sensor?.name ?? "?"
        switch lifecycle.state {
        case .active:
            let mode = source?.mode.rawValue ?? "?"
            if sink.destination == .monitorView {
                return "Watching \(name) (\(mode) capture); the monitor emits nothing"
            }
            return "Scrolling with \(name) (\(mode) capture)" + (shownIntent.map { "; \($0.name): \($0.reason)" } ?? "")
        case .off:
            return "Scrolling off: \(lifecycle.activation.offReason ?? "not wanted")"
        case .failed:
            return lifecycle.failure?.sentence ?? "Cannot start"
        case .lookingForSensor, .waitingForSensor, .opening, .retrying:
            if let failure = lifecycle.failure { return "\(failure.sentence); trying again" }
            return "Waiting for an accelerometer"
        }
    }

    /// Tells systemd (and the log, in debug, unless `quietly`: a caller that
    /// logged the change itself) when the state a user would see changes.
    /// Comparing the parts allocates nothing; only a change builds the line.
    func updateStatus(quietly: Bool = false) {
        let key = StatusKey(lifecycle: lifecycle.revision, mode: source?.mode, intent: shownIntent)
        guard key != lastStatusKey else { return }
        lastStatusKey = key
        let line = statusLine()
        guard line != lastStatus else { return }
        lastStatus = line
        notifier.status(line)
        if !quietly { Log.debug("Status: \(line)") }
    }

    /// What the status line is made of.
    struct StatusKey: Equatable {
        var lifecycle: Int
        var mode: CaptureMode?
        var intent: IntentState?
    }

    func monitorSnapshot() -> MonitorSnapshot {
        let deviceLine: String
        if let device = lifecycle.sensor {
            deviceLine = "\(device.name) (\(source?.mode.rawValue ?? "not captured"))"
        } else {
            deviceLine = "no accelerometer"
        }
        let state = "\(statusLine())    [Activation] When=\(configuration.activation.when.rawValue)"
        return MonitorSnapshot(
            readout: engine.readout, raw: lastRaw, corrected: lastCorrected, matrix: mountMatrix,
            deviceLine: deviceLine, state: state)
    }
}
