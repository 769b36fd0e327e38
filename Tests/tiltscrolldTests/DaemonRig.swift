import Glibc
import ScrollPhysics
import SyntheticMotion
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A descriptor of a fake's own: a pipe, readable while something is
/// queued, so that the daemon's real `poll()` sees the fake's events.
final class FakeDescriptor {
    private let ends = try! FileDescriptor.pipe()
    var descriptor: FileDescriptor { ends.read }

    init() {
        try! ends.read.makeNonBlocking()
        try! ends.write.makeNonBlocking()
    }

    /// Makes it readable.
    func signal() {
        var byte: UInt8 = 1
        _ = write(ends.write.rawValue, &byte, 1)
    }

    /// Makes it unreadable again.
    func clear() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(ends.read.rawValue, &bytes, bytes.count) > 0 {}
    }

    deinit {
        ends.read.close()
        ends.write.close()
    }
}

/// What the fakes did, in order: for checks of order across them (the
/// sensor let go of before the sleep inhibitor closes).
final class FakeEventLog {
    private(set) var entries: [String] = []
    func note(_ entry: String) { entries.append(entry) }
}

/// A sensor held by a synthetic person: the capture a fake platform opens
/// reads it at the capture's rate, on the fake clock.
final class FakeSensor {
    var device: AccelerometerDevice
    /// The reading at a time of the script, m/s^2.
    private let reading: (Double) -> Vector3
    /// The script's time 0 on the daemon's clock.
    var origin: Double
    /// Reads fail from then on (a sensor that broke).
    var failsFrom: Double?
    /// Opening fails with this, while set.
    var openFailure: CaptureError?
    /// Each read gives one sample, taken then, as polling's does (the
    /// base's capture is read so, on the display's wake-ups); otherwise
    /// samples come at the capture's rate, whenever it is read.
    var readsOnDemand = false
    /// Captures opened of it, and released.
    private(set) var opened = 0
    private(set) var released = 0

    init(script: MotionScript, model: SensorModel = .kxcjk, origin: Double, name: DeviceText = "kxcj91008") {
        device = FakeSensor.device(named: name, sysfsPath: DeviceText("/sys/devices/fake/\(name)/iio:device0"))
        var synthetic = SyntheticSensor(script: script, model: model, seed: 7)
        reading = { synthetic.acceleration(at: $0) }
        self.origin = origin
    }

    init(device: AccelerometerDevice, origin: Double, reading: @escaping (Double) -> Vector3) {
        self.device = device
        self.origin = origin
        self.reading = reading
    }

    static func device(
        named name: DeviceText, sysfsPath: DeviceText, location: SensorLocation = .display,
        locationSource: SensorLocationSource = .assumed
    ) -> AccelerometerDevice {
        AccelerometerDevice(
            name: name, sysfsPath: sysfsPath, sysName: "iio:device0", deviceNode: nil, location: location,
            locationSource: locationSource, mountMatrix: .identity, mountMatrixSource: .identity,
            calibration: AccelCalibration(), captureModes: .poll, trigger: nil, problem: nil)
    }

    func acceleration(at time: Double) -> Vector3 { reading(time - origin) }

    func noteOpened() { opened += 1 }
    func noteReleased() { released += 1 }

    /// Whether a capture of it is open now.
    var isCaptured: Bool { opened > released }
}

/// The capture of a `FakeSensor`: timer-driven like polling, at the rate
/// the engine demands (never above the configured one).
final class FakeCapture: SampleSource {
    let sensor: FakeSensor
    let mode = CaptureMode.poll
    let calibration = AccelCalibration()
    let pollDescriptor: FileDescriptor? = nil
    let fullRate: Double
    private(set) var currentRate: Double
    private(set) var settingWrites = 0
    private var nextSample: Double
    private(set) var released = false
    private(set) var releasedForRetry = false
    /// The sample rates `follow` was asked for, in order of change.
    private(set) var demands: [Double] = []
    /// Samples delivered.
    private(set) var reads = 0

    private let events: FakeEventLog

    init(sensor: FakeSensor, rate: Double, now: Double, events: FakeEventLog) {
        self.sensor = sensor
        self.events = events
        fullRate = rate
        currentRate = rate
        nextSample = now
    }

    func nextReadTime(now: Double) -> Double? { released ? nil : max(now, nextSample) }

