import Glibc

/// The daemon's log: one line per event to stderr, each prefixed with the
/// sd-daemon(3) priority marker (`<3>` error ... `<7>` debug) so the journal
/// keeps the level when running under systemd.
///
/// Levels, and what belongs where:
/// - `error`: the daemon cannot do its job (no accelerometer, uinput refused);
/// - `warning`: something was ignored or fell back (a corrupt calibration
///   file, a busy buffer, an invalid configuration on reload);
/// - `notice`: something out of the ordinary that needs no action: a sensor
///   that went away, settings a killed daemon left and this one restored,
///   buffered capture giving way to polling, a request that did not apply;
/// - `info`: what the daemon does, as a user follows it in the journal: the
///   sensor and capture chosen, scrolling on and off, tablet mode,
///   recalibrated, reloaded;
/// - `debug`: diagnostics, shown only with `--verbose` (`threshold = .debug`),
///   among them every transition of the activation state machine.
///
/// Quiet by default: the threshold is `.info`. Never one line per sample or
/// per frame, at any level: a caller that reports a repeating condition
/// (a failing read, a stale sensor) logs when it starts and when it ends,
/// not each time it recurs. The messages are built only when written (they
/// are autoclosures), so a disabled `debug` costs one comparison.
public enum Log {
    public enum Level: Int32, Comparable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The most detailed level written. Set once at start-up from `--verbose`;
    /// the daemon is single-threaded, so this is only ever touched from one thread.
    public nonisolated(unsafe) static var threshold: Level = .info

    /// Whether to write the `<N>` prefix: only when standard error is the
    /// journal's stream (`$JOURNAL_STREAM`), which reads the prefix as the
    /// level. A terminal, a pipe or a file gets the message as it is.
    public nonisolated(unsafe) static var prefixesPriority: Bool = JournalStream.isStandardError(
        environmentValue: getenv("JOURNAL_STREAM").map { String(cString: $0) })

    public static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public static func notice(_ message: @autoclosure () -> String) { write(.notice, message) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    /// Whether a message at `level` would be written.
    public static func isEnabled(_ level: Level) -> Bool { level <= threshold }

    public static func write(_ level: Level, _ message: String) { write(level) { message } }

    public static func write(_ level: Level, _ message: () -> String) {
        guard isEnabled(level) else { return }
        var bytes = Array(format(level, message(), prefixed: prefixesPriority).utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { try? FileDescriptor.standardError.writeAll($0) }
    }

    /// The log text for one message, without the final newline. Each line of
    /// a multi-line message gets the prefix: the journal splits stderr at
    /// newlines, and an unprefixed line would be stored at the default level.
    ///
    /// Every line is escaped and bounded (`DisplayEscaping`, a line at most):
    /// messages quote device strings and files, and a terminal obeys the
    /// control characters they may hold. Device strings arrive escaped
    /// already (`DeviceText`, `CaptureError`) and stay as they are; this is
    /// the last line of defence for anything that did not.
    public static func format(_ level: Level, _ message: String, prefixed: Bool) -> String {
        let prefix = prefixed ? "<\(level.rawValue)>" : ""
        return message.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { prefix + DisplayEscaping.escape(String($0), limit: DisplayEscaping.lineLimit) }
            .joined(separator: "\n")
    }
}

/// Whether a descriptor is connected to the journal: systemd sets
/// `$JOURNAL_STREAM` to the device and inode numbers (`DEV:INODE`, decimal)
/// of the stream it connects standard output or error to
/// (systemd.exec(5), sd-daemon(3)); a descriptor with the same numbers is
/// that stream. A process that inherited the variable but whose standard
/// error was redirected elsewhere sees other numbers.
public enum JournalStream {
    public static func isStandardError(environmentValue: String?) -> Bool {
        guard let expected = parse(environmentValue) else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == expected.device && UInt64(info.st_ino) == expected.inode
    }

    /// `DEV:INODE` as two numbers; nil when the value is not of that form.
    public static func parse(_ value: String?) -> (device: UInt64, inode: UInt64)? {
        guard let value else { return nil }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return nil }
        return (device, inode)
    }
}
