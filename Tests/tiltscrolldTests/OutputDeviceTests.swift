import CEvdev
import Foundation
import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// Whether this machine lets the tests create uinput devices (the QEMU
/// testbed does, where the real-kernel scenario swift-uinput runs the
/// suites that need it; development containers have no /dev/uinput).
let uinputAvailable = access("/dev/uinput", R_OK | W_OK) == 0

/// Reads the (type, code, value) of every event queued on a non-blocking evdev descriptor.
func readEvents(_ fd: Int32) -> [[Int32]] {
    var events: [[Int32]] = []
    var record = input_event()
    while read(fd, &record, MemoryLayout<input_event>.size) == MemoryLayout<input_event>.size {
        events.append([Int32(record.type), Int32(record.code), record.value])
    }
    return events
}

func sysfsText(_ path: String) -> String? {
    (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite struct ScrollDeviceErrors {
    @Test func creationErrorsSayWhatToDo() {
        let missing = ScrollDevice.creationError(code: .noSuchFileOrDirectory)
        #expect(missing == .uinputMissing)
        #expect(missing.description.contains("modprobe uinput"))
        let denied = ScrollDevice.creationError(code: .permissionDenied)
        #expect(denied == .permissionDenied(path: "/dev/uinput", access: OutputError.uinputAccess))
        #expect(
            denied.description.hasPrefix(
                "permission denied opening /dev/uinput: tiltscrolld needs read and write access"))
        #expect(ScrollDevice.creationError(code: .notPermitted) == denied)
        #expect(
            ScrollDevice.creationError(code: .invalidArgument)
                == .system(SystemError(code: .invalidArgument, operation: "create uinput device on /dev/uinput")))
    }

    @Test(.enabled(if: access("/dev/uinput", F_OK) != 0, "this machine has /dev/uinput"))
    func withoutUinputCreationAsksForTheModule() {
        #expect(throws: OutputError.uinputMissing) { try ScrollDevice.create(horizontal: false) }
    }
}

/// The real kernel round trip: runs where /dev/uinput is usable (the QEMU testbed).
@Suite(.enabled(if: uinputAvailable, "needs a writable /dev/uinput"), .serialized)
struct ScrollDeviceOnTheKernel {
    @Test func declaresOnlyTheVerticalWheel() throws {
        let device = try ScrollDevice.create(horizontal: false)
        defer { device.destroy() }
        let sysfs = try #require(device.sysfsPath)
        #expect(sysfsText("\(sysfs)/name") == "tiltscroll")
        #expect(sysfsText("\(sysfs)/id/bustype") == "0006")
        #expect(sysfsText("\(sysfs)/id/vendor") == "7469")
        #expect(sysfsText("\(sysfs)/id/product") == "6c74")
        #expect(sysfsText("\(sysfs)/capabilities/ev") == "5")  // EV_SYN, EV_REL
        #expect(sysfsText("\(sysfs)/capabilities/rel") == "900")  // REL_WHEEL, REL_WHEEL_HI_RES
        #expect(sysfsText("\(sysfs)/capabilities/key") == "0")
        let node = try #require(device.deviceNode)
        #expect(node.hasPrefix("/dev/input/event"))
    }

    @Test func declaresTheHorizontalWheelWhenAsked() throws {
        let device = try ScrollDevice.create(horizontal: true)
        defer { device.destroy() }
        let sysfs = try #require(device.sysfsPath)
        #expect(sysfsText("\(sysfs)/capabilities/rel") == "1940")  // + REL_HWHEEL, REL_HWHEEL_HI_RES
    }

    @Test func aReaderSeesExactlyTheFramesWritten() throws {
        let device = try ScrollDevice.create(horizontal: true)
        defer { device.destroy() }
        let node = try #require(device.deviceNode)
        let reader = open(node, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try device.emit(ScrollFrame(verticalHiRes: -60))
        try device.emit(ScrollFrame())
        try device.emit(ScrollFrame(verticalHiRes: -70, verticalDetents: -1, horizontalHiRes: 30))
        #expect(
            readEvents(reader) == [
                [EV_REL, REL_WHEEL_HI_RES, -60], [EV_SYN, SYN_REPORT, 0],
                [EV_REL, REL_WHEEL_HI_RES, -70], [EV_REL, REL_WHEEL, -1], [EV_REL, REL_HWHEEL_HI_RES, 30],
                [EV_SYN, SYN_REPORT, 0],
            ])
    }

    @Test func destroyRemovesTheDeviceAndIsIdempotent() throws {
        let device = try ScrollDevice.create(horizontal: false)
        let sysfs = try #require(device.sysfsPath)
        #expect(access(sysfs, F_OK) == 0)
        device.destroy()
        device.destroy()
        #expect(access(sysfs, F_OK) != 0)
        #expect(throws: OutputError.self) { try device.emit(ScrollFrame(verticalHiRes: 1)) }
    }

    @Test func ourOwnDeviceIsNeverATabletModeSwitch() throws {
        let device = try ScrollDevice.create(horizontal: false)
        defer { device.destroy() }
        let node = try #require(device.deviceNode)
        #expect(try TabletModeSwitch.open(deviceNode: DeviceText(node)) == nil)
    }
}
