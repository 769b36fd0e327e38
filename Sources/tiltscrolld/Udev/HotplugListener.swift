import CIIO
import Glibc

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
    var sysfsPath: String
    var deviceNode: String?
}

/// Hotplug events from udev (a libudev monitor, in udev's words):
/// accelerometers and input devices (the tablet-mode switch) that appear,
/// disappear or change (a new hwdb mount matrix). Its descriptor is
/// non-blocking, for the daemon's poll loop. ("Monitor" in tiltscrolld means
/// the terminal view of `--monitor`, MonitorView.)
final class HotplugListener {
    private var monitor: OpaquePointer?
    let descriptor: FileDescriptor

    private init(monitor: OpaquePointer) {
        self.monitor = monitor
        descriptor = FileDescriptor(rawValue: ciio_monitor_fd(monitor))
    }

    deinit { close() }

    static func open() throws(CaptureError) -> HotplugListener {
        var error: Int32 = 0
        guard let monitor = ciio_monitor_open(&error) else {
            throw CaptureError(kind: .system, message: "could not watch udev for devices: \(Errno(rawValue: error))")
        }
        return HotplugListener(monitor: monitor)
    }

    /// Hands every pending event to `handle`, oldest first, without blocking.
    /// Returns true when the kernel dropped events because they came faster
    /// than they were read (ENOBUFS): enumerate the devices again.
    @discardableResult
    func drain(_ handle: (DeviceEvent) -> Void) -> Bool {
        guard let monitor else { return false }
        var lost = false
        withoutActuallyEscaping(handle) { handle in
            var visitor = handle
            while true {
                let status = withUnsafeMutablePointer(to: &visitor) { context in
                    ciio_monitor_receive(
                        monitor,
                        { event, context in
                            guard let event = event?.pointee, let context,
                                let syspath = event.syspath
                            else { return }
                            let deviceEvent = DeviceEvent(
                                action: DeviceAction(event.action.map { String(cString: $0) } ?? ""),
                                subsystem: event.subsystem.map { String(cString: $0) } ?? "",
                                sysfsPath: String(cString: syspath),
                                deviceNode: event.devnode.map { String(cString: $0) })
                            context.assumingMemoryBound(to: ((DeviceEvent) -> Void).self).pointee(deviceEvent)
                        }, context)
                }
                if status > 0 { continue }
                if status == 0 { break }
                if Errno(rawValue: -status) == .noBufferSpace {
                    lost = true
                    Log.warning("udev events were lost; devices will be looked up again")
                    continue
                }
                Log.warning("receiving a udev event failed: \(Errno(rawValue: -status))")
                break
            }
        }
        return lost
    }

    /// Stops watching. Safe to call more than once.
    func close() {
        guard let monitor else { return }
        ciio_monitor_close(monitor)
        self.monitor = nil
    }
}
