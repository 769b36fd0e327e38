import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A HID-sensor-hub-like device in a temporary directory, its device node a
/// FIFO the test writes scans into.
final class HubTree {
    let tree: CaptureTestTree
    private(set) var writer: Int32 = -1

    init(clock: String? = "realtime\n", extra: [String: String] = [:]) throws {
        var files: [String: String] = [
            "in_accel_x_raw": "0\n", "in_accel_y_raw": "0\n", "in_accel_z_raw": "0\n",
            "in_accel_scale": "0.098066500\n", "in_accel_offset": "0\n",
            "in_accel_sampling_frequency": "10.000000\n",
            "trigger/current_trigger": "accel_3d-dev7\n",
            "buffer/enable": "0\n", "buffer/length": "2\n",
            "scan_elements/in_intensity_en": "1\n", "scan_elements/in_intensity_index": "4\n",
            "scan_elements/in_intensity_type": "le:u32/32>>0\n",
        ]
        for (index, axis) in ["x", "y", "z"].enumerated() {
            files["scan_elements/in_accel_\(axis)_en"] = "0\n"
            files["scan_elements/in_accel_\(axis)_index"] = "\(index)\n"
            files["scan_elements/in_accel_\(axis)_type"] = "le:s16/32>>0\n"
        }
        files["scan_elements/in_timestamp_en"] = "0\n"
        files["scan_elements/in_timestamp_index"] = "3\n"
        files["scan_elements/in_timestamp_type"] = "le:s64/64>>0\n"
        if let clock { files["current_timestamp_clock"] = clock }
        for (name, text) in extra { files[name] = text }
        tree = try CaptureTestTree(files)
        try tree.makeFIFO("node")
    }

    deinit { if writer >= 0 { close(writer) } }

    var device: AccelerometerDevice? { tree.device(name: "accel_3d", node: "node") }

    /// Opens the FIFO's writing end; only possible once the capture opened the reading end.
    func connect() throws {
        writer = open(tree.file("node"), O_WRONLY | O_NONBLOCK)
        try #require(writer >= 0)
    }

    func disconnect() {
        close(writer)
        writer = -1
    }

    /// One scan the way hid-sensor-accel-3d pushes it: three 32-bit slots
    /// whose upper halves hold the next field's bytes, then the timestamp.
    static func scan(_ x: Int16, _ y: Int16, _ z: Int16, timestamp: Int64) -> [UInt8] {
        func le(_ v: Int16) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        return le(x) + le(y) + le(y) + le(z) + le(z) + [0x5A, 0xA5] + [0, 0, 0, 0]
            + withUnsafeBytes(of: timestamp.littleEndian) { Array($0) }
    }

    func send(_ bytes: [UInt8]) throws {
        let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
    }
}

@Suite(.serialized) struct CaptureBuffered {
    private func collect(_ capture: SampleSource) -> [AccelSample] {
        var samples: [AccelSample] = []
        _ = try? capture.read(now: DaemonClock.now(), into: { samples.append($0) })
        return samples
    }

    @Test func setsTheDeviceUpAndPutsEverythingBack() throws {
        let hub = try HubTree()
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        let tree = hub.tree
        for axis in ["x", "y", "z"] { #expect(tree.read("scan_elements/in_accel_\(axis)_en") == "1") }
        #expect(tree.read("scan_elements/in_timestamp_en") == "1")
        #expect(tree.read("scan_elements/in_intensity_en") == "0")
        #expect(tree.read("in_accel_sampling_frequency") == "50")
        #expect(tree.read("current_timestamp_clock") == "boottime")
        #expect(tree.read("buffer/length") == "64")
        #expect(tree.read("buffer/enable") == "1")
        #expect(tree.read("trigger/current_trigger") == "accel_3d-dev7")
        #expect(capture.layout.scanBytes == 24)
        #expect(capture.pollDescriptor != nil)
        #expect(capture.nextReadTime(now: 0) == nil)

        capture.release()
        for axis in ["x", "y", "z"] { #expect(tree.read("scan_elements/in_accel_\(axis)_en") == "0") }
        #expect(tree.read("scan_elements/in_timestamp_en") == "0")
        #expect(tree.read("scan_elements/in_intensity_en") == "1")
        #expect(tree.read("in_accel_sampling_frequency") == "10.000000")
        #expect(tree.read("current_timestamp_clock") == "realtime")
        #expect(tree.read("buffer/length") == "2")
        #expect(tree.read("buffer/enable") == "0")
        #expect(capture.pollDescriptor == nil)
    }

    @Test func keepsEveryChangeInTheJournalFileInAFormTheRecoveryAccepts() throws {
        let hub = try HubTree()
        let tree = hub.tree
        let file = SettingsJournalFile(directory: tree.path)
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50, journalFile: file)
        guard case .loaded(let record) = file.load(sysfsRoot: tree.path) else {
            Issue.record("the journal file is missing or refused: \(file.load(sysfsRoot: tree.path))")
            return
        }
        #expect(
            record.entries.map { String($0.path.dropFirst(tree.path.count + 1)) + "=" + $0.original } == [
                "scan_elements/in_accel_x_en=0", "scan_elements/in_accel_y_en=0", "scan_elements/in_accel_z_en=0",
                "scan_elements/in_intensity_en=1", "scan_elements/in_timestamp_en=0",
                "in_accel_sampling_frequency=10.000000", "current_timestamp_clock=realtime", "buffer/length=2",
                "buffer/enable=0",
            ])
        capture.release()
        #expect(file.load(sysfsRoot: tree.path) == .missing)
    }

