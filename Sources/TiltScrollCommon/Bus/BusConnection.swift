import CSystemd
import Glibc

/// A connection to the system bus through sd-bus (libsystemd), driven by the
/// daemon's one `poll()` loop: no thread, no event loop of its own. Each
/// round the loop watches `descriptor` for `events` and wakes by
/// `deadline(now:)`, then calls `process()`, which dispatches what arrived.
///
/// sd-bus keeps no timer of its own while nothing is pending: `deadline`
/// is nil unless a call of the daemon's awaits its reply (or work is queued).
///
/// What to wait for changes only when the daemon calls into sd-bus
/// (`process()`, sending), so it is asked of sd-bus then
/// (`refreshWaitState()`) and kept: a round of the loop without bus traffic
/// makes no call into libsystemd.
public final class BusConnection {
    public private(set) var bus: OpaquePointer?
    /// The `poll()` events sd-bus waits for: POLLIN, and POLLOUT while
    /// messages wait to be written.
    public private(set) var events: Int16 = 0
    /// sd-bus's deadline, CLOCK_MONOTONIC microseconds; 0 for "now", max for none.
    private var timeoutMicroseconds = UInt64.max

    /// Messages dispatched per `process()` at most, and the time it may
    /// take, so that a flood of calls cannot starve the sensor, the output
    /// clock or the watchdog: the rest waits for the next round, which then
    /// does not sleep (`deadline` is now).
    public static let messagesPerRound = 64
    public static let timePerRound = 0.005

    private init(bus: OpaquePointer) {
        self.bus = bus
        refreshWaitState()
    }

    deinit { close() }

    /// The system bus (`$DBUS_SYSTEM_BUS_ADDRESS`, else
    /// `/run/dbus/system_bus_socket`), or the bus at `address`. Connecting
    /// does not wait for the bus's answer: authentication and `Hello` finish
    /// in `process()`.
    public static func open(address: String? = nil) throws(BusError) -> BusConnection {
        var bus: OpaquePointer? = nil
        if let address {
            var result = sd_bus_new(&bus)
            guard result >= 0, let created = bus else { throw BusError.system(result, "sd_bus_new") }
            result = sd_bus_set_address(created, address)
            if result >= 0 { result = sd_bus_set_bus_client(created, 1) }
            if result >= 0 { result = sd_bus_start(created) }
            guard result >= 0 else {
                sd_bus_unref(created)
                throw BusError.system(result, "connect to \(address)")
            }
            return BusConnection(bus: created)
        }
        let result = sd_bus_open_system(&bus)
        guard result >= 0, let bus else { throw BusError.system(result, "connect to the system bus") }
        return BusConnection(bus: bus)
    }

    /// The socket to poll.
    public var descriptor: FileDescriptor { FileDescriptor(rawValue: bus.map { sd_bus_get_fd($0) } ?? -1) }

    /// Asks sd-bus what it waits for now; after every call into it.
    public func refreshWaitState() {
        guard let bus else {
            events = 0
            timeoutMicroseconds = .max
            return
        }
        events = Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus)))
        var microseconds = UInt64.max
        if sd_bus_get_timeout(bus, &microseconds) < 0 { microseconds = .max }
        timeoutMicroseconds = microseconds
    }

    /// When the loop must call `process()` even without input, on the
    /// daemon's clock (`now`); nil when nothing is pending.
    public func deadline(now: Double) -> Double? {
        let microseconds = timeoutMicroseconds
        if microseconds == .max { return nil }
        if microseconds == 0 { return now }
        // sd-bus's deadlines are CLOCK_MONOTONIC, the daemon's CLOCK_BOOTTIME.
        return BusConnection.daemonDeadline(
            monotonicMicroseconds: microseconds, monotonicNow: KernelClock.monotonic.nanoseconds(), daemonNow: now)
    }

    /// A CLOCK_MONOTONIC deadline in microseconds as a time on the daemon's
    /// clock: the same distance from `daemonNow` as from `monotonicNow`
    /// (nanoseconds). The two clocks differ by the time spent suspended, which
    /// does not change while the distance is measured.
    public static func daemonDeadline(monotonicMicroseconds: UInt64, monotonicNow: Int64, daemonNow: Double) -> Double {
        let remaining = Double(Int64(clamping: monotonicMicroseconds) &* 1000 &- monotonicNow) * 1e-9
        return daemonNow + max(0, remaining)
    }

    /// Dispatches what arrived, at most `messagesPerRound` messages or
    /// `timePerRound` seconds (the message under way finishes), and no
    /// further once `stop` says so. What is left waits for the next round,
    /// which then does not sleep (`deadline` is now). Throws when the
    /// connection is gone; the daemon then goes on without the bus.
    public func process(stoppingWhen stop: () -> Bool = { false }) throws(BusError) {
        guard let bus else { return }
        defer { refreshWaitState() }
        let end = DaemonClock.now() + BusConnection.timePerRound
        for _ in 0..<BusConnection.messagesPerRound {
            let result = sd_bus_process(bus, nil)
            if result < 0 {
                close()
                throw BusError.system(result, "the system bus connection")
            }
            if result == 0 || stop() || DaemonClock.now() >= end { return }
        }
    }

    /// Sends `message` and calls `callback` with the reply (or with an error
    /// reply sd-bus makes on timeout or disconnection), passing `userdata`.
    /// Returns the call's cookie, which the reply carries (`replyCookie`).
    /// The call's slot floats: sd-bus frees it with the reply.
    public func callAsync(
        _ message: BusMessage, timeoutMicroseconds: UInt64, userdata: UnsafeMutableRawPointer,
        callback: sd_bus_message_handler_t
    ) throws(BusError) -> UInt64 {
        guard let bus else { throw BusError.system(-ENOTCONN, "call") }
        let result = sd_bus_call_async(bus, nil, message.pointer, callback, userdata, timeoutMicroseconds)
        refreshWaitState()
        guard result >= 0 else { throw BusError.system(result, "send a call") }
        var cookie: UInt64 = 0
        let known = sd_bus_message_get_cookie(message.pointer, &cookie)
        guard known >= 0 else { throw BusError.system(known, "the cookie of a call") }
        return cookie
    }

    /// A new method call to `member` of `interface` at `path` of `destination`;
    /// the caller unrefs it.
    public func methodCall(destination: String, path: String, interface: String, member: String) throws(BusError)
        -> BusMessage
    {
        guard let bus else { throw BusError.system(-ENOTCONN, "call") }
        var message: OpaquePointer? = nil
        let result = sd_bus_message_new_method_call(bus, &message, destination, path, interface, member)
        guard result >= 0, let message else { throw BusError.system(result, "make a call to \(member)") }
        return BusMessage(message)
    }

    /// Hands the connection to a caller that drives it itself (a blocking
    /// client); this object forgets it.
    public func detach() -> OpaquePointer? {
        defer {
            bus = nil
            refreshWaitState()
        }
        return bus
    }

    /// Closes the connection. What is still queued is dropped, not flushed:
    /// a flush waits for the bus without bound, and a daemon stopping must
    /// not hang on a bus that does not read (systemd would kill it before it
    /// restored the sensor). Clients see the name go when the socket closes.
    public func close() {
        guard let bus else { return }
        self.bus = nil
        sd_bus_close_unref(bus)
        refreshWaitState()
    }
}
