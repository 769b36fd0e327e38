import Foundation
import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

// Capture against fake sysfs trees: these suites run only under umockdev,
// each with its fixture from Tests/umockdev/fixtures, started by
// Tests/umockdev/capture-tests (which fails if one is skipped). Discovery
// goes through the real libudev; attributes are changed the way the kernel
// would, by rewriting the files under $UMOCKDEV_DIR in place.

/// The umockdev testbed this process runs in.
enum Umockdev {
    static var root: String? { ProcessInfo.processInfo.environment["UMOCKDEV_DIR"] }

    /// Whether the testbed holds a device at `sysfsPath` (the fixture is loaded).
    static func has(_ sysfsPath: String) -> Bool {
        guard let root else { return false }
        return FileManager.default.fileExists(atPath: root + sysfsPath)
    }

    /// Rewrites an attribute in place, so descriptors already open see the change.
    static func write(_ sysfsPath: String, _ text: String) throws {
        let root = try #require(root)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root + sysfsPath))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// An attribute's text without one trailing newline.
    static func read(_ sysfsPath: String) -> String? {
        guard let root, let text = try? String(contentsOfFile: root + sysfsPath, encoding: .utf8) else { return nil }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// Collects samples until `count` arrived or five seconds passed, waiting
    /// in poll(2) on the buffer's descriptor the way the daemon's loop does.
    static func collect(_ capture: SampleSource, count: Int) -> [AccelSample] {
        var samples: [AccelSample] = []
        let deadline = DaemonClock.now() + 5
        guard let descriptor = capture.pollDescriptor else { return [] }
        while samples.count < count && DaemonClock.now() < deadline {
            var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            do {
                _ = try capture.read(now: DaemonClock.now(), into: { samples.append($0) })
            } catch {
                break
            }
        }
        return samples
    }
}

private let kxcjkPath = "/sys/devices/pci0000:00/0000:00:1f.3/i2c-0/0-000f/iio:device0"
private let lis3dhPath = "/sys/devices/pci0000:00/0000:00:1f.3/i2c-0/0-0018/iio:device0"
private let hubPath =
    "/sys/devices/pci0000:00/0000:00:13.0/{33AECD58-B679-4E54-9BD9-A04D34F0C226}/001F:8087:0AC2.0001/HID-SENSOR-200073.3.auto/iio:device0"
private let displayPath = "/sys/devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-1/i2c-DUAL250E:00/iio:device0"
private let basePath =
    "/sys/devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-1/i2c-bmc150_accel_base/iio:device1"

@Suite(.serialized, .enabled(if: Umockdev.has(kxcjkPath))) struct CaptureUmockdevKxcjk {
    @Test func discoversTheSharedScaleAndTheDriversMatrix() throws {
        let devices = try DeviceDiscovery.enumerate(matrixOverride: nil)
        #expect(devices.count == 1)
        let device = try #require(devices.first)
        #expect(device.name == "kxcj91008")
        #expect(device.sysfsPath == DeviceText(kxcjkPath))
        #expect(device.deviceNode == "/dev/iio:device0")
        #expect(device.calibration.y == AxisCalibration(scale: 0.009582, scaleAttribute: "in_accel_scale"))
        #expect(device.mountMatrix == (try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")))
        #expect(device.mountMatrixSource == .sysfs("in_accel_mount_matrix"))
        #expect(device.location == .display && device.locationSource == .assumed)
        // A triggered buffer without a trigger: polling only.
        #expect(device.captureModes == .poll)
        #expect(device.trigger == .unavailable)
    }

    @Test func pollsFollowingTheTiltAndRestoresTheRate() throws {
        let device = try DeviceDiscovery.choose(from: DeviceDiscovery.enumerate(matrixOverride: nil), name: nil)
        let capture = try Capture.open(device, mode: .auto, rate: 50)
        #expect(capture.mode == .poll)
        #expect(Umockdev.read(kxcjkPath + "/in_accel_sampling_frequency") == "50")
        var samples: [AccelSample] = []
        #expect(try capture.read(now: DaemonClock.now(), into: { samples.append($0) }) == .ok)
        try Umockdev.write(kxcjkPath + "/in_accel_y_raw", "-512\n")
        #expect(try capture.read(now: DaemonClock.now() + 1, into: { samples.append($0) }) == .ok)
        #expect(
            samples.map(\.acceleration) == [
                Vector3(-12 * 0.009582, -1020 * 0.009582, 40 * 0.009582),
                Vector3(-12 * 0.009582, -512 * 0.009582, 40 * 0.009582),
            ])
        capture.release()
        #expect(Umockdev.read(kxcjkPath + "/in_accel_sampling_frequency") == "12.500000")
    }

    /// Without a trigger the buffer never fills; buffer mode polls instead
    /// and leaves the channels as they were.
    @Test func bufferModePollsWhenTheBufferHasNoTrigger() throws {
        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: nil).first)
        let capture = try Capture.open(device, mode: .buffer, rate: 50)
        #expect(capture.mode == .poll)
        #expect(Umockdev.read(kxcjkPath + "/scan_elements/in_accel_x_en") == "0")
        capture.release()
    }
}

