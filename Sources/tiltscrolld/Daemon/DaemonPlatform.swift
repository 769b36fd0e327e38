import ScrollPhysics
import TiltScrollCommon

/// Everything the daemon's loop needs of the machine, behind one seam:
/// the clock and the wait, the accelerometers and their captures, the
/// uinput device, udev, the input devices it reads (switches,
/// touchscreens) and the system bus (its own interface and logind).
///
/// `SystemPlatform` is the real machine. A unit test drives the real loop
/// with a platform of fakes: a clock that jumps to the next deadline
/// instead of sleeping, a sensor that streams a synthetic hand, an output
/// that records frames, a bus whose callers are scripted.
protocol DaemonPlatform: AnyObject {
    /// Seconds on the daemon's clock (`DaemonClock`).
    func now() -> Double
    /// Waits until a descriptor `poller` watches is ready or `deadline`
    /// passes; nil waits without a timeout.
    func wait(_ poller: Poller, until deadline: Double?, now: Double) throws(SystemError)

    /// Discovery plus `[Device] Name=`: the sensor to use, or why there is none.
    func chooseSensor(_ settings: DeviceSettings) throws(CaptureError) -> AccelerometerDevice
    /// Re-reads one sensor after a udev `change` event.
    func describeSensor(at sysfsPath: DeviceText, matrixOverride: MountMatrix?) throws(CaptureError)
        -> AccelerometerDevice
    /// The accelerometer in the keyboard base that tells the hinge angle
    /// with `display` (`DeviceDiscovery.hingeBaseIndex`), described with its
    /// own mount matrix (`[Device] MountMatrix=` is the display's); nil when
    /// the machine has none.
    func findBaseSensor(besides display: AccelerometerDevice) -> AccelerometerDevice?
    /// Whether the sensor's sysfs directory still exists (a failed read
    /// tells a broken sensor from one that is gone by it).
    func sensorExists(at sysfsPath: DeviceText) -> Bool
    /// Opens a capture of `device` as `settings` say, recording every
    /// setting it changes in `journal` (which may hold what an earlier
    /// attempt kept).
    func openCapture(_ device: AccelerometerDevice, _ settings: DeviceSettings, journal: SettingsJournal)
        throws(CaptureError) -> SampleSource
    /// The uinput wheel device frames are written to.
    func openScrollDevice(horizontal: Bool) throws(OutputError) -> FrameOutput
    /// The uinput `SW_TABLET_MODE` switch the hinge's tablet mode is
    /// published as (`[Activation] PublishTabletMode=yes`), set to `tabletMode`.
    func openTabletSwitch(tabletMode: Bool) throws(OutputError) -> TabletModeOutput

    /// udev's announcements of IIO and input devices.
    func openHotplug() throws(CaptureError) -> DeviceEventSource
    /// Every switch there is now that reports one of `kinds` (`SW_TABLET_MODE`, `SW_LID`).
    func scanSwitches(_ kinds: SwitchKinds) -> [SwitchInput]
    /// The device at `node` when it is a switch reporting one of `kinds`.
    func openSwitch(_ node: DeviceText, _ kinds: SwitchKinds) -> SwitchInput?
    /// Touchscreens and pens: listing and opening them.
    var touchInputs: TouchInputOpener { get }
    /// The daemon's interface on the system bus, publishing `snapshot` from the start.
    func connectBus(publishing snapshot: DaemonSnapshot) throws(BusError) -> BusEndpoint
}

/// udev's stream of device events, as the loop reads it.
protocol DeviceEventSource: AnyObject {
    var descriptor: FileDescriptor { get }
    /// Hands each pending event to `handle`; true when events were lost
    /// (the receive buffer overflowed), so that devices are looked up again.
    func drain(_ handle: (DeviceEvent) -> Void) -> Bool
    func close()
}

/// The machine's switches the daemon reads.
struct SwitchKinds: OptionSet, Equatable {
    let rawValue: UInt8
    /// `SW_TABLET_MODE`: a convertible folded into a tablet.
    static let tabletMode = SwitchKinds(rawValue: 1)
    /// `SW_LID`: the lid closed.
    static let lid = SwitchKinds(rawValue: 2)
}

