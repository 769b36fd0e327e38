import Glibc
import ScrollPhysics
import TiltScrollCommon

/// Buffered capture: the device pushes whole scans into its kernel buffer
/// at its own rate, and the loop `read()`s them from `/dev/iio:deviceN`
/// when poll(2) says there are some, many per call.
///
/// It follows the engine's demand with the device's sampling frequency (for
/// a HID sensor hub, its report interval), and while the device rests with
/// its change sensitivity too (`ChangeSensitivity`): a higher demand at
/// once, a lower one once it has lasted (`DemandFollower`). Both are
/// journalled like every other change. The buffer's `watermark` is left
/// alone: it cannot change while the buffer runs (EBUSY), and batching
/// scans would delay the first one of a tilt (Benchmarks/README.md).
final class BufferCapture: SampleSource {
    let mode = CaptureMode.buffer
    var pollDescriptor: FileDescriptor? { isReleased ? nil : node }

    let layout: ScanLayout

    private let deviceName: DeviceText
    private let devicePath: DeviceText
    private let node: FileDescriptor
    private let journal: SettingsJournal
    let calibration: AccelCalibration
    private let x: ScanLayout.Element
    private let y: ScanLayout.Element
    private let z: ScanLayout.Element
    private let timestamp: ScanLayout.Element?
    private let timestampClock: KernelClock?
    /// Seconds between scans at the device's rate, to space scans without a usable stamp.
    private var period: Double
    private(set) var currentRate: Double
    /// The rate the capture was opened with, the most `follow` asks of the device.
    let fullRate: Double
    private(set) var settingWrites = 0
    /// The sampling frequency, while the capture may change it.
    private var frequency: FollowedFrequency?
    private var sensitivity: ChangeSensitivity?
    private var isSensitivityRaised = false
    private var follower: DemandFollower
    /// Room for `scansPerRead` scans; a partial scan left by a short read waits at its start.
    private let bytes: UnsafeMutableRawBufferPointer
    private var pending = 0
    private var isReleased = false

    /// Scans read per `read()` call at most.
    static let scansPerRead = 32
    /// Scans the kernel buffer holds (`buffer/length`): over a second at 50 Hz.
    static let bufferLength = 64
    /// `read()` calls per `read(now:into:)` at most, so a device that produces
    /// faster than it is read cannot keep the loop from everything else.
    static let readsPerCall = 4

    private init(
        device: AccelerometerDevice, node: FileDescriptor, journal: SettingsJournal, calibration: AccelCalibration,
        layout: ScanLayout, axes: (ScanLayout.Element, ScanLayout.Element, ScanLayout.Element),
        timestamp: ScanLayout.Element?, timestampClock: KernelClock?, rate: Double, frequency: FollowedFrequency?,
        sensitivity: ChangeSensitivity?
    ) {
        deviceName = device.name
        devicePath = device.sysfsPath
        self.node = node
        self.journal = journal
        self.calibration = calibration
        self.layout = layout
        (x, y, z) = axes
        self.timestamp = timestamp
        self.timestampClock = timestampClock
        period = 1 / rate
        currentRate = rate
        fullRate = rate
        self.frequency = frequency
        self.sensitivity = sensitivity
        follower = DemandFollower(applied: SampleDemand(rate: rate, state: .holding))
        bytes = UnsafeMutableRawBufferPointer.allocate(
            byteCount: layout.scanBytes * BufferCapture.scansPerRead, alignment: 8)
    }

    deinit {
        release()
        bytes.deallocate()
    }

    /// Sets the device up for buffered capture and starts it: opens the
    /// device node, enables the x/y/z channels and the timestamp (and only
    /// those), sets the device's own trigger if none is set, raises the
    /// sampling frequency to at least `rate`, puts timestamps on the
    /// daemon's clock, sets the buffer length and enables the buffer.
    /// Every change is undone if a later step fails.
    ///
    /// Fails with `.busy` when another process holds the buffer (it is
    /// already enabled, or the node is open elsewhere): poll instead.
    /// The changes are recorded in `journalFile` too, when given.
    static func open(_ device: AccelerometerDevice, rate: Double, journalFile: SettingsJournalFile? = nil)
        throws(CaptureError) -> BufferCapture
    {
        let journal = SettingsJournal(file: journalFile)
        do {
            return try open(device, rate: rate, journal: journal)
        } catch {
            journal.restoreAll()
            throw error
        }
    }

