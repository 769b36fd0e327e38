import Glibc
import ScrollPhysics

/// Buffered capture: the device pushes whole scans into its kernel buffer
/// at its own rate, and the loop `read()`s them from `/dev/iio:deviceN`
/// when poll(2) says there are some, many per call.
final class BufferCapture: SampleSource {
    let mode = CaptureMode.buffer
    var pollDescriptor: FileDescriptor? { isReleased ? nil : node }

    let layout: ScanLayout

    private let deviceName: String
    private let devicePath: String
    private let node: FileDescriptor
    private let journal: SettingsJournal
    private let calibration: AccelCalibration
    private let x: ScanLayout.Element
    private let y: ScanLayout.Element
    private let z: ScanLayout.Element
    private let timestamp: ScanLayout.Element?
    private let timestampClock: KernelClock?
    /// Seconds between scans at the device's rate, to space scans without a usable stamp.
    private let period: Double
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
        timestamp: ScanLayout.Element?, timestampClock: KernelClock?, period: Double
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
        self.period = period
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
    static func open(_ device: AccelerometerDevice, rate: Double, journalFile: SettingsJournalFile? = nil) -> Result<
        BufferCapture, CaptureError
    > {
        guard device.captureModes.contains(.buffer), let nodePath = device.deviceNode else {
            return .failure(
                CaptureError(
                    kind: .unsupported,
                    message:
                        "\(device.name) (\(device.sysfsPath)) cannot be captured buffered: it needs "
                        + "scan_elements/in_accel_{x,y,z}_en, a device node and a usable trigger"))
        }
        let directory = device.directory
        switch directory.read("buffer/enable") {
        case .failure(let error): return .failure(error)
        case .success(let text) where text != "0":
            return .failure(
                CaptureError(
                    kind: .busy,
                    message:
                        "the buffer of \(device.name) (\(device.sysfsPath)) is already enabled by another process "
                        + "(iio-sensor-proxy leaves it enabled)"))
        case .success: break
        }

        let node: FileDescriptor
        switch FileDescriptor.open(nodePath, [.readOnly, .nonBlocking]) {
        case .success(let opened): node = opened
        case .failure(let error):
            var failure = CaptureError.system(error, doing: "open \(nodePath)")
            if failure.kind == .busy { failure.message += " (another process is reading it)" }
            return .failure(failure)
        }

        let journal = SettingsJournal(file: journalFile)
        switch start(device, node: node, journal: journal, rate: rate) {
        case .success(let capture): return .success(capture)
        case .failure(let error):
            journal.restoreAll()
            node.close()
            return .failure(error)
        }
    }

    /// The channels a capture enables; every other one is disabled meanwhile.
    static let wantedChannels: Set<String> = ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"]

    /// The setup steps after the node is open, in the order the kernel
    /// needs them (everything before `buffer/enable`, which must come last).
    private static func start(
        _ device: AccelerometerDevice, node: FileDescriptor, journal: SettingsJournal, rate: Double
    ) -> Result<BufferCapture, CaptureError> {
        let directory = device.directory
        let channels: [String]
        switch enableWantedChannels(directory, journal: journal) {
        case .success(let listed): channels = listed
        case .failure(let error): return .failure(error)
        }
        let trigger: BufferTrigger
        switch setTrigger(device, journal: journal) {
        case .success(let set): trigger = set
        case .failure(let error): return .failure(error)
        }
        var deviceRate: Double? = nil
        if let frequency = SamplingFrequency.find(in: directory) {
            switch frequency.raise(to: rate, on: directory, journal: journal) {
            case .success(let actual): deviceRate = actual
            case .failure(let error): return .failure(error)
            }
        }
        let layout: ScanLayout
        switch readLayout(directory, channels: channels) {
        case .success(let read): layout = read
        case .failure(let error): return .failure(error)
        }
        guard let x = layout.element(named: "in_accel_x"), let y = layout.element(named: "in_accel_y"),
            let z = layout.element(named: "in_accel_z")
        else {
            return .failure(
                CaptureError(
                    kind: .unsupported,
                    message: "\(device.name) (\(device.sysfsPath)) did not enable its x, y and z channels together"))
        }
        let timestamp = layout.element(named: "in_timestamp")
        let clock = timestamp == nil ? nil : TimestampClockSetting.prepare(directory, journal: journal)
        if case .failure(let error) = setLength(directory, journal: journal) { return .failure(error) }
        let calibration: AccelCalibration
        switch AccelCalibration.read(from: directory) {
        case .success(let read): calibration = read
        case .failure(let error): return .failure(error)
        }
        if case .failure(let error) = enableBuffer(device, journal: journal) { return .failure(error) }

        let effectiveRate = deviceRate.flatMap { $0 > 0 ? $0 : nil } ?? rate
        Log.info(
            "capturing from \(device.name) (\(device.sysfsPath)) buffered: \(layout.scanBytes) bytes per scan, "
                + "trigger \(trigger), \(effectiveRate) Hz")
        return .success(
            BufferCapture(
                device: device, node: node, journal: journal, calibration: calibration, layout: layout,
                axes: (x, y, z), timestamp: timestamp, timestampClock: clock, period: 1 / effectiveRate))
    }

