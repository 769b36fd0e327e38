import CLibevdev
import Foundation
import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

@Suite struct TouchContactRules {
    @Test func aSlotWithATrackingIDIsAContact() {
        #expect(TouchContact.inContact(keyDown: { _ in false }, trackingIDs: [-1, 7, -1]))
        #expect(!TouchContact.inContact(keyDown: { _ in false }, trackingIDs: [-1, -1]))
        #expect(TouchContact.inContact(keyDown: { _ in false }, trackingIDs: [0]))
        #expect(!TouchContact.inContact(keyDown: { _ in false }, trackingIDs: []))
    }

    @Test func touchAndAPenNearTheScreenAreContacts() {
        for key in [BTN_TOUCH, BTN_TOOL_PEN, BTN_TOOL_RUBBER] {
            #expect(TouchContact.inContact(keyDown: { $0 == Int32(key) }, trackingIDs: [-1]))
        }
        // A finger tool alone (a touchpad's) or a stylus button is no contact.
        for key in [BTN_TOOL_FINGER, BTN_STYLUS, BTN_LEFT] {
            #expect(!TouchContact.inContact(keyDown: { $0 == Int32(key) }, trackingIDs: []))
        }
    }
}

@Suite struct TouchLatchTransitions {
    @Test func theFirstContactBeginsAndTheLastEnds() {
        var latch = TouchLatch()
        #expect(latch.update(contactNow: false, contactSeen: false) == (false, false))
        #expect(latch.update(contactNow: true, contactSeen: true) == (true, false))
        #expect(latch.touching)
        #expect(latch.update(contactNow: true, contactSeen: true) == (false, false))
        #expect(latch.update(contactNow: false, contactSeen: true) == (false, true))
        #expect(!latch.touching)
        #expect(latch.update(contactNow: false, contactSeen: false) == (false, false))
    }

    @Test func aTapBetweenTwoLooksBeginsAndEnds() {
        var latch = TouchLatch()
        #expect(latch.update(contactNow: false, contactSeen: true) == (true, true))
        #expect(!latch.touching)
    }

    @Test func aLiftAndATouchBetweenTwoLooksChangeNothing() {
        var latch = TouchLatch()
        _ = latch.update(contactNow: true, contactSeen: true)
        #expect(latch.update(contactNow: true, contactSeen: true) == (false, false))
        #expect(latch.touching)
    }
}

@Suite struct TouchInputDiscovery {
    @Test func udevPropertiesGiveTheKind() {
        #expect(TouchInputKind(touchscreen: "1", tablet: nil) == .touchscreen)
        #expect(TouchInputKind(touchscreen: nil, tablet: "1") == .pen)
        #expect(TouchInputKind(touchscreen: "1", tablet: "1") == .touchscreen)
        #expect(TouchInputKind(touchscreen: "0", tablet: nil) == nil)
        #expect(TouchInputKind(touchscreen: nil, tablet: nil) == nil)
        #expect(TouchInputKind(touchscreen: "yes", tablet: "") == nil)
    }

    @Test func onlyEventNodesAreOpened() {
        #expect(TouchInputRecord.isEventNode("/dev/input/event0"))
        #expect(TouchInputRecord.isEventNode("/dev/input/event12"))
        for node: DeviceText in ["/dev/input/mouse2", "/dev/input/event", "/dev/input/event1x", "/dev/input/js0"] {
            #expect(!TouchInputRecord.isEventNode(node))
        }
    }

    @Test func aNodeThatIsNoInputDeviceIsSaidSo() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("event3", Array("x".utf8))
        let record = TouchInputRecord(
            sysfsPath: "/sys/devices/virtual/input/input3/event3", deviceNode: DeviceText(path), kind: .touchscreen)
        #expect(throws: InputDeviceError.notAnInputDevice(path: DeviceText(path))) { try TouchDevice.open(record) }
    }

    @Test func aVanishedNodeIsGone() {
        let record = TouchInputRecord(
            sysfsPath: "/sys/devices/virtual/input/input9/event9", deviceNode: "/nonexistent/input/event9",
            kind: .pen)
        #expect(throws: InputDeviceError.deviceGone(path: "/nonexistent/input/event9")) { try TouchDevice.open(record) }
    }
}