    /// `open`, recording the changes in `journal`, which may hold those of
    /// an earlier attempt (a sampling frequency raised already is not
    /// written again). A failure undoes this attempt's changes but the
    /// sampling frequency, which stays in `journal` for the caller.
    static func open(_ device: AccelerometerDevice, rate: Double, journal: SettingsJournal)
        throws(CaptureError) -> BufferCapture
    {
        guard device.captureModes.contains(.buffer), let nodePath = device.deviceNode else {
            throw CaptureError(
                kind: .unsupported,
                message:
                    "\(device.name) (\(device.sysfsPath)) cannot be captured buffered: it needs "
                    + "scan_elements/in_accel_{x,y,z}_en, a device node and a usable trigger")
        }
        guard try device.directory.read("buffer/enable") == "0" else {
            throw CaptureError(
                kind: .busy,
                message:
                    "the buffer of \(device.name) (\(device.sysfsPath)) is already enabled by another process "
                    + "(iio-sensor-proxy leaves it enabled)")
        }

        let node: FileDescriptor
        do {
            node = try FileDescriptor.open(nodePath.unescaped, [.readOnly, .nonBlocking])
        } catch {
            var failure = CaptureError.system(error, doing: "open \(nodePath)")
            if failure.kind == .busy { failure.message += " (another process is reading it)" }
            throw failure
        }

        do {
            return try start(device, node: node, journal: journal, rate: rate)
        } catch {
            journal.restoreAll(keeping: SamplingFrequency.isFrequencyAttribute)
            node.close()
            throw error
        }
    }

    /// The channels a capture enables; every other one is disabled meanwhile.
    static let wantedChannels: Set<String> = ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"]

    /// The setup steps after the node is open, in the order the kernel
    /// needs them (everything before `buffer/enable`, which must come last).
    private static func start(
        _ device: AccelerometerDevice, node: FileDescriptor, journal: SettingsJournal, rate: Double
    ) throws(CaptureError) -> BufferCapture {
        let directory = device.directory
        let channels = try enableWantedChannels(directory, journal: journal)
        let trigger = try setTrigger(device, journal: journal)
        var deviceRate: Double? = nil
        if let frequency = SamplingFrequency.find(in: directory) {
            deviceRate = try frequency.raise(to: rate, on: directory, journal: journal)
        }
        let layout = try readLayout(directory, channels: channels)
        guard let x = layout.element(named: "in_accel_x"), let y = layout.element(named: "in_accel_y"),
            let z = layout.element(named: "in_accel_z")
        else {
            throw CaptureError(
                kind: .unsupported,
                message: "\(device.name) (\(device.sysfsPath)) did not enable its x, y and z channels together")
        }
        let timestamp = layout.element(named: "in_timestamp")
        let clock = timestamp == nil ? nil : TimestampClockSetting.prepare(directory, journal: journal)
        try setLength(directory, journal: journal)
        let calibration = try AccelCalibration.read(from: directory)
        try enableBuffer(device, journal: journal)

        let effectiveRate = deviceRate.flatMap { $0 > 0 ? $0 : nil } ?? rate
        Log.info(
            "capturing from \(device.name) (\(device.sysfsPath)) buffered: \(layout.scanBytes) bytes per scan, "
                + "trigger \(trigger), \(effectiveRate) Hz")
        return BufferCapture(
            device: device, node: node, journal: journal, calibration: calibration, layout: layout,
            axes: (x, y, z), timestamp: timestamp, timestampClock: clock, rate: effectiveRate,
            frequency: SamplingFrequency.find(in: directory)?.follower(on: directory),
            sensitivity: ChangeSensitivity.find(in: directory, scale: calibration.x.scale))
    }

    /// Enables x, y, z and the timestamp and disables every other channel;
    /// returns the names of all channels.
    private static func enableWantedChannels(_ directory: DeviceDirectory, journal: SettingsJournal)
        throws(CaptureError) -> [String]
    {
        let scanElements = directory.attributePath("scan_elements")
        let channels: [String]
        do {
            channels = try FileSystem.directoryEntries(scanElements).filter { $0.hasSuffix("_en") }
                .map { String($0.dropLast(3)) }
        } catch {
            throw .system(error, doing: "list \(scanElements)")
        }
        for channel in channels {
            try setChannel(channel, enabled: wantedChannels.contains(channel), on: directory, journal: journal)
        }
        return channels
    }