    /// Enables x, y, z and the timestamp and disables every other channel;
    /// returns the names of all channels.
    private static func enableWantedChannels(_ directory: DeviceDirectory, journal: SettingsJournal) -> Result<
        [String], CaptureError
    > {
        let scanElements = directory.attributePath("scan_elements")
        let channels: [String]
        switch FileSystem.directoryEntries(scanElements) {
        case .success(let entries): channels = entries.filter { $0.hasSuffix("_en") }.map { String($0.dropLast(3)) }
        case .failure(let error): return .failure(.system(error, doing: "list \(scanElements)"))
        }
        for channel in channels {
            if case .failure(let error) = setChannel(
                channel, enabled: wantedChannels.contains(channel), on: directory, journal: journal)
            {
                return .failure(error)
            }
        }
        return .success(channels)
    }

    /// Sets the device's own trigger when none is set (decided again now:
    /// someone may have set one since discovery).
    private static func setTrigger(_ device: AccelerometerDevice, journal: SettingsJournal) -> Result<
        BufferTrigger, CaptureError
    > {
        let directory = device.directory
        let trigger = BufferTrigger.find(for: directory, deviceName: device.name, sysName: device.sysName)
        guard trigger.isUsable else {
            return .failure(
                CaptureError(
                    kind: .unsupported,
                    message: "\(device.name) (\(device.sysfsPath)) has no trigger set and no trigger of its own"))
        }
        if let name = trigger.nameToSet {
            let path = directory.attributePath("trigger/current_trigger")
            if case .failure(let error) = journal.change(path, to: name, from: "") {
                return .failure(.system(error, doing: "write \(name) to \(path)"))
            }
        }
        return .success(trigger)
    }

    /// Makes the kernel buffer hold at least `bufferLength` scans.
    private static func setLength(_ directory: DeviceDirectory, journal: SettingsJournal) -> Result<Void, CaptureError>
    {
        let text: String
        switch directory.read("buffer/length") {
        case .success(let read): text = read
        case .failure(let error): return .failure(error)
        }
        if let length = Int(text), length >= bufferLength { return .success(()) }
        let path = directory.attributePath("buffer/length")
        return journal.change(path, to: String(bufferLength), from: text).mapError {
            .system($0, doing: "write \(bufferLength) to \(path)")
        }
    }

    private static func enableBuffer(_ device: AccelerometerDevice, journal: SettingsJournal) -> Result<
        Void, CaptureError
    > {
        let enable = device.directory.attributePath("buffer/enable")
        return journal.change(enable, to: "1", from: "0").mapError { error in
            let failure = CaptureError.system(error, doing: "enable the buffer of \(device.name) (\(enable))")
            guard error.code == EINVAL else { return failure }
            return CaptureError(
                kind: .unsupported, message: "\(failure.message): the driver refused this channel set or trigger")
        }
    }

    private static func setChannel(
        _ channel: String, enabled: Bool, on directory: DeviceDirectory, journal: SettingsJournal
    )
        -> Result<Void, CaptureError>
    {
        let name = "scan_elements/\(channel)_en"
        let current: String
        switch directory.read(name) {
        case .success(let text): current = text
        case .failure(let error): return .failure(error)
        }
        guard (current == "1") != enabled else { return .success(()) }
        let value = enabled ? "1" : "0"
        return journal.change(directory.attributePath(name), to: value, from: current).mapError { error in
            var failure = CaptureError.system(error, doing: "write \(value) to \(directory.attributePath(name))")
            if error.code == EINVAL {
                failure.kind = .unsupported
                failure.message += " (the driver does not allow this channel combination)"
            }
            return failure
        }
    }

    /// The layout of the channels that are enabled now, as read back from
    /// `scan_elements` (the kernel may have refused a change).
    private static func readLayout(_ directory: DeviceDirectory, channels: [String]) -> Result<ScanLayout, CaptureError>
    {
        var enabled: [ScanChannel] = []
        for channel in channels {
            let prefix = "scan_elements/\(channel)"
            guard case .success(let state) = directory.read(prefix + "_en"), state == "1" else { continue }
            let indexText: String
            switch directory.read(prefix + "_index") {
            case .success(let text): indexText = text
            case .failure(let error): return .failure(error)
            }
            guard let index = Int(indexText), index >= 0 else {
                return .failure(
                    CaptureError(
                        kind: .invalidValue,
                        message: "\(directory.attributePath(prefix + "_index")) holds '\(indexText)', not an index"))
            }
            let typeText: String
            switch directory.read(prefix + "_type") {
            case .success(let text): typeText = text
            case .failure(let error): return .failure(error)
            }
            switch ScanElementType.parse(typeText) {
            case .success(let type): enabled.append(ScanChannel(name: channel, index: index, type: type))
            case .failure(let error):
                return .failure(
                    CaptureError(kind: .unsupported, message: "\(directory.attributePath(prefix + "_type")): \(error)"))
            }
        }
        return ScanLayout.compute(enabled).mapError {
            CaptureError(kind: .unsupported, message: "\(directory.path): \($0)")
        }
    }

    func nextReadTime(now: Double) -> Double? { nil }

    func read(now: Double, into sink: (AccelSample) -> Void) -> CaptureStatus {
        guard !isReleased else {
            return .failed(CaptureError(kind: .deviceGone, message: "capture of \(deviceName) was released"))
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
            switch node.readStream(into: space) {
            case .failure(let error):
                if error.code == EAGAIN { return .ok }
                return .failed(.system(error, doing: "read scans of \(deviceName) from \(devicePath)"))
            case .success(0):
                return .failed(
                    CaptureError(
                        kind: .deviceGone,
                        message: "the buffer of \(deviceName) (\(devicePath)) ended: it was disabled or removed"))
            case .success(let read): count = read
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

    func release() {
        guard !isReleased else { return }
        isReleased = true
        // Disabling the buffer (the newest change) comes first in the journal.
        journal.restoreAll()
        node.close()
    }
}
