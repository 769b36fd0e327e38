import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct CaptureCalibrationReading {
    @Test func prefersPerAxisThenSharedThenGenericScale() throws {
        let tree = try CaptureTestTree([
            "in_accel_x_scale": "0.000598\n", "in_accel_scale": "0.009582\n", "scale": "2\n",
            "in_accel_offset": "-3\n",
        ])
        let calibration = try AccelCalibration.read(from: DeviceDirectory(path: tree.path))
        #expect(calibration.x.scale == 0.000598)
        #expect(calibration.x.scaleAttribute == "in_accel_x_scale")
        #expect(calibration.y.scale == 0.009582)
        #expect(calibration.y.scaleAttribute == "in_accel_scale")
        #expect(calibration.z.offset == -3)
        #expect(calibration.z.offsetAttribute == "in_accel_offset")
    }

    @Test func fallsBackToTheGenericScaleAndDefaults() throws {
        let generic = try CaptureTestTree(["scale": "0.5\n", "offset": "1\n"])
        let read = try AccelCalibration.read(from: DeviceDirectory(path: generic.path))
        #expect(read.y.scale == 0.5 && read.y.scaleAttribute == "scale")
        #expect(read.y.offset == 1 && read.y.offsetAttribute == "offset")

        let bare = try CaptureTestTree()
        let defaults = try AccelCalibration.read(from: DeviceDirectory(path: bare.path))
        #expect(defaults == AccelCalibration())
        #expect(defaults.x.scale == 1 && defaults.x.offset == 0 && defaults.x.scaleAttribute == nil)
    }

    @Test func convertsRawCountsWithOffsetThenScale() {
        let axis = AxisCalibration(scale: 0.5, scaleAttribute: "in_accel_scale", offset: 10, offsetAttribute: nil)
        #expect(axis.value(raw: 4) == 7)
        let calibration = AccelCalibration(x: axis, y: AxisCalibration(), z: AxisCalibration(scale: 2))
        #expect(calibration.acceleration(x: 0, y: -3, z: 5) == Vector3(5, -3, 10))
    }

    @Test func rejectsAScaleThatIsNotANumber() throws {
        let tree = try CaptureTestTree(["in_accel_scale": "0,009582\n"])
        guard
            let error = thrownError(
                CaptureError.self, try AccelCalibration.read(from: DeviceDirectory(path: tree.path)))
        else {
            Issue.record("accepted a comma decimal")
            return
        }
        #expect(error.kind == .invalidValue)
        #expect(error.message == "\(tree.path)/in_accel_scale holds '0,009582', which is not a number")
    }

    @Test func rejectsAZeroScale() throws {
        let tree = try CaptureTestTree(["in_accel_y_scale": "0.000000\n"])
        guard
            let error = thrownError(
                CaptureError.self, try AccelCalibration.read(from: DeviceDirectory(path: tree.path)))
        else {
            Issue.record("accepted a zero scale")
            return
        }
        #expect(error.kind == .invalidValue)
    }

    @Test(arguments: ["nan", "inf", "0x10", "", "1e"])
    func rejectsNonDecimalOffsets(_ text: String) throws {
        let tree = try CaptureTestTree(["in_accel_offset": text])
        #expect(throws: CaptureError.self) { try AccelCalibration.read(from: DeviceDirectory(path: tree.path)) }
    }
}

@Suite struct CaptureLocationPrecedence {
    @Test func udevPropertyWinsOverLabelAndLocation() {
        let (location, source) = SensorLocation.resolve(
            udevProperty: "base", label: "accel-display", location: "lid")
        #expect(location == .base)
        #expect(source == .udevProperty)
    }

    @Test func readsNothingMoreOnceASourceDecided() {
        var consulted: [String] = []
        func attribute(_ name: String, _ value: DeviceText?) -> DeviceText? {
            consulted.append(name)
            return value
        }
        _ = SensorLocation.resolve(
            udevProperty: "display", label: attribute("label", "accel-base"), location: attribute("location", nil))
        #expect(consulted.isEmpty)
        _ = SensorLocation.resolve(
            udevProperty: nil, label: attribute("label", "accel-base"), location: attribute("location", nil))
        #expect(consulted == ["label"])
    }

    @Test func labelWinsOverLocation() {
        let (location, source) = SensorLocation.resolve(udevProperty: nil, label: "accel-base", location: "lid")
        #expect(location == .base)
        #expect(source == .sysfsLabel)
    }

    @Test func chromeOsLidMeansDisplay() {
        let (location, source) = SensorLocation.resolve(udevProperty: nil, label: nil, location: "lid")
        #expect(location == .display)
        #expect(source == .sysfsLocation)
        #expect(SensorLocation.resolve(udevProperty: nil, label: nil, location: "base\n").0 == .base)
    }

