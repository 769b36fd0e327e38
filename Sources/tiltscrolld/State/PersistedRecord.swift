/// A small file tiltscrolld keeps between runs: the calibration, the PID
/// file, the settings journal. The record says what the file is called,
/// which directory holds it and how its text reads; `PersistedFile` stores
/// every record the same way (one loader, one atomic replace).
///
/// Adding one is a type with these members and a `PersistedFile` of it
/// (CalibrationRecord.swift is a line-based `key=value` example).
protocol PersistedRecord {
    /// The file's name in its directory.
    static var fileName: String { get }
    /// Which directory holds it.
    static var storage: StorageDirectory { get }
    /// What messages call it: "calibration", "settings journal".
    static var name: String { get }
    /// The largest file of this kind, in bytes; a larger one is not one of
    /// ours, and is not read beyond this.
    static var sizeLimit: Int { get }
    static var permissions: FilePermissions { get }
    /// The file's text, or why this record cannot be written so that
    /// `parse` gives it back.
    func formatted() throws(RecordFormatError) -> String
    /// The record in a file's text, or the first problem found in it.
    static func parse(_ text: String) throws(RecordFormatError) -> Self
}

/// Why a persisted file cannot be used or written, with the line it is on
/// (nil when it concerns the whole file).
struct RecordFormatError: Error, Equatable, CustomStringConvertible {
    var line: Int?
    var message: String

    init(line: Int? = nil, message: String) {
        self.line = line
        self.message = message
    }

    var description: String { line.map { "line \($0): \(message)" } ?? message }
}
