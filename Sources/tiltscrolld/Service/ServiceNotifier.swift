import CSystemd
import Glibc
import TiltScrollCommon

/// Tells systemd how the service is doing, through sd_notify(3) from
/// libsystemd: READY, STATUS, RELOADING, STOPPING and watchdog pings.
///
/// Outside systemd (`NOTIFY_SOCKET` unset) every method returns at once
/// without a system call, so callers need no checks of their own.
///
/// The protocol, as the event loop uses it:
/// - `ready(status:)` once start-up is done and the loop is about to poll
///   (with the sensor open when scrolling is wanted and possible, but also
///   while switched off or waiting for a sensor: the daemon is serving
///   then too), and again after a reload has finished, failed or not
///   (systemd waits for READY=1 after RELOADING=1);
/// - `status(_:)` when the snapshot's status line changes (device, state,
///   intent, a configuration error) — never per sample;
/// - `reloading()` when SIGHUP is taken, before the configuration is re-read;
/// - `stopping()` when the daemon shuts down, before the cleanup;
/// - `pingWatchdogIfDue(now:)` on every loop iteration, with
///   `nextWatchdogPing` bounding the `poll()` timeout.
struct ServiceNotifier {
    /// What systemd passed in the environment.
    struct Environment: Equatable {
        /// `$NOTIFY_SOCKET`: where the notifications go; nil outside systemd.
        var notifySocket: String?
        /// Seconds from `$WATCHDOG_USEC` when `$WATCHDOG_PID` is this process (sd_watchdog_enabled(3)).
        var watchdogInterval: Double?

        static func current() -> Environment {
            let socket = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
            var microseconds: UInt64 = 0
            let enabled = sd_watchdog_enabled(0, &microseconds) > 0 && microseconds > 0
            return Environment(
                notifySocket: socket.flatMap { $0.isEmpty ? nil : $0 },
                watchdogInterval: enabled ? Double(microseconds) / 1e6 : nil)
        }
    }

    /// Whether notifications are sent at all.
    let isEnabled: Bool
    /// The watchdog timeout systemd enforces (`WatchdogSec=`), or nil when it does not.
    let watchdogInterval: Double?
    /// When (seconds on the daemon's clock) the next `WATCHDOG=1` is due, or nil
    /// without a watchdog. The loop's `poll()` must wake by then.
    private(set) var nextWatchdogPing: Double?

    /// `now` is in seconds on the daemon's clock (`DaemonClock.now()`).
    init(environment: Environment = .current(), now: Double) {
        isEnabled = environment.notifySocket != nil
        // A watchdog without a socket to ping it through cannot be served.
        watchdogInterval = isEnabled ? environment.watchdogInterval : nil
        nextWatchdogPing = watchdogInterval.map { now + $0 / 2 }
    }

    /// `READY=1` with a status line: start-up (or a reload) is complete.
    func ready(status: String) {
        send(ServiceNotifier.readyMessage(status: status))
    }

    /// `STATUS=`: one line shown by `systemctl status`.
    func status(_ text: String) {
        send(ServiceNotifier.statusMessage(text))
    }

    /// `RELOADING=1` with `MONOTONIC_USEC=` (systemd 253 and later use it to
    /// tell this reload from an older one; 252 ignores it).
    func reloading(monotonicMicroseconds: UInt64 = SystemdMonotonicTime.microseconds()) {
        send(ServiceNotifier.reloadingMessage(monotonicMicroseconds: monotonicMicroseconds))
    }

    /// `STOPPING=1`: shutting down; the cleanup follows.
    func stopping() {
        send("STOPPING=1")
    }

    /// Sends `WATCHDOG=1` when `now` has reached `nextWatchdogPing`, then
    /// schedules the next ping half an interval later, so one late wake-up
    /// never lets the watchdog fire.
    mutating func pingWatchdogIfDue(now: Double) {
        guard let due = nextWatchdogPing, let interval = watchdogInterval, now >= due else { return }
        send("WATCHDOG=1")
        nextWatchdogPing = now + interval / 2
    }

    // The messages, kept pure so their exact bytes are tested.

    static func readyMessage(status: String) -> String {
        "READY=1\n" + statusMessage(status)
    }

    static func statusMessage(_ text: String) -> String {
        "STATUS=" + singleLine(text)
    }

    static func reloadingMessage(monotonicMicroseconds: UInt64) -> String {
        "RELOADING=1\nMONOTONIC_USEC=\(monotonicMicroseconds)"
    }

    /// `text` as one line: line breaks and tabs turned into spaces (a
    /// newline would start a new `KEY=` assignment), every other control
    /// character escaped and the whole bounded (`DisplayEscaping`), since
    /// the status quotes device strings and `systemctl status` prints it to
    /// a terminal. Text escaped already stays as it is.
    static func singleLine(_ text: String) -> String {
        // A status has no line break or tab as a rule: escaped as it is,
        // without rebuilding it scalar by scalar (a status follows every
        // change of the hand's intent, several a minute).
        guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
            return DisplayEscaping.escape(text, limit: DisplayEscaping.lineLimit)
        }
        let spaced = String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 }))
        return DisplayEscaping.escape(spaced, limit: DisplayEscaping.lineLimit)
    }

    private func send(_ message: String) {
        guard isEnabled else { return }
        // sd_notify fails only when the socket is gone (systemd restarting);
        // there is nobody to tell, and the next notification tries again.
        _ = sd_notify(0, message)
    }
}
