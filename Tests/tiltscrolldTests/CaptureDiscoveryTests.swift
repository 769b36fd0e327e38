import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

private func device(
    _ name: String, _ number: Int, location: SensorLocation = .display, problem: CaptureError? = nil
) -> AccelerometerDevice {
    AccelerometerDevice(
        name: DeviceText(name), sysfsPath: DeviceText("/sys/devices/platform/test/iio:device\(number)"),
        sysName: DeviceText("iio:device\(number)"),
        deviceNode: nil, location: location, locationSource: .sysfsLabel, mountMatrix: .identity,
        mountMatrixSource: .identity, calibration: AccelCalibration(), captureModes: .poll, trigger: nil,
        problem: problem)
}

@Suite struct CaptureDeviceChoice {
    @Test func prefersTheDisplaySensorOverTheBase() throws {
        let devices = [device("bmc150_accel", 0, location: .base), device("bmc150_accel", 1, location: .display)]
        #expect(try DeviceDiscovery.choose(from: devices, name: nil).sysName == "iio:device1")
    }

    @Test func takesABaseSensorWhenItIsTheOnlyOne() throws {
        let devices = [device("lis3dh", 0, location: .base)]
        #expect(try DeviceDiscovery.choose(from: devices, name: nil).sysName == "iio:device0")
    }

    @Test func picksByIioNameKernelNameOrPath() throws {
        let devices = [device("kxcj91008", 0), device("accel_3d", 1)]
        #expect(try DeviceDiscovery.choose(from: devices, name: "accel_3d").sysName == "iio:device1")
        #expect(try DeviceDiscovery.choose(from: devices, name: "iio:device0").name == "kxcj91008")
        #expect(
            try DeviceDiscovery.choose(from: devices, name: "/sys/devices/platform/test/iio:device1").name
                == "accel_3d")
    }

    @Test func prefersTheDisplayAmongDevicesOfTheSameName() throws {
        let devices = [device("bmc150_accel", 0, location: .base), device("bmc150_accel", 1, location: .display)]
        #expect(try DeviceDiscovery.choose(from: devices, name: "bmc150_accel").sysName == "iio:device1")
    }

    @Test func listsWhatWasFoundWhenTheNameMatchesNothing() {
        let devices = [device("kxcj91008", 0), device("accel_3d", 1)]
        guard let error = thrownError(CaptureError.self, try DeviceDiscovery.choose(from: devices, name: "lis3dh"))
        else {
            Issue.record("chose a device that does not match")
            return
        }
        #expect(error.kind == .notFound)
        #expect(
            error.message
                == "no accelerometer matches [Device] Name=lis3dh; found: kxcj91008 "
                + "(/sys/devices/platform/test/iio:device0), accel_3d (/sys/devices/platform/test/iio:device1). "
                + "Use one of these names or paths, or remove Name= to use the display sensor")
    }

    @Test func saysNoneWasFound() {
        guard let error = thrownError(CaptureError.self, try DeviceDiscovery.choose(from: [], name: nil)) else {
            Issue.record("chose from nothing")
            return
        }
        #expect(error.kind == .notFound)
        #expect(error.message.hasPrefix("no accelerometer found"))
    }

    @Test func refusesADeviceWithAProblem() {
        let problem = CaptureError(kind: .invalidValue, message: "bad matrix")
        let devices = [device("accel_3d", 0, problem: problem)]
        #expect(throws: CaptureError.self) { try DeviceDiscovery.choose(from: devices, name: nil) }
    }
}

@Suite struct CaptureDeviceInspection {
    @Test func describesAPolledDeviceFromItsAttributes() throws {
        var files = CaptureTestTree.pollAttributes()
        files["in_accel_scale"] = "0.009582\n"
        files["in_accel_mount_matrix"] = "0, 1, 0; 1, 0, 0; 0, 0, 1\n"
        files["label"] = "accel-base\n"
        let tree = try CaptureTestTree(files)
        let found = try #require(tree.device(name: "kxcj91008"))
        #expect(found.captureModes == .poll)
        #expect(found.location == .base)
        #expect(found.locationSource == .sysfsLabel)
        #expect(found.mountMatrix == (try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")))
        #expect(found.mountMatrixSource == .sysfs("in_accel_mount_matrix"))
        #expect(found.calibration.z.scale == 0.009582)
        #expect(found.problem == nil)
    }