    func read(now: Double, into sink: (AccelSample) -> Void) throws(CaptureError) -> CaptureStatus {
        if sensor.readsOnDemand {
            if let failsFrom = sensor.failsFrom, now >= failsFrom {
                throw CaptureError(kind: .invalidValue, message: "in_accel_x_raw holds 'garbage'")
            }
            sink(AccelSample(acceleration: sensor.acceleration(at: now), time: now))
            reads += 1
            return .ok
        }
        while nextSample <= now {
            if let failsFrom = sensor.failsFrom, nextSample >= failsFrom {
                throw CaptureError(kind: .invalidValue, message: "in_accel_x_raw holds 'garbage'")
            }
            sink(AccelSample(acceleration: sensor.acceleration(at: nextSample), time: nextSample))
            reads += 1
            nextSample += 1 / currentRate
        }
        return .ok
    }

    func follow(_ demand: SampleDemand, now: Double) {
        let rate = min(fullRate, demand.rate)
        guard rate != currentRate else { return }
        // As polling does: faster from the next read on, a new period after the last sample.
        if rate > currentRate { nextSample = min(nextSample, nextSample - 1 / currentRate + 1 / rate) }
        currentRate = rate
        demands.append(rate)
        settingWrites += 1
    }

    func release() {
        guard !released else { return }
        released = true
        sensor.noteReleased()
        events.note("capture released")
    }

    func releaseForRetry() -> SettingsJournal {
        released = true
        sensor.noteReleased()
        events.note("capture released")
        releasedForRetry = true
        return SettingsJournal()
    }
}

/// The uinput device: records what it is written.
final class FakeOutput: FrameOutput {
    private(set) var frames: [(time: Double, frame: ScrollFrame)] = []
    private(set) var closed = false
    var deviceNode: String? { "/dev/input/event99" }
    private let events: FakeEventLog

    init(events: FakeEventLog) { self.events = events }

    func emit(_ frame: ScrollFrame, at time: Double, readout: () -> ScrollReadout) throws(OutputError) {
        #expect(!closed, "no frame after the device is gone")
        frames.append((time, frame))
    }

    func note(_ change: PhysicsChange, at time: Double, readout: () -> ScrollReadout) {}

    func close() {
        closed = true
        events.note("output closed")
    }

    /// Hi-res units scrolled between two times.
    func hiRes(from start: Double = -.infinity, to end: Double = .infinity) -> Int {
        frames.filter { $0.time >= start && $0.time < end }.reduce(0) { $0 + Int($1.frame.verticalHiRes) }
    }
}

/// Signals, queued by the test.
final class FakeSignals: SignalSource {
    private let readable = FakeDescriptor()
    private var queued: [Int32] = []
    var descriptor: FileDescriptor { readable.descriptor }

    func send(_ signal: Int32) {
        queued.append(signal)
        readable.signal()
    }

    func drain(_ handle: (Int32) -> Void) {
        readable.clear()
        let pending = queued
        queued.removeAll()
        pending.forEach(handle)
    }

    func close() {}
}

/// udev's announcements, queued by the test.
final class FakeHotplug: DeviceEventSource {
    private let readable = FakeDescriptor()
    private var queued: [DeviceEvent] = []
    var losesEvents = false
    var descriptor: FileDescriptor { readable.descriptor }

    func announce(_ event: DeviceEvent) {
        queued.append(event)
        readable.signal()
    }

    func drain(_ handle: (DeviceEvent) -> Void) -> Bool {
        readable.clear()
        let pending = queued
        queued.removeAll()
        pending.forEach(handle)
        defer { losesEvents = false }
        return losesEvents
    }

    func close() {}
}

/// A tablet-mode switch, or a lid switch.
final class FakeSwitch: SwitchInput {
    private let readable = FakeDescriptor()
    let kinds: SwitchKinds
    private(set) var isTabletMode = false
    private(set) var isLidClosed = false
    private var pending: Bool?
    let deviceNode: DeviceText
    let name: DeviceText
    var descriptor: FileDescriptor { readable.descriptor }

    init(tabletMode: Bool) {
        kinds = .tabletMode
        isTabletMode = tabletMode
        deviceNode = "/dev/input/event5"
        name = "Intel HID switches"
    }

    init(lidClosed: Bool) {
        kinds = .lid
        isLidClosed = lidClosed
        deviceNode = "/dev/input/event0"
        name = "Lid Switch"
    }

