import Foundation
import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

private let sample = CalibrationRecord(
    deviceName: "accel_3d",
    devicePath: "/sys/devices/pci0000:00/0000:00:12.0/HID-SENSOR-200073.2.auto/iio:device0",
    neutral: Vector3(0, -0.7071067811865476, -0.7071067811865476))

private func text(neutral: String, version: String = "1") -> String {
    """
    version=\(version)
    device-name=accel_3d
    device-path=/sys/devices/platform/accel/iio:device0
    neutral=\(neutral)
    """
}

private func problem(_ text: String) -> RecordFormatError? {
    thrownError(RecordFormatError.self, try CalibrationFormat.parse(text))
}

@Suite struct ServiceCalibrationFormat {
    @Test(arguments: [
        Vector3(0, -1, 0), Vector3(0, 0, -1), Vector3(0.6, 0, -0.8), Vector3(1e-9, -1, 0).normalized!,
        Vector3(-0.0, 0.5773502691896258, -0.5773502691896258 * 2).normalized!,
    ])
    func formatThenParseGivesTheSameRecord(neutral: Vector3) throws {
        var record = sample
        record.neutral = neutral
        let parsed = try CalibrationFormat.parse(CalibrationFormat.format(record))
        #expect(parsed == record)
    }

    @Test func writesTheDocumentedFormat() {
        #expect(
            CalibrationFormat.format(sample) == """
                # tiltscroll calibration (tiltscrolld(8), FILES); written by tiltscrolld
                version=1
                device-name=accel_3d
                device-path=/sys/devices/pci0000:00/0000:00:12.0/HID-SENSOR-200073.2.auto/iio:device0
                neutral=0.0 -0.7071067811865476 -0.7071067811865476

                """)
    }

    @Test func readsCommentsBlankLinesSpacesAndCRLF() throws {
        let file =
            "# saved\r\n\r\n version = 1 \r\ndevice-name=lis3dh-accel\r\n"
            + "device-path=/sys/devices/platform/lis3dh/iio:device2\r\n  neutral =  0\t-1 0  \r\n"
        let record = try CalibrationFormat.parse(file)
        #expect(record.deviceName == "lis3dh-accel")
        #expect(record.devicePath == "/sys/devices/platform/lis3dh/iio:device2")
        #expect(record.neutral == Vector3(0, -1, 0))
    }

    @Test func rejectsAComponentThatIsNotANumber() {
        #expect(
            problem(text(neutral: "0 -1 abc"))
                == RecordFormatError(line: 4, message: "'abc' is not a finite decimal number"))
    }

    @Test(arguments: ["nan -1 0", "0 inf 0", "0 -1 -infinity", "0x0 -1 0", "0 -1 1e999"])
    func rejectsNonFiniteAndNonDecimalComponents(neutral: String) {
        #expect(problem(text(neutral: neutral))?.line == 4)
    }

    @Test(arguments: [("0 -1", 2), ("0 -1 0 0", 4), ("", 0), ("0,-1,0", 1)])
    func rejectsTheWrongNumberOfComponents(neutral: String, count: Int) {
        #expect(
            problem(text(neutral: neutral))
                == RecordFormatError(line: 4, message: "neutral needs 3 numbers, got \(count)"))
    }

    @Test(arguments: ["0 0 2", "0 0 0", "0.5 0.5 0", "0 -0.99 0"])
    func rejectsAVectorThatIsNotUnitLength(neutral: String) {
        let error = problem(text(neutral: neutral))
        #expect(error?.line == 4)
        #expect(error?.message.hasPrefix("neutral is not a unit vector") == true)
    }

    @Test func acceptsASmallRoundingErrorInTheLength() throws {
        let record = try CalibrationFormat.parse(text(neutral: "0 -0.9999 0"))
        #expect(record.neutral == Vector3(0, -0.9999, 0))
    }

    @Test func rejectsAnotherVersion() {
        #expect(problem(text(neutral: "0 -1 0", version: "2"))?.line == 1)
        #expect(problem(text(neutral: "0 -1 0", version: "one"))?.line == 1)
    }

    @Test func rejectsMissingDuplicateAndUnknownKeys() {
        #expect(
            problem("version=1\ndevice-name=a\nneutral=0 -1 0\n")
                == RecordFormatError(message: "'device-path' is missing"))
        #expect(problem(text(neutral: "0 -1 0") + "\nneutral=0 0 -1")?.line == 5)
        #expect(
            problem("colour=blue\n" + text(neutral: "0 -1 0"))
                == RecordFormatError(line: 1, message: "unknown key 'colour'"))
    }

    @Test(arguments: [
        "", "\u{0}\u{1}\u{2}garbage\u{7f}", "<html>not a calibration</html>", "[Scroll]\nSpeed=12\n",
        "version=1\ndevice-name=\ndevice-path=/sys/x\nneutral=0 -1 0",
        "version=1\ndevice-name=a\ndevice-path=/etc/passwd\nneutral=0 -1 0",
    ])
    func rejectsGarbageAndForeignFiles(content: String) {
        #expect(problem(content) != nil)
    }

    @Test func refusesToWriteARecordThatWouldNotReadBack() {
        var record = sample
        record.neutral = Vector3(.nan, 0, 0)
        #expect(CalibrationFormat.problem(with: record) != nil)
        record = sample
        record.deviceName = "two\nlines"
        #expect(CalibrationFormat.problem(with: record) != nil)
        record = sample
        record.devicePath = "relative/iio:device0"
        #expect(CalibrationFormat.problem(with: record) != nil)
        #expect(CalibrationFormat.problem(with: sample) == nil)
    }
}

