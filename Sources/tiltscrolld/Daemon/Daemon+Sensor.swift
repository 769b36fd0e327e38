import Glibc
import ScrollPhysics

/// Choosing, opening and letting go of the accelerometer and the uinput device.
extension Daemon {
    /// Discovery plus `[Device] Name=`: the sensor to use, or why there is none.
    func chooseDevice() throws(CaptureError) -> AccelerometerDevice {
        try DeviceDiscovery.choose(
            from: DeviceDiscovery.enumerate(matrixOverride: configuration.device.mountMatrix),
            name: configuration.device.name)
    }

    func adopt(_ chosen: AccelerometerDevice) {
        device = chosen
        mountMatrix = chosen.mountMatrix
    }

    /// Brings the sensor and the uinput device in line with the activation:
    /// held while scrolling is wanted, released otherwise.
    func reconcile(now: Double) {
        if activation.isWanted {
            guard source == nil else { return }
            if let retry = reacquireAt, now < retry { return }
            reacquireAt = nil
            acquire(now: now)
        } else if source != nil {
            releaseSensor()
            Log.info("Scrolling \(activation.explanation)")
        }
        updateStatus()
    }

    /// Opens the capture and the uinput device and sets the neutral pose.
    func acquire(now: Double) {
        if device == nil {
            do {
                adopt(try chooseDevice())
            } catch {
                Log.debug("No accelerometer yet: \(error.message)")
                if hotplug == nil { reacquireAt = now + Daemon.rescanWithoutHotplug }
                return
            }
        }
        guard let device else { return }
        if let problem = device.problem {
            Log.error("\(device.name): \(problem.message)")
            return
        }

        let opened: SampleSource
        do {
            opened = try Capture.open(
                device, mode: configuration.device.mode, rate: configuration.device.sampleRate,
                journalFile: settingsJournalFile)
        } catch {
            if isStarting, error.kind == .permissionDenied {
                startupFailure = "Cannot capture from \(device.name): \(error.message)"
                return
            }
            Log.warning("Cannot capture from \(device.name): \(error.message); retrying in \(Int(reacquireDelay)) s")
            scheduleReacquire(now: now)
            return
        }

        if output == .uinput, scrollDevice == nil {
            do {
                scrollDevice = try ScrollDevice.create(horizontal: configuration.scroll.horizontal)
            } catch {
                opened.release()
                if isStarting {
                    startupFailure = "Cannot create the scroll device: \(error)"
                    return
                }
                Log.error("Cannot create the scroll device: \(error); retrying in \(Int(reacquireDelay)) s")
                scheduleReacquire(now: now)
                return
            }
        }

        source = opened
        holdReadsUntil = nil
        reacquireDelay = Daemon.firstRetryDelay
        if let saved = savedNeutral {
            // Restored once, at start; every later activation captures the pose afresh.
            engine.restoreNeutral(saved)
            savedNeutral = nil
        } else {
            engine.recalibrate(at: now)
        }
        handle(.sensorAvailable(true))
        let node = scrollDevice?.deviceNode.map { " as \($0)" } ?? ""
        Log.info("Scrolling with \(device.name) (\(opened.mode.rawValue) capture)\(node)")
    }

    /// Stops scrolling: the capture restores what it changed, the uinput
    /// device disappears, motion stops without a final frame.
    func releaseSensor() {
        source?.release()
        source = nil
        holdReadsUntil = nil
        engine.halt()
        scrollDevice?.destroy()
        scrollDevice = nil
        emitFailing = false
        handle(.sensorAvailable(false))
    }

    /// The sensor failed (unbound, unplugged, unreadable): stop, and wait for it.
    func lose(_ error: CaptureError, now: Double) {
        let name = device?.name ?? "the accelerometer"
        let path = device?.sysfsPath
        releaseSensor()
        device = nil
        if let path, FileSystem.exists(path) {
            Log.warning("Lost \(name): \(error.message); retrying in \(Int(reacquireDelay)) s")
            scheduleReacquire(now: now)
        } else {
            Log.warning("Lost \(name): \(error.message); waiting for it to return")
            if hotplug == nil { reacquireAt = now + Daemon.rescanWithoutHotplug }
        }
    }

    func scheduleReacquire(now: Double) {
        reacquireAt = now + reacquireDelay
        reacquireDelay = min(reacquireDelay * 2, Daemon.longestRetryDelay)
    }

    // MARK: - Persisted calibration

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

    // MARK: - Status

    func statusLine() -> String {
        switch activation.state {
        case .active:
            let name = device?.name ?? "?"
            let mode = source?.mode.rawValue ?? "?"
            if output == .monitor { return "Watching \(name) (\(mode) capture); the monitor emits nothing" }
            return "Scrolling with \(name) (\(mode) capture)"
        case .waitingForSensor:
            if let device { return "Cannot open \(device.name) yet; retrying" }
            return "Waiting for an accelerometer"
        case .off:
            return "Scrolling \(activation.explanation)"
        }
    }

    /// Tells systemd (and the log, in debug) when the state a user would see
    /// changes. Comparing the parts allocates nothing; only a change builds
    /// the line.
    func updateStatus() {
        let key = StatusKey(state: activation.state, mode: source?.mode, deviceName: device?.name)
        guard key != lastStatusKey else { return }
        lastStatusKey = key
        let line = statusLine()
        guard line != lastStatus else { return }
        lastStatus = line
        notifier.status(line)
        Log.debug("Status: \(line)")
    }

    /// Whether the daemon is still starting: the first acquisition decides
    /// whether it can run at all.
    var isStarting: Bool { lastStatusKey == nil }

    /// What the status line is made of.
    struct StatusKey: Equatable {
        var state: Activation.State
        var mode: CaptureMode?
        var deviceName: DeviceText?
    }

    func monitorSnapshot() -> MonitorSnapshot {
        let deviceLine: String
        if let device {
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