    /// Tablet mode, or the lid closed.
    func flip(to on: Bool) {
        pending = on
        readable.signal()
    }

    func drain() throws(InputDeviceError) -> Bool {
        readable.clear()
        guard let pending else { return false }
        self.pending = nil
        let was = kinds == .lid ? isLidClosed : isTabletMode
        if kinds == .lid { isLidClosed = pending } else { isTabletMode = pending }
        return pending != was
    }

    func close() {}
}

/// A touchscreen.
final class FakeTouchscreen: TouchInput {
    private let readable = FakeDescriptor()
    let kind = TouchInputKind.touchscreen
    let sysfsPath: DeviceText = "/sys/devices/fake/input/input9/event9"
    let deviceNode: DeviceText = "/dev/input/event9"
    let name: DeviceText = "Fake touchscreen"
    private(set) var inContact = false
    private var contactSeen = false
    private(set) var opened = 0
    private(set) var closed = 0
    var descriptor: FileDescriptor { readable.descriptor }

    func touch(_ on: Bool) {
        inContact = on
        contactSeen = contactSeen || on
        readable.signal()
    }

    func drain() throws(InputDeviceError) { readable.clear() }

    func takeContactSeen() -> Bool {
        defer { contactSeen = false }
        return contactSeen
    }

    func close() { closed += 1 }

    var record: TouchInputRecord { TouchInputRecord(sysfsPath: sysfsPath, deviceNode: deviceNode, kind: kind) }
}

struct FakeTouchInputs: TouchInputOpener {
    let screen: FakeTouchscreen

    func enumerate() throws(CaptureError) -> [TouchInputRecord] { [screen.record] }

    func open(_ record: TouchInputRecord) throws(InputDeviceError) -> TouchInput? {
        screen.touch(screen.inContact)
        return screen
    }
}

/// logind, scripted by the test: each view it `say`s reaches the loop at
/// its next round, through the bus's descriptor. Its sleep inhibitor
/// behaves as `LogindWatch`'s: held from the start when wanted, closed by
/// the daemon (`allowSleep`), taken again once the machine is back.
final class FakeLogind: LogindSource {
    private var queued: [LogindView] = []
    private(set) var current = LogindView.unknown
    private(set) var holdsInhibitor = false
    private(set) var wantsInhibitor = false
    private(set) var watched = 0
    private(set) var closed = false
    let events: FakeEventLog
    /// Wakes the loop (the bus's descriptor).
    let wake: () -> Void

    init(events: FakeEventLog, wake: @escaping () -> Void) {
        self.events = events
        self.wake = wake
    }

    /// logind's next word.
    func say(_ view: LogindView) {
        queued.append(view)
        current = view
        if !view.isKnown {
            // Gone: its inhibitor with it.
            holdsInhibitor = false
        } else if !view.preparingForSleep {
            take()
        }
        wake()
    }

    func started(holdingSleepInhibitor: Bool) {
        watched += 1
        closed = false
        wantsInhibitor = holdingSleepInhibitor
        take()
    }

    private func take() {
        guard wantsInhibitor, !holdsInhibitor, !closed else { return }
        holdsInhibitor = true
        events.note("inhibitor taken")
    }

    func takeViews() -> [LogindView] {
        defer { queued.removeAll() }
        return queued
    }

    func allowSleep() {
        if holdsInhibitor {
            holdsInhibitor = false
            events.note("inhibitor closed")
        }
        if !current.preparingForSleep { take() }
    }

    func holdSleepInhibitor(_ wanted: Bool) {
        wantsInhibitor = wanted
        if wanted { take() } else { holdsInhibitor = false }
    }

    func close() {
        closed = true
        holdsInhibitor = false
    }
}

extension LogindView {
    /// seat0's active session is a person's, in the state given.
    static func session(
        _ id: String = "2", locked: Bool = false, idle: Bool = false, sessionClass: String = "user",
        active: Bool = true, sleeping: Bool = false
    ) -> LogindView {
        LogindView(
            isKnown: true,
            session: SeatSession(
                id: id, sessionClass: sessionClass, isActive: active, isLocked: locked, isIdle: idle),
            preparingForSleep: sleeping)
    }

    /// seat0 without an active session (another virtual terminal, nobody logged in).
    static let noSession = LogindView(isKnown: true, session: nil, preparingForSleep: false)