    @Test func unknownValuesPassToTheNextSource() {
        let (location, source) = SensorLocation.resolve(
            udevProperty: "keyboard", label: "proximity-palmrest", location: "base")
        #expect(location == .base)
        #expect(source == .sysfsLocation)
    }

    @Test func assumesTheDisplayWhenNothingSays() {
        let (location, source) = SensorLocation.resolve(udevProperty: nil, label: nil, location: nil)
        #expect(location == .display)
        #expect(source == .assumed)
        #expect(source.description == "default")
    }
}

@Suite struct CaptureMountMatrixPrecedence {
    let rotated: DeviceText = "0, 1, 0; -1, 0, 0; 0, 0, 1"

    @Test func configurationOverrideWinsOverEverything() throws {
        let override = try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")
        let resolved = try ResolvedMountMatrix.resolve(
            override: override, udevProperty: "not a matrix", sysfs: [("mount_matrix", rotated)], devicePath: "/d"
        )
        #expect(resolved.matrix == override)
        #expect(resolved.source == .configuration)
    }

    @Test func udevPropertyWinsOverSysfs() throws {
        let resolved = try ResolvedMountMatrix.resolve(
            override: nil, udevProperty: rotated, sysfs: [("in_accel_mount_matrix", "1, 0, 0; 0, 1, 0; 0, 0, 1")],
            devicePath: "/d"
        )
        #expect(resolved.source == .udevProperty)
        // Asymmetric: M * v, row i dotted with v gives axis i.
        #expect(resolved.matrix.apply(Vector3(1, 2, 3)) == Vector3(2, -1, 3))
    }

    @Test func firstSysfsAttributeWinsThenIdentity() throws {
        let resolved = try ResolvedMountMatrix.resolve(
            override: nil, udevProperty: nil, sysfs: [("in_mount_matrix", rotated)], devicePath: "/d"
        )
        #expect(resolved.source == .sysfs("in_mount_matrix"))
        #expect(resolved.source.description == "sysfs in_mount_matrix")
        let none = try ResolvedMountMatrix.resolve(override: nil, udevProperty: nil, sysfs: [], devicePath: "/d")
        #expect(none == ResolvedMountMatrix(matrix: .identity, source: .identity))
    }

    @Test func malformedUdevMatrixIsAnErrorNotAFallThrough() {
        guard
            let error = thrownError(
                CaptureError.self,
                try ResolvedMountMatrix.resolve(
                    override: nil, udevProperty: "0, 1, 0; 0, 0, 0; 0, 0, 1", sysfs: [("mount_matrix", rotated)],
                    devicePath: "/sys/devices/x/iio:device0"))
        else {
            Issue.record("accepted a matrix with a zero row")
            return
        }
        #expect(error.kind == .invalidValue)
        #expect(
            error.message
                == "udev property ACCEL_MOUNT_MATRIX of /sys/devices/x/iio:device0: invalid mount matrix "
                + "'0, 1, 0; 0, 0, 0; 0, 0, 1': row 2 is all zeros; correct the hwdb entry or udev rule that sets "
                + "it, or override it with [Device] MountMatrix=")
    }

    @Test func sysfsAttributesAreConsultedInKernelOrder() {
        #expect(MountMatrixSource.sysfsAttributes == ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"])
    }
}

@Suite struct CaptureSamplingFrequencyChoice {
    let kxcjk = "0.781000 1.563000 3.125000 6.250000 12.500000 25 50 100 200 400 800 1600\n"

    @Test func parsesTheListAsPrinted() throws {
        guard case .list(let values)? = AvailableFrequencies.parse(kxcjk) else {
            Issue.record("did not parse the kxcjk list")
            return
        }
        #expect(values.count == 12)
        #expect(values[0] == FrequencyValue(value: 0.781, text: "0.781000"))
        #expect(values[5] == FrequencyValue(value: 25, text: "25"))
    }

    @Test func parsesARange() {
        #expect(AvailableFrequencies.parse("[1 1 200]") == .range(minimum: 1, step: 1, maximum: 200))
        #expect(AvailableFrequencies.parse("[0.5 0.25 100]\n") == .range(minimum: 0.5, step: 0.25, maximum: 100))
    }

    @Test(arguments: ["", "fast slow", "[1 2]", "[1 1 200", "10 -5", "[5 1 2]"])
    func rejectsMalformedLists(_ text: String) {
        #expect(AvailableFrequencies.parse(text) == nil)
    }

