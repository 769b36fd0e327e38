import Glibc

/// The daemon's log: one line per event to stderr, each prefixed with the
/// sd-daemon(3) priority marker (`<3>` error ... `<7>` debug) so the journal
/// keeps the level when running under systemd. Quiet by default: debug lines
/// appear only with `--verbose`. Never one line per sample.
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
    nonisolated(unsafe) static var prefixesPriority: Bool = isatty(STDERR_FILENO) == 0

    static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
    static func warning(_ message: @autoclosure () -> String) { write(.warning, message()) }
    static func notice(_ message: @autoclosure () -> String) { write(.notice, message()) }
    static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    static func debug(_ message: @autoclosure () -> String) {
        guard threshold >= .debug else { return }
        write(.debug, message())
    }

    static func write(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        let line = format(level, message, prefixed: prefixesPriority)
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { _ = FileDescriptor(rawValue: STDERR_FILENO).writeAll($0) }
    }

    /// One log line without its newline.
    static func format(_ level: Level, _ message: String, prefixed: Bool) -> String {
        prefixed ? "<\(level.rawValue)>\(message)" : message
    }
}