    /// The same, going to sleep or back.
    func sleeping(_ on: Bool) -> LogindView {
        var view = self
        view.preparingForSleep = on
        return view
    }
}

/// The bus, with callers scripted by the test: what they ask is handed to
/// the loop in `process`, what the daemon publishes is kept.
final class FakeBus: BusEndpoint {
    private let readable = FakeDescriptor()
    private var queued: [ControlRequest] = []
    /// Every snapshot published, in order.
    private(set) var published: [DaemonSnapshot] = []
    private(set) lazy var logind = FakeLogind(events: eventLog) { [readable] in readable.signal() }
    let eventLog: FakeEventLog
    var descriptor: FileDescriptor { readable.descriptor }

    init(events: FakeEventLog) { eventLog = events }
    var events: Int16 { Int16(POLLIN) }
    func deadline(now: Double) -> Double? { nil }

    func ask(_ request: ControlRequest) {
        queued.append(request)
        readable.signal()
    }

    /// The connection is lost at the next `process`.
    var fails = false

    func process(into requests: inout [ControlRequest]) throws(BusError) {
        readable.clear()
        if fails { throw BusError(name: "org.freedesktop.DBus.Error.Disconnected", message: "lost in this test") }
        requests += queued
        queued.removeAll()
    }

    func publish(_ snapshot: DaemonSnapshot) { published.append(snapshot) }

    func watchLogind(holdingSleepInhibitor: Bool) throws(BusError) -> LogindSource {
        logind.started(holdingSleepInhibitor: holdingSleepInhibitor)
        return logind
    }

    func close() {}
}

/// A `Calibrate` or `Monitor` caller waiting for its answer.
final class FakeReply: CalibrationReply, MonitorReply {
    var answer: Result<Void, BusError>?
    var stream: FileDescriptor?

    func succeeded() { answer = .success(()) }
    func refused(_ error: BusError) { answer = .failure(error) }

    func attached(_ descriptor: FileDescriptor) {
        stream = FileDescriptor(rawValue: dup(descriptor.rawValue))
        answer = .success(())
    }
}

/// The tablet-mode switch the daemon publishes: records what it is set to.
final class FakeTabletSwitch: TabletModeOutput {
    /// Every state it held, the one it was created with first.
    private(set) var states: [Bool]
    private(set) var destroyed = false
    private let events: FakeEventLog
    var deviceNode: String? { "/dev/input/event42" }

    init(tabletMode: Bool, events: FakeEventLog) {
        states = [tabletMode]
        self.events = events
    }

    var isTabletMode: Bool { states.last! }

    func set(tabletMode: Bool) throws(OutputError) {
        #expect(!destroyed, "set after it is gone")
        if tabletMode != isTabletMode { states.append(tabletMode) }
    }

    func destroy() {
        guard !destroyed else { return }
        destroyed = true
        events.note("tablet switch destroyed")
    }
}

/// The machine, made of fakes, on a clock that jumps to whatever comes next
/// (the loop's deadline or the test's next scripted step) instead of sleeping.
final class FakePlatform: DaemonPlatform {
    var clock: Double
    var sensors: [FakeSensor] = []
    let hotplug = FakeHotplug()
    var hasHotplug = true
    var switches: [FakeSwitch] = []
    /// The kinds of switch the daemon asked for, scan by scan.
    private(set) var switchScans: [SwitchKinds] = []
    let touchscreen = FakeTouchscreen()
    let events = FakeEventLog()
    lazy var bus: FakeBus? = FakeBus(events: events)
    /// Times the loop slept in `wait` and woke (each a round).
    private(set) var wakeUps = 0
    /// Creating the uinput device fails with this, while set.
    var uinputFailure: OutputError?
    private(set) var captures: [FakeCapture] = []
    private(set) var outputs: [FakeOutput] = []
    /// The tablet-mode switches the daemon published, in order.
    private(set) var tabletSwitches: [FakeTabletSwitch] = []
    private var steps: [(time: Double, action: () -> Void)] = []

    init(start: Double) { clock = start }

    /// Runs `action` when the clock reaches `time`.
    func at(_ time: Double, _ action: @escaping () -> Void) {
        steps.append((time, action))
        steps.sort { $0.time < $1.time }
    }

    var output: FakeOutput? { outputs.last }
    var capture: FakeCapture? { captures.last }

