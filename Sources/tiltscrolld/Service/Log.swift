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
enum Log {
    enum Level: Int32, Comparable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7

        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The most detailed level written. Set once at start-up from `--verbose`;
    /// the daemon is single-threaded, so this is only ever touched from one thread.
    nonisolated(unsafe) static var threshold: Level = .info

    /// Whether to write the `<N>` prefix. Off when stderr is a terminal, where
    /// a person reads it instead of the journal.
    nonisolated(unsafe) static var prefixesPriority: Bool = !FileDescriptor.standardError.isTerminal

    static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    static func notice(_ message: @autoclosure () -> String) { write(.notice, message) }
    static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    /// Whether a message at `level` would be written.
    static func isEnabled(_ level: Level) -> Bool { level <= threshold }

    static func write(_ level: Level, _ message: String) { write(level) { message } }

    static func write(_ level: Level, _ message: () -> String) {
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
    static func format(_ level: Level, _ message: String, prefixed: Bool) -> String {
        let prefix = prefixed ? "<\(level.rawValue)>" : ""
        return message.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { prefix + DisplayEscaping.escape(String($0), limit: DisplayEscaping.lineLimit) }
            .joined(separator: "\n")
    }
}