@Suite(.serialized, .enabled(if: Umockdev.has(lis3dhPath))) struct CaptureUmockdevLis3dh {
    @Test func discoversPerAxisScalesAndTheUnprefixedMatrix() throws {
        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: nil).first)
        #expect(device.name == "lis3dh")
        #expect(device.calibration.x == AxisCalibration(scale: 0.009806, scaleAttribute: "in_accel_x_scale"))
        #expect(device.calibration.z == AxisCalibration(scale: 0.009806, scaleAttribute: "in_accel_z_scale"))
        #expect(device.mountMatrixSource == .sysfs("mount_matrix"))
        #expect(device.captureModes == .poll)
    }

    @Test func raisesOneHertzToTheRateAndPutsItBack() throws {
        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: nil).first)
        let capture = try Capture.open(device, mode: .poll, rate: 50)
        #expect(Umockdev.read(lis3dhPath + "/sampling_frequency") == "50")
        var samples: [AccelSample] = []
        _ = try capture.read(now: DaemonClock.now(), into: { samples.append($0) })
        try Umockdev.write(lis3dhPath + "/in_accel_x_raw", "700\n")
        _ = try capture.read(now: DaemonClock.now() + 1, into: { samples.append($0) })
        #expect(samples.map(\.acceleration.x) == [16 * 0.009806, 700 * 0.009806])
        capture.release()
        #expect(Umockdev.read(lis3dhPath + "/sampling_frequency") == "1")
    }

    @Test func overridesTheMatrixFromTheConfiguration() throws {
        let override = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: override).first)
        #expect(device.mountMatrix == override)
        #expect(device.mountMatrixSource == .configuration)
    }
}

