import Glibc
import ScrollPhysics

/// Polled capture: the three `in_accel_{x,y,z}_raw` attributes stay open and
/// are re-read with one `pread` each per sample, the least the sysfs
/// interface allows, on a timer at the capture rate.
final class PollCapture: SampleSource {
    let mode = CaptureMode.poll
    var pollDescriptor: FileDescriptor? { nil }

    /// Seconds between reads.
    let period: Double

    private let deviceName: String
    private let devicePath: String
    private let calibration: AccelCalibration
    private let journal: SettingsJournal
    private let x: FileDescriptor
    private let y: FileDescriptor
    private let z: FileDescriptor
    /// One attribute's text; raw values are a few digits, a page is the most sysfs returns.
    private let text: UnsafeMutableRawBufferPointer
    private var due: Double
    private var backoff = RawReadBackoff()
    private var isReleased = false

    private init(
        device: AccelerometerDevice, calibration: AccelCalibration, journal: SettingsJournal,
        axes: (FileDescriptor, FileDescriptor, FileDescriptor), period: Double, now: Double
    ) {
        deviceName = device.name
        devicePath = device.sysfsPath
        self.calibration = calibration
        self.journal = journal
        (x, y, z) = axes
        self.period = period
        due = now
        text = UnsafeMutableRawBufferPointer.allocate(byteCount: SysfsAttribute.maximumSize, alignment: 8)
    }

    deinit {
        release()
        text.deallocate()
    }

    /// Opens the raw attributes, raises the sampling frequency to at least
    /// `rate` when the device has one that is lower, and starts reading at
    /// `now`. The changes are recorded in `journalFile` too, when given.
    static func open(
        _ device: AccelerometerDevice, rate: Double, now: Double, journalFile: SettingsJournalFile? = nil
    ) -> Result<PollCapture, CaptureError> {
        guard device.captureModes.contains(.poll) else {
            return .failure(
                CaptureError(
                    kind: .unsupported,
                    message: "\(device.name) (\(device.sysfsPath)) has no in_accel_{x,y,z}_raw attributes to poll"))
        }
        let directory = device.directory
        let calibration: AccelCalibration
        switch AccelCalibration.read(from: directory) {
        case .success(let read): calibration = read
        case .failure(let error): return .failure(error)
        }

        var opened: [FileDescriptor] = []
        for axis in ["x", "y", "z"] {
            let path = directory.attributePath("in_accel_\(axis)_raw")
            switch FileDescriptor.open(path, .readOnly) {
            case .success(let descriptor): opened.append(descriptor)
            case .failure(let error):
                for descriptor in opened { descriptor.close() }
                return .failure(.system(error, doing: "open \(path)"))
            }
        }

        let journal = SettingsJournal(file: journalFile)
        var deviceRate: Double? = nil
        let frequency = SamplingFrequency.find(in: directory)
        if let frequency {
            switch frequency.raise(to: rate, on: directory, journal: journal) {
            case .success(let actual): deviceRate = actual
            case .failure(let error):
                journal.restoreAll()
                for descriptor in opened { descriptor.close() }
                return .failure(error)
            }
        }
        // Reading faster than the device samples only returns the same value again.
        var pollRate = rate
        if let deviceRate, deviceRate > 0 { pollRate = min(rate, deviceRate) }
        let capture = PollCapture(
            device: device, calibration: calibration, journal: journal, axes: (opened[0], opened[1], opened[2]),
            period: 1 / pollRate, now: now)
        if let frequency { capture.keepReadsShort(frequency, on: directory) }
        Log.info("capturing from \(device.name) (\(device.sysfsPath)) by polling at \(pollRate) Hz")
        return .success(capture)
    }

