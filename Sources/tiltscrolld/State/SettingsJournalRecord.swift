import TiltScrollCommon

/// The settings journal on disk: the originals of the sysfs settings the
/// running daemon changed, for the next daemon to put back when this one
/// dies before it can (SIGKILL, a watchdog timeout, a crash). Without it the
/// next daemon would take the changed value (50 Hz) for the original and
/// never restore the device as it was found.
///
/// It lives next to the PID file, in the runtime directory
/// (`$RUNTIME_DIRECTORY/settings-journal`, `/run/tiltscroll/settings-journal`
/// by default): a tmpfs, so a reboot, which resets the devices anyway,
/// forgets it. The format, oldest change first:
///
///     # tiltscroll settings journal (tiltscrolld(8), FILES); written by tiltscrolld
///     version=1
///     /sys/devices/.../iio:device0/in_accel_sampling_frequency=0.781000
///     /sys/devices/.../iio:device0/trigger/current_trigger=
///
/// One line per change: the attribute's absolute path, `=`, and the text it
/// held before, possibly empty, written back as it stands. The path ends at
/// the first `=`, so it cannot contain one; neither may contain control
/// characters (a newline would split the entry). Lines starting with `#` and
/// blank lines are ignored; the file ends with a newline.
///
/// Root can write the file, so it is input: a path must lie under
/// `/sys/devices`, without `.` or `..` components, and name an attribute of
/// the kinds a capture changes (a sampling frequency, `buffer/enable`,
/// `buffer/length`, `scan_elements/*_en`, `trigger/current_trigger`,
/// `current_timestamp_clock`, a change sensitivity `*_hysteresis`), so it
/// can never be made to write `remove` or
/// `unbind`. A file with any line that does not fit is not used at all: half
/// of a journal would leave a device in a state nobody chose.
struct SettingsJournalRecord: PersistedRecord, Equatable {
    /// A journal holds a handful of lines; anything much larger is not one.
    package static let file = RecordFile(
        name: "settings-journal", storage: .runtime, kind: "settings journal", sizeLimit: 16384,
        permissions: .masked(0o600))
    static let version = 1
    /// Where every device, and so every attribute a capture changes, lives.
    static let sysfsDevices = "/sys/devices"

    /// One recorded change: the attribute and the text it held before.
    struct Entry: Equatable {
        var path: String
        var original: String
    }

    /// The changes, oldest first.
    var entries: [Entry]

    package func formatted() throws(RecordFormatError) -> String { try SettingsJournalRecord.format(entries) }

    package static func parse(_ text: String) throws(RecordFormatError) -> SettingsJournalRecord {
        try parse(text, sysfsRoot: sysfsDevices)
    }

    static func parse(_ text: String, sysfsRoot: String) throws(RecordFormatError) -> SettingsJournalRecord {
        SettingsJournalRecord(entries: try entries(in: text, sysfsRoot: sysfsRoot))
    }

    // MARK: - The format

    /// The file's content for `entries`, or why they cannot be written so
    /// that `parse` gives them back.
    static func format(_ entries: [Entry]) throws(RecordFormatError) -> String {
        var text = "# tiltscroll settings journal (tiltscrolld(8), FILES); written by tiltscrolld\n"
        text += "version=\(version)\n"
        for entry in entries {
            if let problem = problemWithPath(entry.path) ?? problemWithValue(entry.original, of: entry.path) {
                throw RecordFormatError(message: problem)
            }
            text += entry.path + "=" + entry.original + "\n"
        }
        return text
    }

    /// The entries in `text`, oldest first, or the first problem found.
    static func entries(in text: String, sysfsRoot: String = sysfsDevices) throws(RecordFormatError) -> [Entry] {
        guard text.utf8.last == UInt8(ascii: "\n") else {
            throw RecordFormatError(message: "it does not end with a newline (cut short?)")
        }
        var entries: [Entry] = []
        var sawVersion = false
        var lineNumber = 0
        let lines = String(text.unicodeScalars.dropLast()).split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            lineNumber += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw RecordFormatError(line: lineNumber, message: "expected PATH=VALUE, got '\(line)'")
            }
            let key = String(line[..<equals])
            let value = String(line[line.index(after: equals)...])
            guard sawVersion else {
                guard key == "version" else {
                    throw RecordFormatError(line: lineNumber, message: "expected version=\(version) first")
                }
                guard value == String(version) else {
                    throw RecordFormatError(
                        line: lineNumber,
                        message: "version '\(value)' is not \(version) (another tiltscroll wrote it)")
                }
                sawVersion = true
                continue
            }
            if let problem = problemWithPath(key, under: sysfsRoot) ?? problemWithValue(value, of: key) {
                throw RecordFormatError(line: lineNumber, message: problem)
            }
            entries.append(Entry(path: key, original: value))
        }
        guard sawVersion else { throw RecordFormatError(message: "'version' is missing") }
        return entries
    }

    /// Why `path` cannot be written to the file (`root` nil) or restored
    /// from it (`root` the directory it must lie under), or nil.
    private static func problemWithPath(_ path: String, under root: String? = nil) -> String? {
        if hasControlCharacters(path) { return "the path '\(path)' contains control characters" }
        if path.contains("=") { return "the path '\(path)' contains '='" }
        guard path.hasPrefix("/") else { return "the path '\(path)' is not absolute" }
        guard let root else { return nil }
        guard path.hasPrefix(root + "/") else { return "'\(path)' is not under \(root)" }
        let components = path.dropFirst(root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        if components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
            return "'\(path)' has an empty, '.' or '..' component"
        }
        guard isCaptureSetting(components) else {
            return "'\(path)' is not a setting tiltscrolld changes"
        }
        return nil
    }

    /// Whether the path (as components) ends in an attribute a capture changes.
    private static func isCaptureSetting(_ components: [Substring]) -> Bool {
        guard let name = components.last else { return false }
        let parent = components.count >= 2 ? components[components.count - 2] : ""
        switch (parent, name) {
        case ("buffer", "enable"), ("buffer", "length"), ("trigger", "current_trigger"): return true
        case ("scan_elements", _): return name.hasSuffix("_en")
        default:
            return name == "current_timestamp_clock" || name.hasSuffix("sampling_frequency")
                || name.hasSuffix("_hysteresis")
        }
    }

    private static func problemWithValue(_ value: String, of path: String) -> String? {
        hasControlCharacters(value) ? "the value of \(path) contains control characters (a newline?)" : nil
    }

    private static func hasControlCharacters<S: StringProtocol>(_ text: S) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}

/// The journal file in the runtime directory.
typealias SettingsJournalFile = PersistedFile<SettingsJournalRecord>

extension PersistedFile where Record == SettingsJournalRecord {
    /// Reads the journal, accepting only attributes under `sysfsRoot`.
    func load(sysfsRoot: String) -> Loaded {
        load { (text) throws(RecordFormatError) in
            try SettingsJournalRecord.parse(text, sysfsRoot: sysfsRoot)
        }
    }
}
