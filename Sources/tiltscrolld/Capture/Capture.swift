/// Opening a capture on a device in the configured mode.
enum Capture {
    /// The capture modes to try for `setting` on a device supporting
    /// `modes`, in order. `auto` prefers buffered capture (one read per batch
    /// of scans, the device's own timing) and falls back to polling.
    static func plan(_ setting: CaptureModeSetting, supported modes: CaptureModes) -> [CaptureMode] {
        switch setting {
        case .poll: return [.poll]
        case .buffer: return [.buffer]
        case .auto: return [CaptureMode.buffer, .poll].filter { modes.contains($0) }
        }
    }

    /// Opens a capture of `device` in `mode`, sampling at `rate` per second or
    /// faster (the device's sampling frequency is raised to the nearest
    /// available value when lower, and restored on release).
    ///
    /// `auto`: buffered when the device supports it and its buffer is free;
    /// when the buffer is busy (another process such as iio-sensor-proxy
    /// holds it) or cannot be set up, polling.
    static func open(_ device: AccelerometerDevice, mode: CaptureModeSetting, rate: Double) -> Result<
        SampleSource, CaptureError
    > {
        guard rate.isFinite, rate > 0 else {
            return .failure(
                CaptureError(kind: .invalidValue, message: "the sample rate must be a positive number, got \(rate)"))
        }
        if let problem = device.problem { return .failure(problem) }
        let attempts = plan(mode, supported: device.captureModes)
        guard !attempts.isEmpty else {
            return .failure(
                CaptureError(
                    kind: .unsupported,
                    message: "\(device.name) (\(device.sysfsPath)) supports neither polled nor buffered capture"))
        }
        var failures: [CaptureError] = []
        for attempt in attempts {
            let result: Result<SampleSource, CaptureError>
            switch attempt {
            case .poll:
                result = PollCapture.open(device, rate: rate, now: MonotonicClock.now()).map { $0 as SampleSource }
            case .buffer:
                result = BufferCapture.open(device, rate: rate).map { $0 as SampleSource }
            }
            switch result {
            case .success(let source): return .success(source)
            case .failure(let error):
                failures.append(error)
                if attempt != attempts.last {
                    Log.notice("\(error); polling instead")
                }
            }
        }
        return .failure(failures.last!)
    }
}