    @Test func takesTheUdevMatrixAndLocationOverSysfs() throws {
        var files = CaptureTestTree.pollAttributes()
        files["mount_matrix"] = "1, 0, 0; 0, 1, 0; 0, 0, 1\n"
        files["label"] = "accel-base\n"
        let tree = try CaptureTestTree(files)
        let found = try #require(
            tree.device(name: "lis3dh", matrix: "0, -1, 0; 1, 0, 0; 0, 0, 1", location: "display"))
        #expect(found.mountMatrixSource == .udevProperty)
        #expect(found.location == .display)
        #expect(found.locationSource == .udevProperty)
    }

    @Test func ignoresDevicesThatAreNotAccelerometers() throws {
        let tree = try CaptureTestTree(["in_illuminance_raw": "12\n", "in_accel_x_raw": "1\n", "name": "als\n"])
        #expect(tree.device(name: "als") == nil)
    }

    @Test func keepsADeviceWithAMalformedMatrixVisibleButUnusable() throws {
        var files = CaptureTestTree.pollAttributes()
        files["mount_matrix"] = "1, 0; 0, 1\n"
        let tree = try CaptureTestTree(files)
        let found = try #require(tree.device(name: "lis3dh"))
        #expect(found.problem?.kind == .invalidValue)
        #expect(found.problem?.message.contains("\(tree.path)/mount_matrix") == true)
    }

    @Test func findsABufferedDeviceWithItsCurrentTrigger() throws {
        let tree = try CaptureTestTree([
            "scan_elements/in_accel_x_en": "0\n", "scan_elements/in_accel_y_en": "0\n",
            "scan_elements/in_accel_z_en": "0\n", "trigger/current_trigger": "accel_3d-dev7\n",
            "buffer/enable": "0\n",
        ])
        try tree.makeFIFO("node")
        let found = try #require(tree.device(name: "accel_3d", node: "node"))
        #expect(found.captureModes == .buffer)
        #expect(found.trigger == .current("accel_3d-dev7"))
        #expect(found.deviceNode == DeviceText(tree.file("node")))
    }

    @Test func bufferedCaptureNeedsADeviceNodeAndATrigger() throws {
        var files = CaptureTestTree.pollAttributes()
        files["scan_elements/in_accel_x_en"] = "0\n"
        files["scan_elements/in_accel_y_en"] = "0\n"
        files["scan_elements/in_accel_z_en"] = "0\n"
        files["trigger/current_trigger"] = "\n"
        let tree = try CaptureTestTree(files)
        try tree.makeFIFO("node")
        // No trigger set and no own trigger (an i2c chip without an interrupt).
        let found = try #require(tree.device(name: "kxcj91008", sysName: "iio:device900", node: "node"))
        #expect(found.captureModes == .poll)
        #expect(found.trigger == .unavailable)
        let noNode = try #require(tree.device(name: "kxcj91008", node: "missing"))
        #expect(noNode.deviceNode == nil)
    }
}

@Suite struct CaptureDeviceTable {
    @Test func showsEverySettingWithItsSource() throws {
        let matrix = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let hub = AccelerometerDevice(
            name: "accel_3d", sysfsPath: "/sys/devices/hub/iio:device0", sysName: "iio:device0",
            deviceNode: "/dev/iio:device0", location: .display, locationSource: .udevProperty, mountMatrix: matrix,
            mountMatrixSource: .udevProperty,
            calibration: AccelCalibration(
                x: AxisCalibration(
                    scale: 0.0980665, scaleAttribute: "in_accel_scale", offset: 0, offsetAttribute: "in_accel_offset"),
                y: AxisCalibration(
                    scale: 0.0980665, scaleAttribute: "in_accel_scale", offset: 0, offsetAttribute: "in_accel_offset"),
                z: AxisCalibration(
                    scale: 0.0980665, scaleAttribute: "in_accel_scale", offset: 0, offsetAttribute: "in_accel_offset")),
            captureModes: [.poll, .buffer], trigger: .current("accel_3d-dev0"), problem: nil)
        let base = AccelerometerDevice(
            name: "lis3dh", sysfsPath: "/sys/devices/i2c/iio:device1", sysName: "iio:device1", deviceNode: nil,
            location: .base, locationSource: .sysfsLabel, mountMatrix: .identity, mountMatrixSource: .identity,
            calibration: AccelCalibration(
                x: AxisCalibration(scale: 0.000598, scaleAttribute: "in_accel_x_scale"),
                y: AxisCalibration(scale: 0.000598, scaleAttribute: "in_accel_y_scale"),
                z: AxisCalibration(scale: 0.000598, scaleAttribute: "in_accel_z_scale")),
            captureModes: .poll, trigger: nil, problem: nil)
        let table = renderDeviceTable([base, hub])
        #expect(
            table == """
                  lis3dh  iio:device1
                    sysfs path:     /sys/devices/i2c/iio:device1
                    device node:    none
                    location:       base (sysfs label)
                    role:           the hinge angle with the display's (tablet mode where no switch tells it)
                    scale:          x 0.000598 (in_accel_x_scale), y 0.000598 (in_accel_y_scale), z 0.000598 (in_accel_z_scale)
                    offset:         0 (none, 0 used)
                    mount matrix:   1, 0, 0; 0, 1, 0; 0, 0, 1 (default identity)
                    capture modes:  poll

                * accel_3d  iio:device0
                    sysfs path:     /sys/devices/hub/iio:device0
                    device node:    /dev/iio:device0
                    location:       display (udev ACCEL_LOCATION)
                    role:           scrolls; the hinge angle with the base's
                    scale:          0.0980665 (in_accel_scale)
                    offset:         0 (in_accel_offset)
                    mount matrix:   0, 1, 0; -1, 0, 0; 0, 0, 1 (udev ACCEL_MOUNT_MATRIX)
                    capture modes:  poll, buffer
                    trigger:        accel_3d-dev0 (current)

                * used unless [Device] Name= picks another

                """)
    }

    @Test func saysWhenThereIsNothing() {
        #expect(renderDeviceTable([]) == "No accelerometer found.\n")
    }
}