    /// Some drivers make every raw read wait for a fresh conversion:
    /// st_sensors (lis3dh) sleeps two sample periods per read, 40 ms at
    /// 50 Hz, so a sample of three axes would block the loop for 120 ms.
    /// Times one sample and, while it takes more than a quarter of the
    /// period, steps the sampling frequency up through the available values
    /// (restored on release like the first change).
    private func keepReadsShort(_ frequency: SamplingFrequency, on directory: DeviceDirectory) {
        let budget = period / 4
        for _ in 0..<SamplingFrequency.maximumSteps {
            let start = DaemonClock.now()
            guard case .sample = readRaw() else { return }
            let took = DaemonClock.now() - start
            if took <= budget { return }
            guard let higher = frequency.stepUp(on: directory, journal: journal) else {
                let milliseconds = Int((took * 1000).rounded())
                Log.notice(
                    "reading one sample of \(deviceName) takes \(milliseconds) ms and no faster rate is available")
                return
            }
            Log.info(
                "one sample of \(deviceName) took \(Int((took * 1000).rounded())) ms; now sampling at \(higher) Hz")
        }
    }

    func nextReadTime(now: Double) -> Double? {
        guard !isReleased else { return nil }
        return max(backoff.retryTime(at: now) ?? due, now)
    }

    func read(now: Double, into sink: (AccelSample) -> Void) -> CaptureStatus {
        guard !isReleased else {
            return .failed(CaptureError(kind: .deviceGone, message: "capture of \(deviceName) was released"))
        }
        if let until = backoff.retryTime(at: now) { return .retryLater(until: until) }

        let rawX: Int64
        let rawY: Int64
        let rawZ: Int64
        switch readRaw() {
        case .sample(let x, let y, let z): (rawX, rawY, rawZ) = (x, y, z)
        case .refused(let code):
            let (until, isNew) = backoff.refused(at: now)
            if isNew {
                Log.warning(
                    "\(deviceName) refuses raw reads (\(SystemError.message(for: code))), probably because another "
                        + "process runs its buffer; retrying every \(Int(RawReadBackoff.interval)) s")
            }
            return .retryLater(until: until)
        case .failed(let error): return .failed(error)
        }
        if backoff.succeeded() {
            Log.notice("raw reads of \(deviceName) work again")
        }
        // The moment the last axis was read is when the sample is known; a
        // slow driver (lis3dh waits for its next conversion) makes `now` stale.
        let time = DaemonClock.now()
        sink(AccelSample(acceleration: calibration.acceleration(x: rawX, y: rawY, z: rawZ), time: time))

        due += period
        if due < time { due = time + period }
        return .ok
    }

    func release() {
        guard !isReleased else { return }
        isReleased = true
        x.close()
        y.close()
        z.close()
        journal.restoreAll()
    }

    private enum RawRead {
        case sample(Int64, Int64, Int64)
        /// The driver refuses for now (errno).
        case refused(Int32)
        case failed(CaptureError)
    }

    /// One pread per axis; nothing is returned unless all three worked.
    private func readRaw() -> RawRead {
        let rawX: Int64
        let rawY: Int64
        switch readAxis(x, "x") {
        case .value(let value): rawX = value
        case .refused(let code): return .refused(code)
        case .failed(let error): return .failed(error)
        }
        switch readAxis(y, "y") {
        case .value(let value): rawY = value
        case .refused(let code): return .refused(code)
        case .failed(let error): return .failed(error)
        }
        switch readAxis(z, "z") {
        case .value(let value): return .sample(rawX, rawY, value)
        case .refused(let code): return .refused(code)
        case .failed(let error): return .failed(error)
        }
    }

    private enum AxisRead {
        case value(Int64)
        case refused(Int32)
        case failed(CaptureError)
    }

    private func readAxis(_ descriptor: FileDescriptor, _ axis: StaticString) -> AxisRead {
        switch descriptor.read(into: text) {
        case .failure(let error):
            if RawReadBackoff.isRefusal(error.code) { return .refused(error.code) }
            return .failed(.system(error, doing: "read \(devicePath)/in_accel_\(axis)_raw"))
        case .success(let count):
            let bytes = UnsafeRawBufferPointer(rebasing: text[..<count])
            guard count < text.count, let raw = DecimalNumber.parseInteger(ascii: bytes) else {
                let value = String(decoding: bytes, as: UTF8.self)
                return .failed(
                    CaptureError(
                        kind: .invalidValue,
                        message:
                            "\(devicePath)/in_accel_\(axis)_raw holds '\(SysfsAttribute.trimmed(value))', "
                            + "which is not an integer"))
            }
            return .value(raw)
        }
    }
}
