import CLibevdev
import Foundation
import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct TabletSwitchDiscovery {
    @Test func picksEventNodesInNumericOrder() {
        let names = ["mice", "event10", "event2", "mouse0", "event0", "eventX", "event", "by-path", "event-1"]
        #expect(TabletModeSwitch.eventNodeNames(names) == ["event0", "event2", "event10"])
    }

    @Test func aMissingInputDirectoryHasNoSwitches() {
        #expect(TabletModeSwitch.scan(directory: "/nonexistent/input").isEmpty)
    }

    @Test func nodesThatAreNotInputDevicesAreSkipped() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("event0", Array("not a device".utf8))
        _ = try scratch.write("event1", [])
        #expect(TabletModeSwitch.scan(directory: scratch.path).isEmpty)
    }

    @Test func openingAVanishedNodeSaysTheDeviceIsGone() {
        let node: DeviceText = "/nonexistent/input/event7"
        #expect(throws: InputDeviceError.deviceGone(path: node)) { try TabletModeSwitch.open(deviceNode: node) }
    }

    @Test func openingAFileThatIsNoInputDeviceSaysSo() throws {
        let scratch = try ScratchDirectory()
        let path = DeviceText(try scratch.write("event3", Array("x".utf8)))
        #expect(throws: InputDeviceError.notAnInputDevice(path: path)) {
            try TabletModeSwitch.open(deviceNode: path)
        }
    }

    @Test func permissionProblemsSayWhatIsNeeded() {
        let error = TabletModeSwitch.openError(
            SystemError(code: .permissionDenied, operation: "open"), path: "/dev/input/event4")
        #expect(error == .permissionDenied(path: "/dev/input/event4"))
        #expect(
            error.description.hasPrefix("permission denied opening /dev/input/event4: tiltscrolld needs read access"))
    }
}

/// A uinput device with switches, standing in for intel-vbtn and friends.
final class FakeSwitchDevice {
    let handle: OpaquePointer
    let node: String

    init(name: String, switches: [Int32]) throws {
        let template = libevdev_new()!
        defer { libevdev_free(template) }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, BUS_HOST)
        libevdev_enable_event_type(template, UInt32(EV_SW))
        for code in switches { libevdev_enable_event_code(template, UInt32(EV_SW), UInt32(code), nil) }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard rc == 0, let created, let node = libevdev_uinput_get_devnode(created) else {
            throw SystemError(code: Errno(rawValue: -rc), operation: "create fake switch")
        }
        handle = created
        self.node = String(cString: node)
    }

    deinit { libevdev_uinput_destroy(handle) }

    func set(_ code: Int32, _ value: Int32) {
        libevdev_uinput_write_event(handle, UInt32(EV_SW), UInt32(code), value)
        libevdev_uinput_write_event(handle, UInt32(EV_SYN), UInt32(SYN_REPORT), 0)
    }
}

@Suite(.enabled(if: uinputAvailable, "needs a writable /dev/uinput"), .serialized)
struct TabletSwitchOnTheKernel {
    @Test func findsASwitchByCapabilityAndReadsItsState() throws {
        let fake = try FakeSwitchDevice(name: "Intel Virtual Switches", switches: [SW_TABLET_MODE, SW_DOCK])
        fake.set(SW_TABLET_MODE, 1)
        let found = try #require(try TabletModeSwitch.open(deviceNode: DeviceText(fake.node)))
        defer { found.close() }
        #expect(found.name == "Intel Virtual Switches")
        #expect(found.deviceNode == DeviceText(fake.node))
        #expect(found.isTabletMode)
        #expect(TabletModeSwitch.scan().contains { $0.deviceNode == DeviceText(fake.node) })
    }

    @Test func aSwitchNamedWithTerminalEscapesIsShownEscaped() throws {
        // A USB device names itself; the kernel passes the name on as it is.
        let fake = try FakeSwitchDevice(name: "switch\u{1B}]0;owned\u{07}\u{1B}[2J", switches: [SW_TABLET_MODE])
        let found = try #require(try TabletModeSwitch.open(deviceNode: DeviceText(fake.node)))
        defer { found.close() }
        #expect(found.name.bytes == Array("switch\u{1B}]0;owned\u{07}\u{1B}[2J".utf8))
        #expect("\(found.name)" == "switch\\x1b]0;owned\\x07\\x1b[2J")
    }

    @Test func aDeviceWithOtherSwitchesIsNotOne() throws {
        let lid = try FakeSwitchDevice(name: "Lid Switch", switches: [SW_LID])
        #expect(try TabletModeSwitch.open(deviceNode: DeviceText(lid.node)) == nil)
        #expect(!TabletModeSwitch.scan().contains { $0.deviceNode == DeviceText(lid.node) })
    }

    @Test func drainReportsChangesOnlyWhenTheStateChanges() throws {
        let fake = try FakeSwitchDevice(name: "switch", switches: [SW_TABLET_MODE])
        let found = try #require(try TabletModeSwitch.open(deviceNode: DeviceText(fake.node)))
        defer { found.close() }
        #expect(!found.isTabletMode)
        #expect(try found.drain() == false)
        fake.set(SW_TABLET_MODE, 1)
        #expect(try found.drain() == true)
        #expect(found.isTabletMode)
        fake.set(SW_TABLET_MODE, 1)  // the kernel drops a repeated state
        #expect(try found.drain() == false)
        fake.set(SW_TABLET_MODE, 0)
        fake.set(SW_TABLET_MODE, 1)
        fake.set(SW_TABLET_MODE, 0)
        #expect(try found.drain() == true)
        #expect(!found.isTabletMode)
    }

    /// Flooding the reader's buffer makes the kernel throw away everything
    /// queued, the tablet-mode change included, and send SYN_DROPPED: only
    /// the resync can tell that the machine is now a tablet.
    @Test func resyncsAfterDroppedEvents() throws {
        let fake = try FakeSwitchDevice(name: "switch", switches: [SW_TABLET_MODE, SW_DOCK])
        let found = try #require(try TabletModeSwitch.open(deviceNode: DeviceText(fake.node)))
        defer { found.close() }
        fake.set(SW_TABLET_MODE, 1)
        for i in 0..<2000 { fake.set(SW_DOCK, Int32(1 - i % 2)) }
        #expect(try found.drain() == true)
        #expect(found.isTabletMode)
    }

    @Test func anUnpluggedSwitchIsGone() throws {
        var fake: FakeSwitchDevice? = try FakeSwitchDevice(name: "switch", switches: [SW_TABLET_MODE])
        let found = try #require(try TabletModeSwitch.open(deviceNode: DeviceText(fake!.node)))
        defer { found.close() }
        fake = nil
        #expect(throws: InputDeviceError.deviceGone(path: found.deviceNode)) { try found.drain() }
        found.close()
        found.close()
        #expect(throws: InputDeviceError.deviceGone(path: found.deviceNode)) { try found.drain() }
    }
}