    @Test func picksTheLowestAvailableValueAtOrAboveTheRate() {
        let available = AvailableFrequencies.parse(kxcjk)
        #expect(
            SamplingFrequencyChoice.choose(current: 12.5, wanted: 50, available: available)
                == FrequencyValue(value: 50, text: "50"))
        #expect(SamplingFrequencyChoice.choose(current: 12.5, wanted: 30, available: available)?.text == "50")
    }

    @Test func readsUnsortedListsLikeSTAccelerometers() {
        let lis3dh = AvailableFrequencies.parse("1 10 25 50 100 200 400 1600 5000 1344")
        #expect(SamplingFrequencyChoice.choose(current: 1, wanted: 60, available: lis3dh)?.text == "100")
        #expect(SamplingFrequencyChoice.choose(current: 1, wanted: 50, available: lis3dh)?.text == "50")
    }

    @Test func takesTheHighestWhenNothingIsFastEnough() {
        let slow = AvailableFrequencies.parse("1 5 12.5")
        #expect(SamplingFrequencyChoice.choose(current: 1, wanted: 50, available: slow)?.text == "12.5")
        #expect(SamplingFrequencyChoice.choose(current: 12.5, wanted: 50, available: slow) == nil)
    }

    @Test func leavesAFastEnoughDeviceAlone() {
        let available = AvailableFrequencies.parse(kxcjk)
        #expect(SamplingFrequencyChoice.choose(current: 100, wanted: 50, available: available) == nil)
        #expect(SamplingFrequencyChoice.choose(current: 50, wanted: 50, available: available) == nil)
    }

    @Test func stepsThroughARange() {
        let range = AvailableFrequencies.range(minimum: 1, step: 3, maximum: 100)
        #expect(SamplingFrequencyChoice.choose(current: 0, wanted: 50, available: range)?.value == 52)
        #expect(SamplingFrequencyChoice.choose(current: 0, wanted: 500, available: range)?.value == 100)
        #expect(
            SamplingFrequencyChoice.choose(current: 0, wanted: 0.5, available: range) == FrequencyValue(value: 1))
    }

    @Test func writesTheRateItselfWithoutAList() {
        // HID sensor hubs: any rate, 0 until someone asks.
        #expect(
            SamplingFrequencyChoice.choose(current: 0, wanted: 50, available: nil)
                == FrequencyValue(value: 50, text: "50"))
        #expect(SamplingFrequencyChoice.choose(current: 0, wanted: 12.5, available: nil)?.text == "12.5")
    }

    @Test func stepsToTheNextListedValue() {
        let lis3dh = AvailableFrequencies.parse("1 10 25 50 100 200 400 1600 \n")
        #expect(SamplingFrequencyChoice.next(above: 50, available: lis3dh)?.text == "100")
        #expect(SamplingFrequencyChoice.next(above: 400, available: lis3dh)?.text == "1600")
        #expect(SamplingFrequencyChoice.next(above: 1600, available: lis3dh) == nil)
        #expect(SamplingFrequencyChoice.next(above: 50, available: nil) == nil)
        let range = AvailableFrequencies.range(minimum: 10, step: 5, maximum: 30)
        #expect(SamplingFrequencyChoice.next(above: 12, available: range)?.value == 15)
        #expect(SamplingFrequencyChoice.next(above: 15, available: range)?.value == 20)
        #expect(SamplingFrequencyChoice.next(above: 1, available: range)?.value == 10)
        #expect(SamplingFrequencyChoice.next(above: 30, available: range) == nil)
    }

    @Test func writesPlainDecimalsDriversAccept() {
        #expect(FrequencyValue.plainText(100) == "100")
        #expect(FrequencyValue.plainText(0.781) == "0.781")
        #expect(FrequencyValue.plainText(1e-5) == "0.00001")
        #expect(FrequencyValue.plainText(1600.5) == "1600.5")
    }
}

@Suite struct CaptureTriggerChoice {
    @Test func namesTheOwnTriggerAsDriversRegisterIt() {
        #expect(BufferTrigger.ownTriggerName(deviceName: "accel_3d", sysName: "iio:device0") == "accel_3d-dev0")
        #expect(BufferTrigger.ownTriggerName(deviceName: "kxcj91008", sysName: "iio:device12") == "kxcj91008-dev12")
        #expect(BufferTrigger.ownTriggerName(deviceName: "x", sysName: "trigger0") == nil)
    }