@Suite struct ServiceCalibrationDeviceMatch {
    @Test func theIIOIndexMayChangeButNotThePhysicalDevice() {
        let record = CalibrationRecord(
            deviceName: "accel_3d", devicePath: "/sys/devices/platform/HID-SENSOR-200073.2.auto/iio:device0",
            neutral: Vector3(0, -1, 0))
        #expect(
            record.belongs(toDeviceNamed: "accel_3d", at: "/sys/devices/platform/HID-SENSOR-200073.2.auto/iio:device3"))
        #expect(
            record.belongs(toDeviceNamed: "accel_3d", at: "/sys/devices/platform/HID-SENSOR-200073.2.auto/iio:device0/")
        )
        #expect(
            !record.belongs(toDeviceNamed: "accel_3d", at: "/sys/devices/platform/HID-SENSOR-200073.3.auto/iio:device0")
        )
        #expect(
            !record.belongs(
                toDeviceNamed: "bmc150_accel", at: "/sys/devices/platform/HID-SENSOR-200073.2.auto/iio:device0"))
    }

    @Test func physicalDeviceDropsOnlyAnIIODeviceComponent() {
        #expect(CalibrationRecord.physicalDevice(of: "/sys/devices/a/iio:device12") == "/sys/devices/a")
        #expect(CalibrationRecord.physicalDevice(of: "/sys/devices/a/iio:devicex") == "/sys/devices/a/iio:devicex")
        #expect(CalibrationRecord.physicalDevice(of: "/sys/devices/a/b") == "/sys/devices/a/b")
    }
}