@Suite struct SensorResolution {
    @Test func isTheFinestScaleOfTheThreeAxes() {
        var c = AccelCalibration()
        c.x = AxisCalibration(scale: 0.019163, scaleAttribute: "in_accel_scale")
        c.y = AxisCalibration(scale: 0.009582, scaleAttribute: "in_accel_y_scale")
        c.z = AxisCalibration(scale: -0.019163, scaleAttribute: "in_accel_scale")
        #expect(c.resolution == 0.009582)
    }

    @Test func isUnknownWhenAnAxisHasNoScale() {
        var c = AccelCalibration()
        c.x = AxisCalibration(scale: 0.019163, scaleAttribute: "in_accel_scale")
        c.y = AxisCalibration(scale: 0.019163, scaleAttribute: "in_accel_scale")
        #expect(c.resolution == 0)
    }
}

@Suite struct TouchConfiguration {
    @Test func bothKeysDefaultToYesAndParse() throws {
        #expect(Configuration().scroll.pauseOnTouch && Configuration().scroll.zeroOnTouch)
        let c = try #require(parsed("[Scroll]\nPauseOnTouch=no\nZeroOnTouch=off\n"))
        #expect(!c.scroll.pauseOnTouch)
        #expect(!c.scroll.zeroOnTouch)
        let rendered = c.renderEffective()
        #expect(rendered.contains("\nPauseOnTouch=no\n"))
        #expect(rendered.contains("\nZeroOnTouch=no\n"))
        #expect(try Configuration.parse(rendered, file: "rendered.conf") == c)
    }

    @Test func aValueThatIsNoBooleanIsAnErrorOnItsLine() throws {
        let error = try #require(parseError("[Scroll]\n\nPauseOnTouch=sometimes\n"))
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("PauseOnTouch must be a boolean"))
    }
}

@Suite struct IntentStateShown {
    @Test func everyStateHasAReasonOfItsOwn() {
        let reasons = IntentState.allCases.map(\.reason)
        #expect(Set(reasons).count == IntentState.allCases.count)
        #expect(reasons.allSatisfy { !$0.isEmpty && !$0.contains("\n") })
    }

    @Test func theMonitorShowsTheState() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.feed(Vector3(0, -9.80665, 0), at: 0)
        engine.touch(true, at: 0.01)
        var record = MonitorRecord(state: "y", device: "x", settings: ScrollSettings())
        record.read(engine.readout)
        let lines = MonitorView.render(record, title: "tiltscrollctl monitor").split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("intent       touched: a finger or pen is on the screen") })
    }

    @Test func dryRunLinesSayAChangeOnceBetweenFrames() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.feed(Vector3(0, -9.80665, 0), at: 0)
        var printer = ReplayPrinter()
        var out = ""
        printer.writeChanges(engine.readout, at: 0, to: &out)
        #expect(out == "t=0.0000 event start orientation normal neutral set\n")
        engine.touch(true, at: 0.03)
        out = ""
        printer.write(
            ReplayStep(time: 0.03, event: .touch(touching: true), frame: nil, readout: engine.readout), to: &out)
        #expect(out == "t=0.0300 event intent touched\nt=0.0300 event touch begin\n")
        out = ""
        printer.writeChanges(engine.readout, at: 0.04, to: &out)
        #expect(out.isEmpty)
    }
}

/// A one-finger touchscreen (multitouch protocol B) or a pen, made with
/// uinput, standing in for a real one.
final class FakeTouchDevice {
    let handle: OpaquePointer
    let node: String
    private var tracking: Int32 = 0

    enum Kind { case touchscreen, pen, pad }