    @Test func keepsTheCurrentTrigger() {
        #expect(
            BufferTrigger.decide(currentTrigger: "accel_3d-dev0\n", ownName: "accel_3d-dev0", existingTriggers: [])
                == .current("accel_3d-dev0"))
    }

    @Test func setsTheOwnTriggerWhenNoneIsSetAndItExists() {
        let trigger = BufferTrigger.decide(
            currentTrigger: "", ownName: "bmc150_accel-dev1",
            existingTriggers: ["bmc150_accel-any-motion-dev1", "bmc150_accel-dev1"])
        #expect(trigger == .own("bmc150_accel-dev1"))
        #expect(trigger.nameToSet == "bmc150_accel-dev1")
    }

    @Test func listsTriggersOnlyWhenNoneIsSet() {
        var listed = false
        func triggers() -> [DeviceText] {
            listed = true
            return []
        }
        _ = BufferTrigger.decide(
            currentTrigger: "accel_3d-dev0", ownName: "accel_3d-dev0", existingTriggers: triggers())
        #expect(!listed)
        _ = BufferTrigger.decide(currentTrigger: "", ownName: "accel_3d-dev0", existingTriggers: triggers())
        #expect(listed)
    }

    @Test func hasNoUsableTriggerWithoutOne() {
        // i2c devices without an interrupt register no trigger of their own.
        let trigger = BufferTrigger.decide(currentTrigger: "", ownName: "lis3dh-dev0", existingTriggers: [])
        #expect(trigger == .unavailable)
        #expect(!trigger.isUsable)
    }

    @Test func needsNoTriggerWithoutATriggerDirectory() {
        #expect(BufferTrigger.decide(currentTrigger: nil, ownName: "x-dev0", existingTriggers: []) == .notNeeded)
    }
}

@Suite struct CaptureScanTimestamps {
    let now: Int64 = 5_000_000_000_000

    @Test func keepsMonotonicStampsAsTheyAre() {
        let stamp = now - 20_000_000
        #expect(ScanTimestamps.daemonClockSeconds(timestamp: stamp, offset: 0, now: now, fallback: -1) == 4999.98)
    }

    @Test func shiftsRealtimeStampsByTheClockOffset() {
        let realtimeNow: Int64 = 1_700_000_000_000_000_000
        let offset = now - realtimeNow
        let seconds = ScanTimestamps.daemonClockSeconds(
            timestamp: realtimeNow - 40_000_000, offset: offset, now: now, fallback: -1)
        #expect(abs(seconds - 4999.96) < 1e-9)
    }

    @Test func clampsSlightlyFutureStampsToNow() {
        #expect(
            ScanTimestamps.daemonClockSeconds(timestamp: now + 1_000_000, offset: 0, now: now, fallback: -1) == 5000)
    }

    @Test func replacesStampsInAnotherTimebase() {
        // A hub counting from its own start, or a stamp far in the future.
        #expect(ScanTimestamps.daemonClockSeconds(timestamp: 1234, offset: 0, now: now, fallback: 4999.5) == 4999.5)
        #expect(
            ScanTimestamps.daemonClockSeconds(timestamp: now + 1_000_000_000, offset: 0, now: now, fallback: 7) == 7)
        #expect(ScanTimestamps.daemonClockSeconds(timestamp: .max, offset: .max, now: now, fallback: 7) == 7)
    }
}

@Suite struct CaptureRawReadBackoff {
    @Test func treatsBusyAndTimeoutsAsRefusalsAndEverythingElseAsFailure() {
        #expect(RawReadBackoff.isRefusal(.resourceBusy))
        #expect(RawReadBackoff.isRefusal(.tryAgain))
        #expect(RawReadBackoff.isRefusal(.timedOut))
        #expect(!RawReadBackoff.isRefusal(.noSuchDevice))
        #expect(!RawReadBackoff.isRefusal(.ioError))
        #expect(!RawReadBackoff.isRefusal(.invalidArgument))
    }

    @Test func waitsASecondAndReportsOnlyTheFirstRefusal() {
        var backoff = RawReadBackoff()
        #expect(backoff.retryTime(at: 10) == nil)
        #expect(backoff.refused(at: 10) == (until: 11, isNew: true))
        #expect(backoff.retryTime(at: 10.5) == 11)
        #expect(backoff.retryTime(at: 11) == nil)
        #expect(backoff.refused(at: 11) == (until: 12, isNew: false))
        let ended = backoff.succeeded()
        #expect(ended)
        #expect(backoff.retryTime(at: 11.5) == nil)
        let endedAgain = backoff.succeeded()
        #expect(!endedAgain)
        #expect(backoff.refused(at: 20).isNew)
    }
}

@Suite struct SysfsAttributeText {
    /// Linux 6.1's current_timestamp_clock reads "realtime\n\0".
    @Test func dropsLineEndsAndATrailingNul() {
        #expect(SysfsAttribute.trimmed("realtime\n\0") == "realtime")
        #expect(SysfsAttribute.trimmed(" 12.500000\n") == "12.500000")
        #expect(SysfsAttribute.trimmed("a b") == "a b")
    }

    @Test func readsAnAttributeEndingInNulAsItsValue() throws {
        var template = Array("/tmp/tiltscroll-attr-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        #expect(fd >= 0)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }
        let bytes: [UInt8] = Array("monotonic\n".utf8) + [0]
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(try SysfsAttribute.read(path) == "monotonic")
        #expect(KernelClock(rawValue: try SysfsAttribute.read(path).unescaped) == .monotonic)
    }
}
