import ScrollPhysics
import TiltScrollCommon

/// The machine itself: `DaemonClock`, `poll(2)`, udev discovery and
/// hotplug, sysfs captures, uinput, evdev and the system bus (with logind on it).
final class SystemPlatform: DaemonPlatform {
    func now() -> Double { DaemonClock.now() }

    func wait(_ poller: Poller, until deadline: Double?, now: Double) throws(SystemError) {
        try poller.wait(until: deadline, now: now)
    }

    func chooseSensor(_ settings: DeviceSettings) throws(CaptureError) -> AccelerometerDevice {
        try DeviceDiscovery.choose(
            from: DeviceDiscovery.enumerate(matrixOverride: settings.mountMatrix), name: settings.name)
    }

    func describeSensor(at sysfsPath: DeviceText, matrixOverride: MountMatrix?) throws(CaptureError)
        -> AccelerometerDevice
    {
        try DeviceDiscovery.describe(sysfsPath: sysfsPath, matrixOverride: matrixOverride)
    }

    func findBaseSensor(besides display: AccelerometerDevice) -> AccelerometerDevice? {
        let devices: [AccelerometerDevice]
        do {
            devices = try DeviceDiscovery.enumerate(matrixOverride: nil)
        } catch {
            Log.debug("No base sensor: \(error.message)")
            return nil
        }
        return DeviceDiscovery.hingeBaseIndex(among: devices, display: display).map { devices[$0] }
    }

    func sensorExists(at sysfsPath: DeviceText) -> Bool { FileSystem.exists(sysfsPath) }

    func openCapture(_ device: AccelerometerDevice, _ settings: DeviceSettings, journal: SettingsJournal)
        throws(CaptureError) -> SampleSource
    {
        try Capture.open(device, mode: settings.mode, rate: settings.sampleRate, journal: journal)
    }

    func openScrollDevice(horizontal: Bool) throws(OutputError) -> FrameOutput {
        try ScrollDevice.create(horizontal: horizontal)
    }

    func openTabletSwitch(tabletMode: Bool) throws(OutputError) -> TabletModeOutput {
        try TabletSwitchDevice.create(tabletMode: tabletMode)
    }

    func openHotplug() throws(CaptureError) -> DeviceEventSource { try HotplugListener.open() }

    func scanSwitches(_ kinds: SwitchKinds) -> [SwitchInput] { MachineSwitch.scan(kinds) }

    func openSwitch(_ node: DeviceText, _ kinds: SwitchKinds) -> SwitchInput? {
        (try? MachineSwitch.open(deviceNode: node, kinds)) ?? nil
    }

    let touchInputs: TouchInputOpener = EvdevTouchInputs()

    func connectBus(publishing snapshot: DaemonSnapshot) throws(BusError) -> BusEndpoint {
        try BusService.start(on: BusConnection.open(), snapshot: snapshot)
    }
}

/// Touchscreens and pens as udev lists them, opened through evdev.
struct EvdevTouchInputs: TouchInputOpener {
    func enumerate() throws(CaptureError) -> [TouchInputRecord] { try UdevDevices.enumerateTouchInputs() }

    func open(_ record: TouchInputRecord) throws(InputDeviceError) -> TouchInput? { try TouchDevice.open(record) }
}

extension HotplugListener: DeviceEventSource {}
extension MachineSwitch: SwitchInput {}
extension TouchDevice: TouchInput {}
extension TabletSwitchDevice: TabletModeOutput {}