@Suite struct ServiceCalibrationStore {
    @Test func savesAndLoadsBackTheSameRecord() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let store = CalibrationStore(directory: directory.path)
        try store.save(sample)
        #expect(store.load() == .loaded(sample))
        #expect(directory.entries() == ["calibration"])
        #expect(directory.permissions("calibration") == 0o644 & ~Int(currentUmask()))
    }

    @Test func aNewSaveReplacesTheOldOne() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let store = CalibrationStore(directory: directory.path)
        try store.save(sample)
        var newer = sample
        newer.neutral = Vector3(0, 0, -1)
        try store.save(newer)
        #expect(store.load() == .loaded(newer))
        #expect(directory.entries() == ["calibration"])
    }

    @Test func createsItsOwnDirectoryButNotItsParents() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try CalibrationStore(directory: directory.path + "/state").save(sample)
        #expect(directory.permissions("state") == 0o700 & ~Int(currentUmask()))
        let deep = CalibrationStore(directory: directory.path + "/missing/state")
        guard let error = thrownError(SystemError.self, try deep.save(sample)) else {
            Issue.record("saving under a missing parent succeeded")
            return
        }
        #expect(error.code == .noSuchFileOrDirectory)
    }

    @Test func aRejectedRecordLeavesThePreviousFileIntact() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let store = CalibrationStore(directory: directory.path)
        try store.save(sample)
        var bad = sample
        bad.neutral = Vector3(0, 0, 3)
        guard let error = thrownError(SystemError.self, try store.save(bad)) else {
            Issue.record("a non-unit neutral was saved")
            return
        }
        #expect(error.code == .invalidArgument)
        #expect(store.load() == .loaded(sample))
        #expect(directory.entries() == ["calibration"])
    }

    @Test func aMissingFileIsNotAProblem() {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let store = CalibrationStore(directory: directory.path)
        #expect(store.load() == .missing)
        #expect(store.neutralPose(forDeviceNamed: "accel_3d", at: DeviceText(sample.devicePath)) == nil)
    }

    @Test func aCorruptFileIsUnusableAndNamedInTheMessage() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try directory.write("calibration", text(neutral: "0 -1 NaN"))
        let store = CalibrationStore(directory: directory.path)
        guard case .unusable(let message) = store.load() else {
            Issue.record("a corrupt file was accepted")
            return
        }
        #expect(message.contains(store.path))
        #expect(store.neutralPose(forDeviceNamed: "accel_3d", at: "/sys/devices/platform/accel/iio:device0") == nil)
    }

    @Test func anOversizedOrBinaryFileIsUnusable() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let store = CalibrationStore(directory: directory.path)
        try directory.write("calibration", String(repeating: "# padding\n", count: 1000) + text(neutral: "0 -1 0"))
        #expect(store.load() != .missing)
        #expect(store.neutralPose(forDeviceNamed: "accel_3d", at: "/sys/devices/platform/accel/iio:device0") == nil)
        let binary: [UInt8] = [0xFF, 0xFE, 0x00, 0x80]
        #expect(writeBytes(directory.path + "/calibration", binary))
        guard case .unusable = store.load() else {
            Issue.record("a binary file was accepted")
            return
        }
    }

    @Test func aPoseFromAnotherSensorIsNotUsed() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let store = CalibrationStore(directory: directory.path)
        try store.save(sample)
        #expect(store.neutralPose(forDeviceNamed: "accel_3d", at: DeviceText(sample.devicePath)) == sample.neutral)
        #expect(store.neutralPose(forDeviceNamed: "lis3dh-accel", at: DeviceText(sample.devicePath)) == nil)
    }

    @Test func theDirectoryComesFromStateDirectory() {
        #expect(StorageDirectory.state.path(environmentValue: nil) == "/var/lib/tiltscroll")
        #expect(StorageDirectory.state.path(environmentValue: "") == "/var/lib/tiltscroll")
        #expect(StorageDirectory.state.path(environmentValue: "/var/lib/tiltscroll") == "/var/lib/tiltscroll")
        #expect(StorageDirectory.state.path(environmentValue: "/state/a:/state/b") == "/state/a")
        #expect(StorageDirectory.state.path(environmentValue: "relative") == "/var/lib/tiltscroll")
    }
}

private func writeBytes(_ path: String, _ bytes: [UInt8]) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    defer { fclose(file) }
    return fwrite(bytes, 1, bytes.count, file) == bytes.count
}
