/// Where one record lives, and the one way every record is read, replaced
/// and removed.
///
/// Loading never fails: a missing file is `.missing`, and one that cannot
/// be read or parsed is `.unusable` with a message naming it, for the caller
/// to report and carry on. Saving replaces the file atomically
/// (`FileSystem.replace`): a daemon killed or a machine losing power at any
/// moment leaves the previous record or the new one, never a mix.
public struct PersistedFile<Record: PersistedRecord>: Equatable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The record's file in `directory`.
    public init(directory: String) { path = directory + "/" + Record.file.name }

    /// The record's file in its directory as the environment names it.
    public static var standard: PersistedFile { PersistedFile(directory: Record.file.storage.path) }

    /// The directory the file is in.
    public var directory: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }

    /// What `load` found.
    public enum Loaded {
        /// No file: nothing was saved yet, or it was removed. Not a problem.
        case missing
        case loaded(Record)
        /// The file exists but cannot be used; the message names it and says why.
        case unusable(String)
    }

    /// Reads and parses the file.
    public func load() -> Loaded { load(parsing: Record.parse) }

    /// Reads the file and parses it with `parse`, for records that read
    /// differently in tests (the settings journal's sysfs root).
    public func load(parsing parse: (String) throws(RecordFormatError) -> Record) -> Loaded {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: Record.file.sizeLimit)
        } catch  where error.code == .noSuchFileOrDirectory {
            return .missing
        } catch  where error.code == .fileTooLarge {
            return .unusable("\(Record.file.kind) \(path) is larger than \(Record.file.sizeLimit) bytes")
        } catch {
            return .unusable("cannot read the \(Record.file.kind): \(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unusable("\(Record.file.kind) \(path) is not text")
        }
        do {
            return .loaded(try parse(text))
        } catch {
            return .unusable("\(Record.file.kind) \(path): \(error)")
        }
    }

    /// Replaces the file with `record`, creating its directory (one level)
    /// first. On failure the previous file is untouched and the error says
    /// which step failed.
    public func save(_ record: Record) throws(SystemError) {
        let text: String
        do {
            text = try record.formatted()
        } catch {
            throw SystemError(code: .invalidArgument, operation: "write \(path): \(error)")
        }
        try FileSystem.makeDirectory(directory, permissions: Record.file.storage.permissions)
        try FileSystem.replace(path, with: Array(text.utf8), permissions: Record.file.permissions)
    }

    /// Removes the file; one that is already gone is success.
    public func remove() throws(SystemError) {
        do {
            try FileSystem.removeFile(path)
        } catch  where error.code == .noSuchFileOrDirectory {}
    }
}

extension PersistedFile.Loaded: Equatable where Record: Equatable {}