    /// Sets the device's own trigger when none is set (decided again now:
    /// someone may have set one since discovery).
    private static func setTrigger(_ device: AccelerometerDevice, journal: SettingsJournal) throws(CaptureError)
        -> BufferTrigger
    {
        let directory = device.directory
        let trigger = BufferTrigger.find(for: directory, deviceName: device.name, sysName: device.sysName)
        guard trigger.isUsable else {
            throw CaptureError(
                kind: .unsupported,
                message: "\(device.name) (\(device.sysfsPath)) has no trigger set and no trigger of its own")
        }
        if let name = trigger.nameToSet {
            let path = directory.attributePath("trigger/current_trigger")
            do {
                try journal.change(path, to: name.unescaped, from: "")
            } catch {
                throw .system(error, doing: "write \(name) to \(path)")
            }
        }
        return trigger
    }

    /// Makes the kernel buffer hold at least `bufferLength` scans.
    private static func setLength(_ directory: DeviceDirectory, journal: SettingsJournal) throws(CaptureError) {
        let text = try directory.read("buffer/length")
        if let length = Int(text.unescaped), length >= bufferLength { return }
        let path = directory.attributePath("buffer/length")
        do {
            try journal.change(path, to: String(bufferLength), from: text.unescaped)
        } catch {
            throw .system(error, doing: "write \(bufferLength) to \(path)")
        }
    }

    private static func enableBuffer(_ device: AccelerometerDevice, journal: SettingsJournal) throws(CaptureError) {
        let enable = device.directory.attributePath("buffer/enable")
        do {
            try journal.change(enable, to: "1", from: "0")
        } catch {
            let failure = CaptureError.system(error, doing: "enable the buffer of \(device.name) (\(enable))")
            guard error.code == .invalidArgument else { throw failure }
            throw CaptureError(
                kind: .unsupported, message: "\(failure.message): the driver refused this channel set or trigger")
        }
    }

    private static func setChannel(
        _ channel: String, enabled: Bool, on directory: DeviceDirectory, journal: SettingsJournal
    ) throws(CaptureError) {
        let name = "scan_elements/\(channel)_en"
        let current = try directory.read(name)
        guard (current == "1") != enabled else { return }
        let value = enabled ? "1" : "0"
        do {
            try journal.change(directory.attributePath(name), to: value, from: current.unescaped)
        } catch {
            var failure = CaptureError.system(error, doing: "write \(value) to \(directory.attributePath(name))")
            if error.code == .invalidArgument {
                failure.kind = .unsupported
                failure.message += " (the driver does not allow this channel combination)"
            }
            throw failure
        }
    }

    /// The layout of the channels that are enabled now, as read back from
    /// `scan_elements` (the kernel may have refused a change).
    private static func readLayout(_ directory: DeviceDirectory, channels: [String]) throws(CaptureError)
        -> ScanLayout
    {
        var enabled: [ScanChannel] = []
        for channel in channels {
            let prefix = "scan_elements/\(channel)"
            guard (try? directory.read(prefix + "_en")) == "1" else { continue }
            let indexText = try directory.read(prefix + "_index")
            guard let index = Int(indexText.unescaped), index >= 0 else {
                throw CaptureError(
                    kind: .invalidValue,
                    message: "\(directory.attributePath(prefix + "_index")) holds '\(indexText)', not an index")
            }
            let typeText = try directory.read(prefix + "_type")
            do {
                enabled.append(
                    ScanChannel(name: channel, index: index, type: try ScanElementType.parse(typeText.unescaped)))
            } catch {
                throw CaptureError(
                    kind: .unsupported, message: "\(directory.attributePath(prefix + "_type")): \(error)")
            }
        }
        do {
            return try ScanLayout.compute(enabled)
        } catch {
            throw CaptureError(kind: .unsupported, message: "\(directory.path): \(error)")
        }
    }

    func nextReadTime(now: Double) -> Double? { nil }