    @Test func decodesScansMaskingTheHubsUpperHalves() throws {
        let hub = try HubTree()
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        defer { capture.release() }
        try hub.connect()
        let now = KernelClock.daemon.nanoseconds()
        try hub.send(
            HubTree.scan(-981, 12, 50, timestamp: now - 40_000_000)
                + HubTree.scan(3, -4, 981, timestamp: now - 20_000_000))
        let samples = collect(capture)
        #expect(samples.count == 2)
        #expect(
            samples.map(\.acceleration) == [
                Vector3(-981 * 0.0980665, 12 * 0.0980665, 50 * 0.0980665),
                Vector3(3 * 0.0980665, -4 * 0.0980665, 981 * 0.0980665),
            ])
        #expect(samples.map(\.time) == [Double(now - 40_000_000) / 1e9, Double(now - 20_000_000) / 1e9])
    }

    @Test func joinsAScanSplitAcrossReads() throws {
        let hub = try HubTree()
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        defer { capture.release() }
        try hub.connect()
        let now = KernelClock.daemon.nanoseconds()
        let scans = HubTree.scan(1, 2, 3, timestamp: now) + HubTree.scan(4, 5, 6, timestamp: now)
        try hub.send(Array(scans[..<30]))
        let first = collect(capture)
        try hub.send(Array(scans[30...]))
        let second = collect(capture)
        #expect(first.map(\.acceleration.x) == [1 * 0.0980665])
        #expect(second.map(\.acceleration.z) == [6 * 0.0980665])
    }

    @Test func readsNothingWhenNothingIsWaiting() throws {
        let hub = try HubTree()
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        defer { capture.release() }
        try hub.connect()
        var count = 0
        #expect(try capture.read(now: 0, into: { _ in count += 1 }) == .ok)
        #expect(count == 0)
    }

    @Test func convertsRealtimeStampsWhenTheClockCannotBeChanged() throws {
        // Kernels before 4.10 have no current_timestamp_clock: stamps are realtime.
        let hub = try HubTree(clock: nil)
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        defer { capture.release() }
        try hub.connect()
        let realtime = KernelClock.realtime.nanoseconds()
        let monotonic = KernelClock.daemon.nanoseconds()
        try hub.send(HubTree.scan(0, 0, 100, timestamp: realtime - 100_000_000))
        let samples = collect(capture)
        #expect(samples.count == 1)
        let expected = Double(monotonic - 100_000_000) / 1e9
        #expect(abs(samples[0].time - expected) < 0.05)
    }

    @Test func usesTheReadTimeForStampsInAnotherTimebase() throws {
        let hub = try HubTree()
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        defer { capture.release() }
        try hub.connect()
        try hub.send(HubTree.scan(0, 0, 100, timestamp: 42) + HubTree.scan(0, 0, 100, timestamp: 43))
        var samples: [AccelSample] = []
        _ = try capture.read(now: 1000, into: { samples.append($0) })
        // Spaced one period apart, the last at the read time.
        #expect(samples.map(\.time) == [1000 - 1.0 / 50, 1000])
    }

    @Test func failsWhenTheBufferEnds() throws {
        let hub = try HubTree()
        let capture = try BufferCapture.open(try #require(hub.device), rate: 50)
        defer { capture.release() }
        try hub.connect()
        hub.disconnect()
        guard let error = thrownError(CaptureError.self, try capture.read(now: 0, into: { _ in })) else {
            Issue.record("an ended buffer read as ok")
            return
        }
        #expect(error.kind == .deviceGone)
    }

    @Test func isBusyWhenAnotherProcessEnabledTheBuffer() throws {
        let hub = try HubTree(extra: ["buffer/enable": "1\n"])
        let device = try #require(hub.device)
        guard let error = thrownError(CaptureError.self, try BufferCapture.open(device, rate: 50)) else {
            Issue.record("opened a buffer someone else holds")
            return
        }
        #expect(error.kind == .busy)
        #expect(hub.tree.read("scan_elements/in_accel_x_en") == "0")
        #expect(hub.tree.read("in_accel_sampling_frequency") == "10.000000")
    }

    @Test func undoesEveryChangeWhenSetupFails() throws {
        let hub = try HubTree(extra: ["scan_elements/in_accel_y_type": "le:f16/32>>0\n"])
        let device = try #require(hub.device)
        guard let error = thrownError(CaptureError.self, try BufferCapture.open(device, rate: 50)) else {
            Issue.record("accepted an unknown scan format")
            return
        }
        #expect(error.kind == .unsupported)
        #expect(error.message.contains("in_accel_y_type"))
        let tree = hub.tree
        for axis in ["x", "y", "z"] { #expect(tree.read("scan_elements/in_accel_\(axis)_en") == "0") }
        #expect(tree.read("scan_elements/in_intensity_en") == "1")
        #expect(tree.read("in_accel_sampling_frequency") == "10.000000")
        #expect(tree.read("buffer/enable") == "0")
    }

    @Test func autoModeFallsBackToPollingWhenTheBufferIsBusy() throws {
        let hub = try HubTree(extra: ["buffer/enable": "1\n"])
        let device = try #require(hub.device)
        #expect(device.captureModes == [.poll, .buffer])
        let capture = try Capture.open(device, mode: .auto, rate: 50)
        defer { capture.release() }
        #expect(capture.mode == .poll)
        #expect(capture.pollDescriptor == nil)
    }

    /// Holding the buffer would lock iio-sensor-proxy out of it.
    @Test func autoModePollsAndLeavesAFreeBufferToOthers() throws {
        let hub = try HubTree()
        let capture = try Capture.open(try #require(hub.device), mode: .auto, rate: 50)
        defer { capture.release() }
        #expect(capture.mode == .poll)
        #expect(hub.tree.read("buffer/enable") == "0")
    }

    @Test func bufferModeTakesTheFreeBuffer() throws {
        let hub = try HubTree()
        let capture = try Capture.open(try #require(hub.device), mode: .buffer, rate: 50)
        defer { capture.release() }
        #expect(capture.mode == .buffer)
    }

    @Test func bufferModePollsWhileAnotherProcessHoldsTheBuffer() throws {
        let hub = try HubTree(extra: ["buffer/enable": "1\n"])
        let capture = try Capture.open(try #require(hub.device), mode: .buffer, rate: 50)
        defer { capture.release() }
        #expect(capture.mode == .poll)
        #expect(hub.tree.read("buffer/enable") == "1")
    }

    @Test func plansModesFromTheSettingAndTheDevice() {
        #expect(Capture.plan(.auto, supported: [.poll, .buffer]) == [.poll, .buffer])
        #expect(Capture.plan(.auto, supported: .poll) == [.poll])
        #expect(Capture.plan(.auto, supported: .buffer) == [.buffer])
        #expect(Capture.plan(.poll, supported: .buffer) == [.poll])
        #expect(Capture.plan(.buffer, supported: .poll) == [.buffer, .poll])
        #expect(Capture.plan(.buffer, supported: .buffer) == [.buffer])
    }

    @Test func rejectsANonsenseRate() throws {
        let hub = try HubTree()
        let device = try #require(hub.device)
        for rate in [0, -5, Double.nan, .infinity] {
            guard let error = thrownError(CaptureError.self, try Capture.open(device, mode: .auto, rate: rate)) else {
                Issue.record("opened a capture at \(rate) Hz")
                continue
            }
            #expect(error.kind == .invalidValue)
        }
    }
}
