/// A small file tiltscrolld keeps between runs: the calibration, the PID
/// file, the settings journal. The record says which file holds it and how
/// its text reads; `PersistedFile` stores every record the same way (one
/// loader, one atomic replace).
///
/// Adding one is a type with these three members and a `PersistedFile` of it
/// (CalibrationStore.swift and CalibrationRecord.swift: a line-based
/// `key=value` example).
public protocol PersistedRecord {
    /// The file: its name, directory, size limit and mode.
    static var file: RecordFile { get }
    /// The file's text, or why this record cannot be written so that
    /// `parse` gives it back.
    func formatted() throws(RecordFormatError) -> String
    /// The record in a file's text, or the first problem found in it.
    static func parse(_ text: String) throws(RecordFormatError) -> Self
}

/// The file a kind of record is kept in.
public struct RecordFile: Equatable, Sendable {
    /// The file's name in its directory.
    public var name: String
    /// Which directory holds it.
    public var storage: StorageDirectory
    /// What messages call it: "calibration", "settings journal".
    public var kind: String
    /// The largest file of this kind, in bytes; a larger one is not one of
    /// ours, and is not read beyond this.
    public var sizeLimit: Int
    public var permissions: FilePermissions

    public init(name: String, storage: StorageDirectory, kind: String, sizeLimit: Int, permissions: FilePermissions) {
        self.name = name
        self.storage = storage
        self.kind = kind
        self.sizeLimit = sizeLimit
        self.permissions = permissions
    }
}

/// Why a persisted file cannot be used or written, with the line it is on
/// (nil when it concerns the whole file).
public struct RecordFormatError: Error, Equatable, CustomStringConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int? = nil, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
