import TiltScrollCommon

/// Opening a capture on a device in the configured mode.
enum Capture {
    /// The capture modes to try for `setting` on a device supporting
    /// `modes`, in order.
    ///
    /// `auto` polls wherever the driver offers raw attributes and keeps
    /// buffered capture for buffer-only devices. Only one process can hold a
    /// device's buffer: if tiltscrolld took it, iio-sensor-proxy's later
    /// claim would fail with EBUSY and auto-rotation would stop (GNOME claims
    /// the sensor exactly in tablet mode, when tiltscrolld is active too).
    /// Raw reads never lock anyone out. `Mode=buffer` asks for the buffer
    /// (one read per batch instead of one per axis and sample); when it is
    /// busy or unusable, polling keeps scrolling working, with a notice.
    /// `Mode=poll` polls or fails.
    static func plan(_ setting: CaptureModeSetting, supported modes: CaptureModes) -> [CaptureMode] {
        switch setting {
        case .poll: return [.poll]
        case .buffer: return modes.contains(.poll) ? [.buffer, .poll] : [.buffer]
        case .auto: return [CaptureMode.poll, .buffer].filter { modes.contains($0) }
        }
    }

    /// Opens a capture of `device` in `mode`, sampling at `rate` per second or
    /// faster (the device's sampling frequency is raised to the nearest
    /// available value when lower, and restored on release).
    ///
    /// `auto`: polling when the device has raw attributes, else buffered;
    /// `buffer`: buffered, or polling when the buffer is busy (another
    /// process such as iio-sensor-proxy holds it) or cannot be set up.
    ///
    /// With `journalFile`, every setting changed is also recorded there until
    /// it is restored; a failure restores everything.
    static func open(
        _ device: AccelerometerDevice, mode: CaptureModeSetting, rate: Double,
        journalFile: SettingsJournalFile? = nil
    ) throws(CaptureError) -> SampleSource {
        let journal = SettingsJournal(file: journalFile)
        do {
            return try open(device, mode: mode, rate: rate, journal: journal)
        } catch {
            journal.restoreAll()
            throw error
        }
    }

    /// Every setting changed is recorded in `journal` (and its file) until it
    /// is restored (see `SettingsJournal`). `journal` may come from an
    /// earlier attempt (`SampleSource.releaseForRetry`); a failure restores
    /// this attempt's changes but the raised sampling frequency, which
    /// stays in `journal`: the caller restores it when it stops trying.
    static func open(
        _ device: AccelerometerDevice, mode: CaptureModeSetting, rate: Double, journal: SettingsJournal
    ) throws(CaptureError) -> SampleSource {
        guard rate.isFinite, rate > 0 else {
            throw CaptureError(kind: .invalidValue, message: "the sample rate must be a positive number, got \(rate)")
        }
        if let problem = device.problem { throw problem }
        let attempts = plan(mode, supported: device.captureModes)
        guard !attempts.isEmpty else {
            throw CaptureError(
                kind: .unsupported,
                message: "\(device.name) (\(device.sysfsPath)) supports neither polled nor buffered capture")
        }
        var lastFailure: CaptureError? = nil
        for (index, attempt) in attempts.enumerated() {
            do {
                switch attempt {
                case .poll:
                    return try PollCapture.open(device, rate: rate, now: DaemonClock.now(), journal: journal)
                case .buffer: return try BufferCapture.open(device, rate: rate, journal: journal)
                }
            } catch {
                lastFailure = error
                if index + 1 < attempts.count {
                    Log.notice("\(error); trying \(attempts[index + 1].rawValue) capture instead")
                }
            }
        }
        throw lastFailure!
    }
}
