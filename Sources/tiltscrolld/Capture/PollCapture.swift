import Glibc
import ScrollPhysics
import TiltScrollCommon

/// Polled capture: the three `in_accel_{x,y,z}_raw` attributes stay open and
/// are re-read with one `pread` each per sample, the least the sysfs
/// interface allows, on a timer at the rate the engine demands.
///
/// Following the demand moves the read deadline only: the sampling
/// frequency stays where `open` put it. Lowering it would make each read of
/// the drivers that wait for a fresh conversion (st_sensors, lis3dh: two
/// sample periods per raw read) hold the loop longer, and slow every other
/// reader of the device; a deadline costs nothing to move, so it follows at
/// once, both ways.
///
/// A HID sensor hub is the exception: its raw reads are answered at once
/// whatever its report interval (measured in the testbed: no slower at 4 Hz
/// than at 50), while between the polls the kernel keeps it powered and it
/// streams reports at that interval, each handled by the kernel and thrown
/// away. So the interval follows the demand as a buffered capture's does
/// (`DemandFollower`, journalled), but never below what it held when the
/// capture began while another program runs the buffer (iio-sensor-proxy
/// reads its orientation from it).
final class PollCapture: SampleSource {
    let mode = CaptureMode.poll
    var pollDescriptor: FileDescriptor? { nil }

    /// Seconds between reads now (1 / `currentRate`).
    private(set) var period: Double
    private(set) var currentRate: Double
    /// The rate the capture was opened with: the configured one, or the
    /// device's own when that is lower (reading faster than it samples only
    /// returns the same value again).
    let fullRate: Double
    private(set) var settingWrites = 0
    /// A HID sensor hub's report interval (its sampling frequency), followed
    /// along with the deadline; nil for every other device.
    private var reportInterval: FollowedFrequency?
    /// What it held when the capture began, the least it is set to while
    /// another program runs the buffer.
    private var reportIntervalFloor = 0.0
    private var follower: DemandFollower