@Suite(.serialized, .enabled(if: Umockdev.has(hubPath))) struct CaptureUmockdevHub {
    @Test func discoversTheHubWithoutReadingItsHysteresis() throws {
        // On the real driver reading in_accel_hysteresis fails; here it is a
        // FIFO nobody writes: reading it would hang this test.
        let root = try #require(Umockdev.root)
        let hysteresis = root + hubPath + "/in_accel_hysteresis"
        let original = try #require(Umockdev.read(hubPath + "/in_accel_hysteresis"))
        unlink(hysteresis)
        try #require(mkfifo(hysteresis, 0o644) == 0)
        // A buffered capture reads it (ChangeSensitivity): the attribute
        // comes back for the tests after this one.
        defer {
            unlink(hysteresis)
            #expect(FileManager.default.createFile(atPath: hysteresis, contents: Data((original + "\n").utf8)))
        }

        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: nil).first)
        #expect(device.name == "accel_3d")
        #expect(device.calibration.x.scale == 0.0980665)
        #expect(device.calibration.x.offsetAttribute == "in_accel_offset")
        #expect(device.mountMatrixSource == .udevProperty)
        #expect(device.mountMatrix == (try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")))
        #expect(device.captureModes == [.poll, .buffer])
        #expect(device.trigger == .current("accel_3d-dev0"))
    }

    @Test func rereadsTheMatrixAfterAChange() throws {
        let uevent = hubPath + "/uevent"
        let original = try #require(Umockdev.read(uevent))
        defer { try? Umockdev.write(uevent, original + "\n") }
        try Umockdev.write(
            uevent,
            original.replacingOccurrences(
                of: "ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1",
                with: "ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, -1, 0; 0, 0, 1")
                + "\n")
        let device = try DeviceDiscovery.describe(sysfsPath: DeviceText(hubPath), matrixOverride: nil)
        #expect(device.mountMatrix == (try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")))

        try Umockdev.write(
            uevent,
            original.replacingOccurrences(
                of: "ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1",
                with: "ACCEL_MOUNT_MATRIX=0, 0, 0; 0, -1, 0; 0, 0, 1")
                + "\n")
        guard
            let error = thrownError(
                CaptureError.self, try DeviceDiscovery.describe(sysfsPath: DeviceText(hubPath), matrixOverride: nil))
        else {
            Issue.record("accepted a matrix with a zero row")
            return
        }
        #expect(error.kind == .invalidValue)
        #expect(error.message.contains("ACCEL_MOUNT_MATRIX of \(hubPath)"))
    }

    @Test func fallsBackToPollingWhileIioSensorProxyHoldsTheBuffer() throws {
        try Umockdev.write(hubPath + "/buffer/enable", "1\n")
        defer { try? Umockdev.write(hubPath + "/buffer/enable", "0\n") }
        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: nil).first)
        let capture = try Capture.open(device, mode: .auto, rate: 50)
        #expect(capture.mode == .poll)
        var samples: [AccelSample] = []
        _ = try capture.read(now: DaemonClock.now(), into: { samples.append($0) })
        #expect(samples.map(\.acceleration) == [Vector3(5 * 0.0980665, -981 * 0.0980665, -20 * 0.0980665)])
        capture.release()
        #expect(Umockdev.read(hubPath + "/buffer/enable") == "1")
    }

    /// Needs the scans of Tests/umockdev/capture-tests fed to /dev/iio:device0.
    @Test func readsBufferedScansAndRestoresTheDevice() throws {
        let device = try #require(DeviceDiscovery.enumerate(matrixOverride: nil).first)
        let capture = try Capture.open(device, mode: .buffer, rate: 50)
        #expect(capture.mode == .buffer)
        for channel in ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"] {
            #expect(Umockdev.read(hubPath + "/scan_elements/\(channel)_en") == "1")
        }
        #expect(Umockdev.read(hubPath + "/buffer/enable") == "1")
        #expect(Umockdev.read(hubPath + "/buffer/length") == "64")
        #expect(Umockdev.read(hubPath + "/current_timestamp_clock") == "boottime")
        #expect(Umockdev.read(hubPath + "/in_accel_sampling_frequency") == "50")

        let before = DaemonClock.now()
        let samples = Umockdev.collect(capture, count: 4)
        let g = 0.0980665
        #expect(
            samples.map(\.acceleration) == [
                Vector3(5 * g, -981 * g, -20 * g), Vector3(-300 * g, -900 * g, 120 * g),
                Vector3(981 * g, 2 * g, -3 * g), Vector3(-1 * g, 1 * g, -981 * g),
            ])
        // The script's stamps are not on this machine's clock: scans get their
        // read time, those read together spaced one period (1/50 s) apart.
        let times = samples.map(\.time)
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0 >= before - 3.0 / 50 && $0 <= DaemonClock.now() })

        capture.release()
        for channel in ["in_accel_x", "in_accel_y", "in_accel_z", "in_timestamp"] {
            #expect(Umockdev.read(hubPath + "/scan_elements/\(channel)_en") == "0")
        }
        #expect(Umockdev.read(hubPath + "/buffer/enable") == "0")
        #expect(Umockdev.read(hubPath + "/buffer/length") == "2")
        #expect(Umockdev.read(hubPath + "/current_timestamp_clock") == "realtime")
        #expect(Umockdev.read(hubPath + "/in_accel_sampling_frequency") == "10.000000")
        #expect(Umockdev.read(hubPath + "/trigger/current_trigger") == "accel_3d-dev0")
    }
}

