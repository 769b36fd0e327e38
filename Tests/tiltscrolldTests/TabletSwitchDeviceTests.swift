import CLibevdev
import Foundation
import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct TabletSwitchDeviceErrors {
    @Test(.enabled(if: access("/dev/uinput", F_OK) != 0, "this machine has /dev/uinput"))
    func withoutUinputCreationAsksForTheModule() {
        #expect(throws: OutputError.uinputMissing) { try TabletSwitchDevice.create(tabletMode: true) }
    }

    @Test func itsIdsAreTiltscrollsWithAProductOfItsOwn() {
        #expect(TabletSwitchDevice.vendorID == ScrollDevice.vendorID)
        #expect(TabletSwitchDevice.busType == ScrollDevice.busType)
        #expect(TabletSwitchDevice.productID != ScrollDevice.productID)
    }
}

/// The published switch on the real kernel's uinput, read back as the
/// daemon (`MachineSwitch`) and libinput read a firmware's switch: runs
/// where /dev/uinput is usable (the QEMU testbed, scenario swift-uinput).
@Suite(.enabled(if: uinputAvailable, "needs a writable /dev/uinput"), .serialized)
struct TabletSwitchDeviceOnTheKernel {
    @Test func declaresOnlyTheTabletModeSwitch() throws {
        let device = try TabletSwitchDevice.create(tabletMode: false)
        defer { device.destroy() }
        let sysfs = try #require(device.sysfsPath)
        #expect(sysfsText("\(sysfs)/name") == "tiltscroll tablet-mode switch")
        #expect(sysfsText("\(sysfs)/id/bustype") == "0006")
        #expect(sysfsText("\(sysfs)/id/vendor") == "7469")
        #expect(sysfsText("\(sysfs)/id/product") == "7473")
        #expect(sysfsText("\(sysfs)/capabilities/ev") == "21")  // EV_SYN, EV_SW
        #expect(sysfsText("\(sysfs)/capabilities/sw") == "2")  // SW_TABLET_MODE
        #expect(sysfsText("\(sysfs)/capabilities/key") == "0")
        #expect(sysfsText("\(sysfs)/capabilities/rel") == "0")
        let node = try #require(device.deviceNode)
        #expect(node.hasPrefix("/dev/input/event"))
    }

    /// Created folded: whoever opens it afterwards reads tablet mode
    /// (`EVIOCGSW`, as libinput does).
    @Test func createdInTabletModeItReadsAsATablet() throws {
        for mode in [true, false] {
            let device = try TabletSwitchDevice.create(tabletMode: mode)
            defer { device.destroy() }
            #expect(device.isTabletMode == mode)
            let node = try #require(device.deviceNode)
            let reader = try EvdevNode.open(DeviceText(node))
            defer { reader.close() }
            #expect(reader.value(EV_SW, SW_TABLET_MODE) == (mode ? 1 : 0))
            #expect(reader.name == "tiltscroll tablet-mode switch")
        }
    }

    /// The daemon reads the machine's switches, never its own: read back,
    /// the published switch would take precedence over the hinge it follows.
    @Test func theDaemonNeverTakesItForTheMachinesSwitch() throws {
        let device = try TabletSwitchDevice.create(tabletMode: true)
        defer { device.destroy() }
        let node = DeviceText(try #require(device.deviceNode))
        #expect(try EvdevNode.open(node).isTiltscrollDevice)
        #expect(try MachineSwitch.open(deviceNode: node, .tabletMode) == nil)
        #expect(!MachineSwitch.scan([.tabletMode, .lid]).contains { $0.deviceNode == node })
        // A firmware's switch beside it is still found.
        let firmware = try FakeSwitchDevice(name: "Intel HID switches", switches: [SW_TABLET_MODE])
        let found = try #require(try MachineSwitch.open(deviceNode: DeviceText(firmware.node), .tabletMode))
        found.close()
    }

    /// Each change is one switch event and its SYN_REPORT; setting the
    /// state it has writes nothing.
    @Test func aReaderSeesOneEventPerChange() throws {
        let device = try TabletSwitchDevice.create(tabletMode: false)
        defer { device.destroy() }
        let node = try #require(device.deviceNode)
        let reader = open(node, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try device.set(tabletMode: true)
        try device.set(tabletMode: true)
        try device.set(tabletMode: false)
        try device.set(tabletMode: false)
        try device.set(tabletMode: true)
        #expect(
            readEvents(reader) == [
                [EV_SW, SW_TABLET_MODE, 1], [EV_SYN, SYN_REPORT, 0],
                [EV_SW, SW_TABLET_MODE, 0], [EV_SYN, SYN_REPORT, 0],
                [EV_SW, SW_TABLET_MODE, 1], [EV_SYN, SYN_REPORT, 0],
            ])
        #expect(device.isTabletMode)
    }

    /// An evdev reader (libevdev, as libinput reads switches) follows it
    /// like a firmware's switch.
    @Test func anEvdevReaderFollowsEveryChange() throws {
        let device = try TabletSwitchDevice.create(tabletMode: false)
        defer { device.destroy() }
        let node = try #require(device.deviceNode)
        let reader = try EvdevNode.open(DeviceText(node))
        defer { reader.close() }
        func drained() throws -> [Int32] {
            var values: [Int32] = []
            try reader.drain { type, code, value in
                if type == UInt16(EV_SW), code == UInt16(SW_TABLET_MODE) { values.append(value) }
            }
            return values
        }
        #expect(reader.value(EV_SW, SW_TABLET_MODE) == 0)
        #expect(try drained() == [])
        try device.set(tabletMode: true)
        #expect(try drained() == [1])
        #expect(reader.value(EV_SW, SW_TABLET_MODE) == 1)
        try device.set(tabletMode: false)
        try device.set(tabletMode: true)
        try device.set(tabletMode: false)
        #expect(try drained() == [0, 1, 0])
        #expect(reader.value(EV_SW, SW_TABLET_MODE) == 0)
    }

    @Test func destroyRemovesTheSwitchAndIsIdempotent() throws {
        let device = try TabletSwitchDevice.create(tabletMode: true)
        let sysfs = try #require(device.sysfsPath)
        let node = try #require(device.deviceNode)
        let reader = try EvdevNode.open(DeviceText(node))
        defer { reader.close() }
        #expect(access(sysfs, F_OK) == 0)
        device.destroy()
        device.destroy()
        #expect(device.isDestroyed)
        #expect(access(sysfs, F_OK) != 0)
        #expect(throws: OutputError.deviceGone(path: node)) { try device.set(tabletMode: false) }
        #expect(throws: InputDeviceError.deviceGone(path: DeviceText(node))) { try reader.drain { _, _, _ in } }
    }
}