    func now() -> Double { clock }

    /// Why a run ends: nothing is left to wake for.
    struct Idle: Error {}

    func wait(_ poller: Poller, until deadline: Double?, now: Double) throws(SystemError) {
        wakeUps += 1
        try poller.wait(until: clock, now: clock)
        if poller.anyReady { return }
        let target = min(deadline ?? .infinity, steps.first?.time ?? .infinity)
        guard target.isFinite else { throw SystemError(code: .timedOut, operation: "nothing left to wait for") }
        clock = max(clock, target)
        while let step = steps.first, step.time <= clock {
            steps.removeFirst()
            step.action()
        }
        try poller.wait(until: clock, now: clock)
    }

    func chooseSensor(_ settings: DeviceSettings) throws(CaptureError) -> AccelerometerDevice {
        let devices = sensors.map(\.device)
        guard let index = DeviceDiscovery.preferredIndex(among: devices) else {
            throw CaptureError(kind: .notFound, message: "no accelerometer found")
        }
        return devices[index]
    }

    func findBaseSensor(besides display: AccelerometerDevice) -> AccelerometerDevice? {
        let devices = sensors.map(\.device)
        return DeviceDiscovery.hingeBaseIndex(among: devices, display: display).map { devices[$0] }
    }

    func describeSensor(at sysfsPath: DeviceText, matrixOverride: MountMatrix?) throws(CaptureError)
        -> AccelerometerDevice
    {
        guard let sensor = sensors.first(where: { $0.device.sysfsPath == sysfsPath }) else {
            throw CaptureError(kind: .notFound, message: "\(sysfsPath) is gone")
        }
        return sensor.device
    }

    func sensorExists(at sysfsPath: DeviceText) -> Bool {
        sensors.contains { $0.device.sysfsPath == sysfsPath }
    }

    func openCapture(_ device: AccelerometerDevice, _ settings: DeviceSettings, journal: SettingsJournal)
        throws(CaptureError) -> SampleSource
    {
        guard let sensor = sensors.first(where: { $0.device.sysfsPath == device.sysfsPath }) else {
            throw CaptureError(kind: .deviceGone, message: "\(device.sysfsPath) is gone")
        }
        if let failure = sensor.openFailure { throw failure }
        let capture = FakeCapture(sensor: sensor, rate: settings.sampleRate, now: clock, events: events)
        sensor.noteOpened()
        captures.append(capture)
        return capture
    }

    func openScrollDevice(horizontal: Bool) throws(OutputError) -> FrameOutput {
        if let uinputFailure { throw uinputFailure }
        let output = FakeOutput(events: events)
        outputs.append(output)
        return output
    }

    func openTabletSwitch(tabletMode: Bool) throws(OutputError) -> TabletModeOutput {
        if let uinputFailure { throw uinputFailure }
        let device = FakeTabletSwitch(tabletMode: tabletMode, events: events)
        tabletSwitches.append(device)
        return device
    }

    func openHotplug() throws(CaptureError) -> DeviceEventSource {
        guard hasHotplug else { throw CaptureError(kind: .system, message: "no netlink in this test") }
        return hotplug
    }

    func scanSwitches(_ kinds: SwitchKinds) -> [SwitchInput] {
        switchScans.append(kinds)
        return switches.filter { !$0.kinds.intersection(kinds).isEmpty }
    }

    func openSwitch(_ node: DeviceText, _ kinds: SwitchKinds) -> SwitchInput? {
        switches.first { $0.deviceNode == node && !$0.kinds.intersection(kinds).isEmpty }
    }

    var touchInputs: TouchInputOpener { FakeTouchInputs(screen: touchscreen) }

    func connectBus(publishing snapshot: DaemonSnapshot) throws(BusError) -> BusEndpoint {
        guard let bus else { throw BusError(name: BusError.serviceUnknown, message: "no bus in this test") }
        bus.publish(snapshot)
        return bus
    }
}

/// The daemon's real loop on a fake machine, with its files in a
/// directory of its own.
final class DaemonRig {
    static let start = 1000.0
    let platform = FakePlatform(start: DaemonRig.start)
    let signals = FakeSignals()
    let directory = ServiceTemporaryDirectory()
    var configuration = Configuration()
    private(set) var daemon: Daemon!

    var configPath: String { directory.path + "/tiltscroll.conf" }

