/// A small file tiltscrolld keeps between runs: the calibration, the PID
/// file, the settings journal. The record says which file holds it and how
/// its text reads; `PersistedFile` stores every record the same way (one
/// loader, one atomic replace).
///
/// Adding one is a type with these three members and a `PersistedFile` of it
/// (CalibrationStore.swift and CalibrationRecord.swift: a line-based
/// `key=value` example).
package protocol PersistedRecord {
    /// The file: its name, directory, size limit and mode.
    static var file: RecordFile { get }
    /// The file's text, or why this record cannot be written so that
    /// `parse` gives it back.
    func formatted() throws(RecordFormatError) -> String
    /// The record in a file's text, or the first problem found in it.
    static func parse(_ text: String) throws(RecordFormatError) -> Self
}

/// The file a kind of record is kept in.
package struct RecordFile: Equatable {
    /// The file's name in its directory.
    package var name: String
    /// Which directory holds it.
    package var storage: StorageDirectory
    /// What messages call it: "calibration", "settings journal".
    package var kind: String
    /// The largest file of this kind, in bytes; a larger one is not one of
    /// ours, and is not read beyond this.
    package var sizeLimit: Int
    package var permissions: FilePermissions

    package init(name: String, storage: StorageDirectory, kind: String, sizeLimit: Int, permissions: FilePermissions) {
        self.name = name
        self.storage = storage
        self.kind = kind
        self.sizeLimit = sizeLimit
        self.permissions = permissions
    }
}

/// Why a persisted file cannot be used or written, with the line it is on
/// (nil when it concerns the whole file).
package struct RecordFormatError: Error, Equatable, CustomStringConvertible {
    package var line: Int?
    package var message: String

    package init(line: Int? = nil, message: String) {
        self.line = line
        self.message = message
    }

    package var description: String { line.map { "line \($0): \(message)" } ?? message }
}