    func read(now: Double, into sink: (AccelSample) -> Void) throws(CaptureError) -> CaptureStatus {
        guard !isReleased else {
            throw CaptureError(kind: .deviceGone, message: "capture of \(deviceName) was released")
        }
        let scanBytes = layout.scanBytes
        // One clock pair per call: the offset moves only when the clocks are
        // stepped, and every scan of a batch shares it.
        let daemonNow = KernelClock.daemon.nanoseconds()
        var offset: Int64 = 0
        if let timestampClock, timestampClock != .daemon {
            offset = daemonNow &- timestampClock.nanoseconds()
        }
        for _ in 0..<BufferCapture.readsPerCall {
            let space = UnsafeMutableRawBufferPointer(rebasing: bytes[pending...])
            let count: Int
            do {
                count = try node.readStream(into: space)
            } catch  where error.code == .tryAgain {
                return .ok
            } catch {
                throw .system(error, doing: "read scans of \(deviceName) from \(devicePath)")
            }
            guard count > 0 else {
                throw CaptureError(
                    kind: .deviceGone,
                    message: "the buffer of \(deviceName) (\(devicePath)) ended: it was disabled or removed")
            }
            let available = pending + count
            let scans = available / scanBytes
            let scanData = UnsafeRawBufferPointer(bytes)
            for scan in 0..<scans {
                let start = scan * scanBytes
                let data = UnsafeRawBufferPointer(rebasing: scanData[start..<(start + scanBytes)])
                let rawX = x.channel.type.value(in: data, at: x.offset)
                let rawY = y.channel.type.value(in: data, at: y.offset)
                let rawZ = z.channel.type.value(in: data, at: z.offset)
                let readTime = now - Double(scans - 1 - scan) * period
                var time = readTime
                if let timestamp, timestampClock != nil {
                    time = ScanTimestamps.daemonClockSeconds(
                        timestamp: timestamp.channel.type.value(in: data, at: timestamp.offset), offset: offset,
                        now: daemonNow, fallback: readTime)
                }
                sink(AccelSample(acceleration: calibration.acceleration(x: rawX, y: rawY, z: rawZ), time: time))
            }
            // The kernel returns whole scans; a stream that splits one keeps
            // the start of it for the next read.
            pending = available - scans * scanBytes
            if pending > 0, scans > 0 {
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + scans * scanBytes, byteCount: pending)
            }
            if available < bytes.count { return .ok }
        }
        return .ok
    }

    func follow(_ demand: SampleDemand, now: Double) {
        guard !isReleased, frequency != nil || sensitivity != nil else { return }
        let capped = SampleDemand(rate: min(demand.rate, fullRate), state: demand.state)
        guard let next = follower.update(capped, at: now) else { return }
        let resting = next.state == .resting
        // Reports flow again before the rate rises, and stop only once it fell.
        if !resting { setSensitivity(raised: false) }
        if var followed = frequency {
            do {
                if try followed.run(at: next.rate, journal: journal) { settingWrites += 1 }
                frequency = followed
                currentRate = followed.value > 0 ? followed.value : next.rate
                period = 1 / currentRate
            } catch {
                Log.notice(
                    "\(deviceName): cannot follow the sample demand (\(error)); sampling stays at \(followed.text) Hz")
                frequency = nil
            }
        }
        if resting { setSensitivity(raised: true) }
        Log.debug(
            "\(deviceName): sampling at \(FrequencyValue.plainText(currentRate)) Hz (\(next.state.name))"
                + (isSensitivityRaised ? ", change sensitivity \(sensitivity?.resting ?? "")" : "")
                + "; \(settingWrites) setting writes so far")
    }

    private func setSensitivity(raised: Bool) {
        guard let sensitivity, raised != isSensitivityRaised else { return }
        do {
            try sensitivity.apply(resting: raised, journal: journal)
            settingWrites += 1
            isSensitivityRaised = raised
        } catch {
            Log.notice("\(deviceName): cannot change \(sensitivity.path) (\(error)); it is left as it is")
            self.sensitivity = nil
        }
    }

    func release() { release(keeping: { _ in false }) }

    func releaseForRetry() -> SettingsJournal {
        release(keeping: SamplingFrequency.isFrequencyAttribute)
        return journal
    }

    /// Restores every setting but those `kept` and closes the node; once.
    private func release(keeping kept: (String) -> Bool) {
        guard !isReleased else { return }
        isReleased = true
        // Disabling the buffer (the newest change) comes first in the journal.
        journal.restoreAll(keeping: kept)
        node.close()
    }
}
