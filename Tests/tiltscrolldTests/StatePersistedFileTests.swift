import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A record as small as one can be, to test what every record gets from
/// `PersistedFile` (and to show what adding one takes).
private struct Note: PersistedRecord, Equatable {
    static let file = RecordFile(
        name: "note", storage: .state, kind: "note", sizeLimit: 32, permissions: .exactly(0o640))

    var text: String

    func formatted() throws(RecordFormatError) -> String {
        guard !text.contains("\n") else { throw RecordFormatError(message: "a note is one line") }
        return "note=\(text)\n"
    }

    static func parse(_ text: String) throws(RecordFormatError) -> Note {
        guard text.hasPrefix("note="), text.hasSuffix("\n") else {
            throw RecordFormatError(line: 1, message: "expected note=TEXT")
        }
        return Note(text: String(text.dropFirst(5).dropLast()))
    }
}

@Suite struct StatePersistedFile {
    @Test func savesAndLoadsBackWithTheRecordsModeAndNoTemporaryFileLeft() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let file = PersistedFile<Note>(directory: directory.path + "/state")
        #expect(file.load() == .missing)
        try file.save(Note(text: "first"))
        try file.save(Note(text: "second"))
        #expect(file.load() == .loaded(Note(text: "second")))
        #expect(directory.entries() == ["state"])
        #expect(directory.read("state/note") == "note=second\n")
        // Exactly the record's mode, whatever the umask; the directory gets the storage's.
        #expect(directory.permissions("state/note") == 0o640)
        #expect(directory.permissions("state") == 0o700 & ~Int(currentUmask()))
        try file.remove()
        #expect(file.load() == .missing)
        try file.remove()
    }

    @Test func aRecordThatCannotBeWrittenLeavesThePreviousFile() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let file = PersistedFile<Note>(directory: directory.path)
        try file.save(Note(text: "kept"))
        guard let error = thrownError(SystemError.self, try file.save(Note(text: "two\nlines"))) else {
            Issue.record("wrote a record its format refuses")
            return
        }
        #expect(error.code == .invalidArgument)
        #expect(error.operation == "write \(file.path): a note is one line")
        #expect(file.load() == .loaded(Note(text: "kept")))
        #expect(directory.entries() == ["note"])
    }

    @Test func namesTheFileAndTheProblemWhenItCannotBeUsed() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        let file = PersistedFile<Note>(directory: directory.path)
        try directory.write("note", "scribble\n")
        #expect(file.load() == .unusable("note \(file.path): line 1: expected note=TEXT"))
        try directory.write("note", String(repeating: "x", count: 33))
        #expect(file.load() == .unusable("note \(file.path) is larger than 32 bytes"))
        let invalidUTF8: [UInt8] = [0x6E, 0xFF, 0x0A]
        let fd = try FileDescriptor.open(file.path, [.writeOnly, .truncate])
        defer { fd.close() }
        try fd.writeAll(invalidUTF8)
        #expect(file.load() == .unusable("note \(file.path) is not text"))
    }

    @Test func doesNotFollowALinkPlantedInItsPlace() throws {
        let directory = ServiceTemporaryDirectory()
        defer { directory.remove() }
        try directory.write("elsewhere", "note=planted\n")
        let file = PersistedFile<Note>(directory: directory.path)
        try #require(symlink(directory.path + "/elsewhere", file.path) == 0)
        guard case .unusable = file.load() else {
            Issue.record("followed a link")
            return
        }
        // Replacing renames over the link itself; the target is untouched.
        try file.save(Note(text: "own"))
        #expect(file.load() == .loaded(Note(text: "own")))
        #expect(directory.read("elsewhere") == "note=planted\n")
    }

    @Test func eachKindOfStateHasItsDirectory() {
        #expect(PersistedFile<CalibrationRecord>.standard.path.hasSuffix("/calibration"))
        #expect(CalibrationRecord.file.storage == .state)
        #expect(SettingsJournalRecord.file.storage == .runtime)
        #expect(ProcessIDRecord.file.storage == .runtime)
        #expect(StorageDirectory.state.defaultPath == "/var/lib/tiltscroll")
        #expect(StorageDirectory.runtime.defaultPath == "/run/tiltscroll")
    }
}