/// An input device reporting `SW_TABLET_MODE`, `SW_LID` or both, read-only.
protocol SwitchInput: AnyObject {
    var descriptor: FileDescriptor { get }
    var deviceNode: DeviceText { get }
    var name: DeviceText { get }
    /// Which of the switches it has.
    var kinds: SwitchKinds { get }
    /// False for a device without the switch.
    var isTabletMode: Bool { get }
    var isLidClosed: Bool { get }
    /// Reads what is pending; true when a switch changed. Throws when the
    /// device is gone.
    func drain() throws(InputDeviceError) -> Bool
    func close()
}

/// A touchscreen or pen, followed for whether something is on it.
protocol TouchInput: AnyObject {
    var kind: TouchInputKind { get }
    var sysfsPath: DeviceText { get }
    var deviceNode: DeviceText { get }
    var name: DeviceText { get }
    var descriptor: FileDescriptor { get }
    /// Contact as of the last frame read.
    var inContact: Bool { get }
    /// Reads every pending event; throws when the device is gone.
    func drain() throws(InputDeviceError)
    /// Whether some frame since the last call had contact (a tap between two reads).
    func takeContactSeen() -> Bool
    func close()
}

/// Where touchscreens and pens come from.
protocol TouchInputOpener {
    /// The touchscreens and pens udev lists now.
    func enumerate() throws(CaptureError) -> [TouchInputRecord]
    /// Opens one; nil when it cannot report contact (a pad of buttons) or is tiltscroll's own.
    func open(_ record: TouchInputRecord) throws(InputDeviceError) -> TouchInput?
}

/// Where frames go: the uinput device, or standard output in `--dry-run`.
protocol FrameOutput: AnyObject {
    /// The device node, for the log ("as /dev/input/event7"); nil when not a device.
    var deviceNode: String? { get }
    /// Writes one frame. `readout` is asked only by outputs that show it.
    func emit(_ frame: ScrollFrame, at time: Double, readout: () -> ScrollReadout) throws(OutputError)
    /// The intent changed, or a touch began or ended: outputs that show
    /// the physics say so; a wheel device has nothing to do with it.
    func note(_ change: PhysicsChange, at time: Double, readout: () -> ScrollReadout)
    /// The device disappears; frames stop.
    func close()
}

/// The tablet-mode switch tiltscroll publishes (`TabletSwitchDevice`).
protocol TabletModeOutput: AnyObject {
    /// The device node, for the log; nil when not known.
    var deviceNode: String? { get }
    /// Sets the switch; nothing when it is so already.
    func set(tabletMode: Bool) throws(OutputError)
    /// The device disappears; safe to call more than once.
    func destroy()
}

/// What `FrameOutput.note` is told.
enum PhysicsChange: Equatable {
    case intent
    case touch(Bool)
}

/// The daemon's interface on the system bus, as the loop drives it.
protocol BusEndpoint: AnyObject {
    var descriptor: FileDescriptor { get }
    /// The `poll()` events it waits for.
    var events: Int16 { get }
    /// When the loop must call `process` even without input; nil when nothing is pending.
    func deadline(now: Double) -> Double?
    /// Dispatches what arrived, appending what callers asked for (and were
    /// allowed) to `requests`, in order. Stops after a request, so that
    /// every later message sees it applied. Throws when the connection is lost.
    func process(into requests: inout [ControlRequest]) throws(BusError)
    /// Makes `snapshot` the published one, with one `PropertiesChanged`
    /// naming the properties that changed.
    func publish(_ snapshot: DaemonSnapshot)
    /// Follows logind on the same connection: its signals and answers are
    /// dispatched by `process`. Holds a sleep delay inhibitor when
    /// `holdingSleepInhibitor`.
    func watchLogind(holdingSleepInhibitor: Bool) throws(BusError) -> LogindSource
    func close()
}

/// logind, followed on the daemon's bus connection (`LogindWatch`): seat0's
/// active session and sleep, and the delay inhibitor that holds sleep back
/// until the daemon has let go of the sensor and the wheel.
protocol LogindSource: AnyObject {
    /// Every view logind's signals and answers made since the last call,
    /// oldest first, each different from the one before: a sleep that came
    /// and went between two rounds is still seen as two views.
    func takeViews() -> [LogindView]
    /// Closes the delay inhibitor, if one is held, so that sleep goes on;
    /// a new one is taken once the machine is back. Called once the sensor
    /// and the wheel are let go of.
    func allowSleep()
    /// Takes the delay inhibitor (now, and after each sleep), or lets it go.
    func holdSleepInhibitor(_ wanted: Bool)
    /// Stops following, and closes the inhibitor.
    func close()
}