    /// A person holding the device as `script` says, from the rig's start.
    func hold(_ script: MotionScript, model: SensorModel = .kxcjk) {
        platform.sensors = [FakeSensor(script: script, model: model, origin: DaemonRig.start)]
    }

    /// A person handling a convertible with an accelerometer in each half
    /// as `motion` says, from the rig's start: the display's (kxcj91008,
    /// located by the driver's label) and the base's (bmc150_accel, by
    /// udev), each part with its own noise.
    func hold(_ motion: HingedMotion, model: SensorModel = .kxcjk) {
        let displayDevice = FakeSensor.device(
            named: "kxcj91008", sysfsPath: "/sys/devices/fake/i2c-0/0-000f/iio:device0", location: .display,
            locationSource: .sysfsLabel)
        var baseDevice = FakeSensor.device(
            named: "bmc150_accel", sysfsPath: "/sys/devices/fake/i2c-0/0-0010/iio:device1", location: .base,
            locationSource: .udevProperty)
        baseDevice.sysName = "iio:device1"
        var displayNoise = SeededRandom(seed: 11)
        var baseNoise = SeededRandom(seed: 12)
        let display = FakeSensor(device: displayDevice, origin: DaemonRig.start) {
            HingedMotion.read(motion.displayAcceleration(at: $0), by: model, &displayNoise)
        }
        let base = FakeSensor(device: baseDevice, origin: DaemonRig.start) {
            HingedMotion.read(motion.baseAcceleration(at: $0), by: model, &baseNoise)
        }
        base.readsOnDemand = true
        // The base first, as udev may list it: the display's is chosen by its location.
        platform.sensors = [base, display]
    }

    var displaySensor: FakeSensor { platform.sensors.first { $0.device.location == .display }! }
    var baseSensor: FakeSensor? { platform.sensors.first { $0.device.location == .base } }

    /// Makes the daemon and starts it; false when it would exit.
    @discardableResult
    func start(printsFrames: Bool = false) -> Bool {
        var role = DaemonRole()
        role.printsFrames = printsFrames
        role.configSource = (configPath, false)
        role.controlsStore = UserControlsStore(directory: directory.path + "/state")
        role.calibrationStore = CalibrationStore(directory: directory.path + "/state")
        role.pidFile = PidFile(path: directory.path + "/run/tiltscrolld.pid")
        role.service = ServiceNotifier.Environment(notifySocket: nil, watchdogInterval: nil)
        daemon = Daemon(platform: platform, role: role, configuration: configuration, signals: signals)
        return daemon.start()
    }

    var now: Double { platform.clock }
    var seconds: Double { platform.clock - DaemonRig.start }

    /// Runs rounds until `seconds` since the start, or until the daemon stops.
    func run(until seconds: Double) {
        let end = DaemonRig.start + seconds
        platform.at(end) {}
        while platform.clock < end, !daemon.isStopping {
            do {
                try daemon.round()
            } catch {
                Issue.record("the loop stopped: \(error)")
                return
            }
        }
    }

    /// Runs rounds until `condition` holds, at most `seconds` more.
    @discardableResult
    func run(atMost seconds: Double, until condition: () -> Bool) -> Bool {
        let end = platform.clock + seconds
        platform.at(end) {}
        while !condition() {
            guard platform.clock < end, !daemon.isStopping else { return false }
            do {
                try daemon.round()
            } catch {
                Issue.record("the loop stopped: \(error)")
                return false
            }
        }
        return true
    }

    var snapshot: DaemonSnapshot { daemon.snapshot }
    var state: String { daemon.lifecycle.state.name }

    deinit {
        daemon?.shutDown()
        directory.remove()
    }
}

extension MotionScript {
    /// Held in a hand at a reading angle, tilted by `tilt` degrees at
    /// `tiltAt` (over half a second), held so to the end.
    static func reading(tilt: Double = 12, at tiltAt: Double = 4, until end: Double = 600) -> MotionScript {
        MotionScript([
            .init(0, pitch: 35), .init(tiltAt, pitch: 35), .init(tiltAt + 0.5, pitch: 35 + tilt),
            .init(end, pitch: 35 + tilt),
        ])
    }

    /// Held in a hand at a reading angle, never tilted.
    static let held = MotionScript([.init(0, pitch: 35), .init(600, pitch: 35)])
}