    private let deviceName: DeviceText
    private let devicePath: DeviceText
    let calibration: AccelCalibration
    private let journal: SettingsJournal
    private let x: FileDescriptor
    private let y: FileDescriptor
    private let z: FileDescriptor
    /// One attribute's text; raw values are a few digits, a page is the most sysfs returns.
    private let text: UnsafeMutableRawBufferPointer
    private var due: Double
    /// When the last sample was read.
    private var lastSampleTime: Double?
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
        currentRate = 1 / period
        fullRate = currentRate
        follower = DemandFollower(applied: SampleDemand(rate: currentRate, state: .holding))
        due = now
        text = UnsafeMutableRawBufferPointer.allocate(byteCount: SysfsAttribute.maximumSize, alignment: 8)
    }

    deinit {
        release()
        text.deallocate()
    }

    /// Opens the raw attributes, raises the sampling frequency to at least
    /// `rate` when the device has one that is lower, and starts reading at
    /// `now`. The changes are recorded in `journalFile` too, when given; a
    /// failure restores them all.
    static func open(
        _ device: AccelerometerDevice, rate: Double, now: Double, journalFile: SettingsJournalFile? = nil
    ) throws(CaptureError) -> PollCapture {
        let journal = SettingsJournal(file: journalFile)
        do {
            return try open(device, rate: rate, now: now, journal: journal)
        } catch {
            journal.restoreAll()
            throw error
        }
    }

    /// `open`, recording the changes in `journal`, which may hold those of
    /// an earlier attempt (a sampling frequency raised already is not
    /// written again). A failure restores this attempt's changes but the
    /// sampling frequency, which stays in `journal` for the caller.
    static func open(
        _ device: AccelerometerDevice, rate: Double, now: Double, journal: SettingsJournal
    ) throws(CaptureError) -> PollCapture {
        guard device.captureModes.contains(.poll) else {
            throw CaptureError(
                kind: .unsupported,
                message: "\(device.name) (\(device.sysfsPath)) has no in_accel_{x,y,z}_raw attributes to poll")
        }
        let directory = device.directory
        let calibration = try AccelCalibration.read(from: directory)

        var opened: [FileDescriptor] = []
        for axis in ["x", "y", "z"] {
            let path = directory.attributePath("in_accel_\(axis)_raw")
            do {
                opened.append(try FileDescriptor.open(path, .readOnly))
            } catch {
                for descriptor in opened { descriptor.close() }
                throw .system(error, doing: "open \(path)")
            }
        }

        var deviceRate: Double? = nil
        let frequency = SamplingFrequency.find(in: directory)
        if let frequency {
            do {
                deviceRate = try frequency.raise(to: rate, on: directory, journal: journal)
            } catch {
                journal.restoreAll(keeping: SamplingFrequency.isFrequencyAttribute)
                for descriptor in opened { descriptor.close() }
                throw error
            }
        }
        // Reading faster than the device samples only returns the same value again.
        var pollRate = rate
        if let deviceRate, deviceRate > 0 { pollRate = min(rate, deviceRate) }
        let capture = PollCapture(
            device: device, calibration: calibration, journal: journal, axes: (opened[0], opened[1], opened[2]),
            period: 1 / pollRate, now: now)
        if let frequency {
            capture.keepReadsShort(frequency, on: directory)
            if device.isHIDSensorHub, let followed = frequency.follower(on: directory) {
                capture.reportInterval = followed
                let original = journal.original(of: followed.path).flatMap { DecimalNumber.parse($0) }
                capture.reportIntervalFloor = original ?? followed.value
            }
        }
        Log.info("capturing from \(device.name) (\(device.sysfsPath)) by polling at \(pollRate) Hz")
        return capture
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
            guard (try? readRaw()) != nil else { return }
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

    func read(now: Double, into sink: (AccelSample) -> Void) throws(CaptureError) -> CaptureStatus {
        guard !isReleased else {
            throw CaptureError(kind: .deviceGone, message: "capture of \(deviceName) was released")
        }
        if let until = backoff.retryTime(at: now) { return .retryLater(until: until) }

        let raw: (x: Int64, y: Int64, z: Int64)
        do {
            raw = try readRaw()
        } catch {
            switch error {
            case .failed(let failure): throw failure
            case .refused(let code):
                let (until, isNew) = backoff.refused(at: now)
                if isNew {
                    Log.warning(
                        "\(deviceName) refuses raw reads (\(code)), probably because another "
                            + "process runs its buffer; retrying every \(Int(RawReadBackoff.interval)) s")
                }
                return .retryLater(until: until)
            }
        }
        if backoff.succeeded() {
            Log.notice("raw reads of \(deviceName) work again")
        }
        // The moment the last axis was read is when the sample is known; a
        // slow driver (lis3dh waits for its next conversion) makes `now` stale.
        let time = DaemonClock.now()
        sink(AccelSample(acceleration: calibration.acceleration(x: raw.x, y: raw.y, z: raw.z), time: time))
        lastSampleTime = time

        due += period
        if due < time { due = time + period }
        return .ok
    }

    func follow(_ demand: SampleDemand, now: Double) {
        let rate = min(demand.rate, fullRate)
        guard rate.isFinite, rate > 0 else { return }
        if rate != currentRate {
            let faster = rate > currentRate
            currentRate = rate
            period = 1 / rate
            // Faster from the next read on: one new period after the last sample.
            if faster, let last = lastSampleTime { due = min(due, last + period) }
            Log.debug("\(deviceName): polling at \(FrequencyValue.plainText(rate)) Hz (\(demand.state.name))")
        }
        if followsReportInterval { followWithReportInterval(SampleDemand(rate: rate, state: demand.state), now: now) }
    }

    /// Whether there is a report interval to follow, asked every round: a
    /// tag check, where `reportInterval != nil` copied the whole value (two
    /// strings) through `Equatable` each time.
    private var followsReportInterval: Bool {
        if case .none = reportInterval { return false }
        return true
    }

    private func followWithReportInterval(_ demand: SampleDemand, now: Double) {
        guard var followed = reportInterval, let next = follower.update(demand, at: now) else { return }
        var rate = next.rate
        if rate < reportIntervalFloor,
            (try? DeviceDirectory(path: devicePath.unescaped).read("buffer/enable"))?.unescaped == "1"
        {
            rate = reportIntervalFloor
        }
        do {
            guard try followed.run(at: rate, journal: journal) else { return }
            reportInterval = followed
            settingWrites += 1
            Log.debug(
                "\(deviceName): reports at \(followed.text) Hz between polls; \(settingWrites) setting writes so far")
        } catch {
            Log.notice("\(deviceName): cannot follow the sample demand (\(error)); reports stay at \(followed.text) Hz")
            reportInterval = nil
        }
    }

    func release() { release(keeping: { _ in false }) }

    func releaseForRetry() -> SettingsJournal {
        release(keeping: SamplingFrequency.isFrequencyAttribute)
        return journal
    }

    /// Closes the attributes and restores every setting but those `kept`; once.
    private func release(keeping kept: (String) -> Bool) {
        guard !isReleased else { return }
        isReleased = true
        x.close()
        y.close()
        z.close()
        journal.restoreAll(keeping: kept)
    }

    /// Why a raw read gave no value.
    private enum RawReadFailure: Error {
        /// The driver refuses for now: back off.
        case refused(Errno)
        /// The capture cannot continue.
        case failed(CaptureError)
    }

    /// One pread per axis; nothing is returned unless all three worked.
    private func readRaw() throws(RawReadFailure) -> (x: Int64, y: Int64, z: Int64) {
        (x: try readAxis(x, "x"), y: try readAxis(y, "y"), z: try readAxis(z, "z"))
    }

    private func readAxis(_ descriptor: FileDescriptor, _ axis: StaticString) throws(RawReadFailure) -> Int64 {
        let count: Int
        do {
            count = try descriptor.read(into: text)
        } catch {
            if RawReadBackoff.isRefusal(error.code) { throw .refused(error.code) }
            throw .failed(.system(error, doing: "read \(devicePath)/in_accel_\(axis)_raw"))
        }
        let bytes = UnsafeRawBufferPointer(rebasing: text[..<count])
        guard count < text.count, let raw = DecimalNumber.parseInteger(ascii: bytes) else {
            let value = DeviceText(bytes: bytes).trimmed
            throw .failed(
                CaptureError(
                    kind: .invalidValue,
                    message: "\(devicePath)/in_accel_\(axis)_raw holds '\(value)', which is not an integer"))
        }
        return raw
    }
}