    init(name: String, kind: Kind) throws {
        let template = libevdev_new()!
        defer { libevdev_free(template) }
        libevdev_set_name(template, name)
        libevdev_set_id_bustype(template, BUS_VIRTUAL)
        libevdev_enable_event_type(template, UInt32(EV_KEY))
        libevdev_enable_event_type(template, UInt32(EV_ABS))
        func axis(_ code: Int32, max: Int32) {
            var info = input_absinfo(value: 0, minimum: 0, maximum: max, fuzz: 0, flat: 0, resolution: 10)
            libevdev_enable_event_code(template, UInt32(EV_ABS), UInt32(code), &info)
        }
        switch kind {
        case .touchscreen:
            libevdev_enable_property(template, UInt32(INPUT_PROP_DIRECT))
            libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(BTN_TOUCH), nil)
            axis(ABS_X, max: 4095)
            axis(ABS_Y, max: 4095)
            axis(ABS_MT_SLOT, max: 4)
            axis(ABS_MT_TRACKING_ID, max: 65535)
            axis(ABS_MT_POSITION_X, max: 4095)
            axis(ABS_MT_POSITION_Y, max: 4095)
        case .pen:
            libevdev_enable_property(template, UInt32(INPUT_PROP_DIRECT))
            for key in [BTN_TOUCH, BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_STYLUS] {
                libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(key), nil)
            }
            axis(ABS_X, max: 4095)
            axis(ABS_Y, max: 4095)
            axis(ABS_PRESSURE, max: 1023)
        case .pad:
            for key in [BTN_0, BTN_1, BTN_STYLUS] {
                libevdev_enable_event_code(template, UInt32(EV_KEY), UInt32(key), nil)
            }
            axis(ABS_X, max: 1)
            axis(ABS_Y, max: 1)
        }
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard rc == 0, let created, let node = libevdev_uinput_get_devnode(created) else {
            throw SystemError(code: Errno(rawValue: -rc), operation: "create fake touch device")
        }
        handle = created
        self.node = String(cString: node)
    }

    deinit { libevdev_uinput_destroy(handle) }

    var record: TouchInputRecord {
        TouchInputRecord(sysfsPath: "/sys/devices/virtual/input/test", deviceNode: DeviceText(node), kind: .touchscreen)
    }

    private func emit(_ type: Int32, _ code: Int32, _ value: Int32) {
        libevdev_uinput_write_event(handle, UInt32(type), UInt32(code), value)
    }

    private func frame() { emit(EV_SYN, SYN_REPORT, 0) }

    func fingerDown(x: Int32 = 100, y: Int32 = 200) {
        tracking += 1
        emit(EV_ABS, ABS_MT_SLOT, 0)
        emit(EV_ABS, ABS_MT_TRACKING_ID, tracking)
        move(x: x, y: y, frame: false)
        emit(EV_KEY, BTN_TOUCH, 1)
        frame()
    }

    func move(x: Int32, y: Int32, frame ends: Bool = true) {
        emit(EV_ABS, ABS_MT_POSITION_X, x)
        emit(EV_ABS, ABS_MT_POSITION_Y, y)
        emit(EV_ABS, ABS_X, x)
        emit(EV_ABS, ABS_Y, y)
        if ends { frame() }
    }

    func fingerUp() {
        emit(EV_ABS, ABS_MT_TRACKING_ID, -1)
        emit(EV_KEY, BTN_TOUCH, 0)
        frame()
    }

    /// A pen comes near the screen (`BTN_TOOL_PEN`), or goes away.
    func penNear(_ near: Bool) {
        emit(EV_KEY, BTN_TOOL_PEN, near ? 1 : 0)
        frame()
    }

    /// Enough frames to overflow any reader's buffer: the kernel drops what
    /// is queued and sends `SYN_DROPPED`.
    func flood() {
        for i in 0..<3000 { move(x: Int32(i % 4096), y: Int32((i * 7) % 4096)) }
    }
}