@Suite(.serialized, .enabled(if: Umockdev.has(displayPath))) struct CaptureUmockdevTwoSensors {
    @Test func prefersTheDisplaySensor() throws {
        let devices = try DeviceDiscovery.enumerate(matrixOverride: nil)
        #expect(devices.map(\.sysfsPath.unescaped) == [displayPath, basePath])
        #expect(devices.map(\.location) == [.display, .base])
        #expect(devices.map(\.locationSource) == [.sysfsLabel, .udevProperty])
        #expect(devices.map(\.mountMatrixSource) == [.udevProperty, .sysfs("in_mount_matrix")])
        #expect(try DeviceDiscovery.choose(from: devices, name: nil).sysfsPath == DeviceText(displayPath))
    }

    @Test func picksByTheBusLinkOrTheKernelName() throws {
        let devices = try DeviceDiscovery.enumerate(matrixOverride: nil)
        #expect(
            try DeviceDiscovery.choose(from: devices, name: "/sys/bus/iio/devices/iio:device1").sysfsPath
                == DeviceText(basePath))
        #expect(try DeviceDiscovery.choose(from: devices, name: "iio:device1").sysfsPath == DeviceText(basePath))
        #expect(try DeviceDiscovery.choose(from: devices, name: basePath).sysfsPath == DeviceText(basePath))
    }

    @Test func setsItsOwnTriggerForTheBufferAndClearsItAgain() throws {
        let devices = try DeviceDiscovery.enumerate(matrixOverride: nil)
        let display = try DeviceDiscovery.choose(from: devices, name: nil)
        #expect(display.trigger == .own("bmc150_accel-dev0"))
        let capture = try Capture.open(display, mode: .buffer, rate: 50)
        #expect(Umockdev.read(displayPath + "/trigger/current_trigger") == "bmc150_accel-dev0")
        #expect(Umockdev.read(displayPath + "/in_accel_sampling_frequency") == "62.500000")
        var count = 0
        #expect(try capture.read(now: DaemonClock.now(), into: { _ in count += 1 }) == .ok)
        #expect(count == 0)
        capture.release()
        #expect(Umockdev.read(displayPath + "/trigger/current_trigger") == "")
        #expect(Umockdev.read(displayPath + "/in_accel_sampling_frequency") == "15.620000")
        #expect(Umockdev.read(displayPath + "/buffer/enable") == "0")
        // The other sensor was never touched.
        #expect(Umockdev.read(basePath + "/in_accel_sampling_frequency") == "15.620000")
    }
}

@Suite(.enabled(if: ProcessInfo.processInfo.environment["TILTSCROLL_HOTPLUG_READY"] != nil && Umockdev.root != nil))
struct CaptureUmockdevHotplug {
    /// Driven by Tests/umockdev/capture-tests: it waits for the ready file,
    /// then makes the testbed send `change` for the hub, adds a second
    /// accelerometer and removes the hub.
    @Test func reportsAddChangeAndRemove() throws {
        let hotplug = try HotplugListener.open()
        defer { hotplug.close() }
        let ready = try #require(ProcessInfo.processInfo.environment["TILTSCROLL_HOTPLUG_READY"])
        try #require(FileManager.default.createFile(atPath: ready, contents: nil))

        var events: [DeviceEvent] = []
        let deadline = DaemonClock.now() + 10
        while events.count < 3 && DaemonClock.now() < deadline {
            var entry = pollfd(fd: hotplug.descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            hotplug.drain { events.append($0) }
        }
        #expect(events.map(\.action) == [.change, .add, .remove])
        #expect(events.map(\.subsystem) == ["iio", "iio", "iio"])
        #expect(events.first?.sysfsPath == DeviceText(hubPath))
        #expect(events.first?.deviceNode == "/dev/iio:device0")
        #expect(events.last?.sysfsPath == DeviceText(hubPath))
    }
}
