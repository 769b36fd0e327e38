import CUdev
import Glibc
import TiltScrollCommon

/// What happened to a device, as udev reports it.
enum DeviceAction: Equatable, CustomStringConvertible {
    case add
    case remove
    case change
    case bind
    case unbind
    case move
    case other(String)

    init(_ text: String) {
        switch text {
        case "add": self = .add
        case "remove": self = .remove
        case "change": self = .change
        case "bind": self = .bind
        case "unbind": self = .unbind
        case "move": self = .move
        default: self = .other(text)
        }
    }

    var description: String {
        switch self {
        case .add: return "add"
        case .remove: return "remove"
        case .change: return "change"
        case .bind: return "bind"
        case .unbind: return "unbind"
        case .move: return "move"
        case .other(let text): return text
        }
    }
}

/// One hotplug event of subsystem "iio" or "input".
struct DeviceEvent: Equatable {
    var action: DeviceAction
    /// "iio" or "input".
    var subsystem: String
    var sysfsPath: DeviceText
    var deviceNode: DeviceText?
    /// For input devices: a touchscreen or a pen, as udev tagged it (nil otherwise).
    var touchKind: TouchInputKind? = nil
}

/// Hotplug events from udev (a libudev monitor, in udev's words):
/// accelerometers and input devices (the tablet-mode switch, touchscreens
/// and pens) that appear, disappear or change (a new hwdb mount matrix). Its
/// descriptor is non-blocking, for the daemon's poll loop. ("Monitor" in tiltscrolld means
/// the terminal view of `--monitor`, MonitorView.)
final class HotplugListener {
    private var udev: OpaquePointer?
    private var monitor: OpaquePointer?
    let descriptor: FileDescriptor

    private init(udev: OpaquePointer, monitor: OpaquePointer, descriptor: FileDescriptor) {
        self.udev = udev
        self.monitor = monitor
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Listens on the "udev" netlink group, filtered to the "iio" and
    /// "input" subsystems: events after udevd has processed them (rules and
    /// hwdb properties applied, device node created), not the kernel's own.
    static func open() throws(CaptureError) -> HotplugListener {
        func failure(_ code: Errno) -> CaptureError {
            CaptureError(kind: .system, message: "could not watch udev for devices: \(code)")
        }
        errno = 0
        guard let udev = udev_new() else { throw failure(Errno.currentOr(.outOfMemory)) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            let code = Errno.currentOr(.outOfMemory)
            udev_unref(udev)
            throw failure(code)
        }
        var status = udev_monitor_filter_add_match_subsystem_devtype(monitor, "iio", nil)
        if status >= 0 { status = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil) }
        if status >= 0 { status = udev_monitor_enable_receiving(monitor) }
        let descriptor = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
        if status >= 0 {
            // libudev makes the socket non-blocking already; the loop must
            // never block in a receive, so make sure of it.
            do {
                try descriptor.makeNonBlocking()
            } catch {
                status = -error.code.rawValue
            }
        }
        guard status >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw failure(Errno(rawValue: -status))
        }
        return HotplugListener(udev: udev, monitor: monitor, descriptor: descriptor)
    }

    /// Hands every pending event to `handle`, oldest first, without blocking.
    /// Returns true when the kernel dropped events because they came faster
    /// than they were read (ENOBUFS): enumerate the devices again.
    @discardableResult
    func drain(_ handle: (DeviceEvent) -> Void) -> Bool {
        guard let monitor else { return false }
        var lost = false
        while true {
            errno = 0
            guard let device = udev_monitor_receive_device(monitor) else {
                // libudev returns NULL both for "nothing pending" and for errors.
                let code = Errno.current
                if code.rawValue == 0 || code == .tryAgain || code == .interrupted { break }
                if code == .noBufferSpace {
                    lost = true
                    Log.warning("udev events were lost; devices will be looked up again")
                    continue
                }
                Log.warning("receiving a udev event failed: \(code)")
                break
            }
            defer { udev_device_unref(device) }
            guard let syspath = udev_device_get_syspath(device) else { continue }
            handle(
                DeviceEvent(
                    action: DeviceAction(udev_device_get_action(device).map { String(cString: $0) } ?? ""),
                    subsystem: udev_device_get_subsystem(device).map { String(cString: $0) } ?? "",
                    sysfsPath: DeviceText(cString: syspath),
                    deviceNode: udev_device_get_devnode(device).map { DeviceText(cString: $0) },
                    touchKind: TouchInputKind(udevDevice: device)))
        }
        return lost
    }

    /// Stops watching. Safe to call more than once.
    func close() {
        guard let monitor else { return }
        udev_monitor_unref(monitor)
        udev_unref(udev)
        self.monitor = nil
        udev = nil
    }
}