@Suite(.enabled(if: uinputAvailable, "needs a writable /dev/uinput"), .serialized)
struct TouchOnTheKernel {
    @Test func aFingerDownAndUpIsAContactAndItsEnd() throws {
        let fake = try FakeTouchDevice(name: "test touchscreen", kind: .touchscreen)
        let device = try #require(try TouchDevice.open(fake.record))
        defer { device.close() }
        #expect(!device.inContact)
        #expect(!device.takeContactSeen())
        fake.fingerDown()
        try device.drain()
        #expect(device.inContact)
        fake.move(x: 300, y: 400)
        try device.drain()
        #expect(device.inContact)
        fake.fingerUp()
        try device.drain()
        #expect(!device.inContact)
        #expect(device.takeContactSeen())
        #expect(!device.takeContactSeen())
    }

    @Test func isOpenedReadOnlyAndNeverGrabbed() throws {
        let fake = try FakeTouchDevice(name: "test touchscreen", kind: .touchscreen)
        let device = try #require(try TouchDevice.open(fake.record))
        defer { device.close() }
        #expect(fcntl(device.descriptor.rawValue, F_GETFL) & O_ACCMODE == O_RDONLY)
        #expect(fcntl(device.descriptor.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        // Another reader (the compositor) can still grab it (EVIOCGRAB):
        // nobody holds it.
        let other = open(fake.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(other) }
        var handle: OpaquePointer?
        #expect(libevdev_new_from_fd(other, &handle) == 0)
        defer { libevdev_free(handle) }
        #expect(libevdev_grab(handle, LIBEVDEV_GRAB) == 0)
        #expect(libevdev_grab(handle, LIBEVDEV_UNGRAB) == 0)
    }

    @Test func aFingerAlreadyDownWhenOpenedIsAContact() throws {
        let fake = try FakeTouchDevice(name: "test touchscreen", kind: .touchscreen)
        fake.fingerDown()
        let device = try #require(try TouchDevice.open(fake.record))
        defer { device.close() }
        #expect(device.inContact)
        #expect(device.takeContactSeen())
    }

    @Test func aTapWithinOneReadIsSeen() throws {
        let fake = try FakeTouchDevice(name: "test touchscreen", kind: .touchscreen)
        let device = try #require(try TouchDevice.open(fake.record))
        defer { device.close() }
        fake.fingerDown()
        fake.fingerUp()
        try device.drain()
        #expect(!device.inContact)
        #expect(device.takeContactSeen())
    }

    /// Flooding the reader's buffer makes the kernel throw away what is
    /// queued, the lift among it, and send SYN_DROPPED: only the resync
    /// tells that the finger is gone (and, the other way, that it is down).
    @Test func resyncsAfterDroppedEvents() throws {
        let fake = try FakeTouchDevice(name: "test touchscreen", kind: .touchscreen)
        let device = try #require(try TouchDevice.open(fake.record))
        defer { device.close() }
        fake.fingerDown()
        try device.drain()
        fake.flood()
        fake.fingerUp()
        fake.flood()
        try device.drain()
        #expect(!device.inContact)
        fake.flood()
        fake.fingerDown()
        fake.flood()
        try device.drain()
        #expect(device.inContact)
    }

    @Test func aPenNearTheScreenIsAContact() throws {
        let fake = try FakeTouchDevice(name: "test pen", kind: .pen)
        let device = try #require(try TouchDevice.open(fake.record))
        defer { device.close() }
        fake.penNear(true)
        try device.drain()
        #expect(device.inContact)
        fake.penNear(false)
        try device.drain()
        #expect(!device.inContact)
    }

    @Test func aPadOfButtonsIsNotFollowed() throws {
        let fake = try FakeTouchDevice(name: "test pad", kind: .pad)
        #expect(try TouchDevice.open(fake.record) == nil)
    }

    @Test func anUnpluggedDeviceIsGoneAndItsContactEnds() throws {
        var fake: FakeTouchDevice? = try FakeTouchDevice(name: "test touchscreen", kind: .touchscreen)
        let device = try #require(try TouchDevice.open(fake!.record))
        fake!.fingerDown()
        try device.drain()
        #expect(device.inContact)
        fake = nil
        #expect(throws: InputDeviceError.deviceGone(path: device.deviceNode)) { try device.drain() }
        device.close()
        #expect(!device.inContact)
    }
}
