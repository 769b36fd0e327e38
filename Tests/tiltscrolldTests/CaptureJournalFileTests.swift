import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

private typealias Entry = SettingsJournalRecord.Entry

@Suite struct CaptureJournalFileFormat {
    private let device = "/sys/devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-2/i2c-KIOX000A:00/iio:device0"

    private func journal(_ lines: String...) -> String {
        "# tiltscroll settings journal\nversion=1\n" + lines.map { $0 + "\n" }.joined()
    }

    private func problem(_ text: String, root: String = "/sys/devices") -> RecordFormatError? {
        guard
            let error = thrownError(
                RecordFormatError.self, try SettingsJournalRecord.entries(in: text, sysfsRoot: root))
        else { return nil }
        return error
    }

    @Test func roundTripsEveryKindOfSettingAndValue() throws {
        let entries = [
            Entry(path: device + "/scan_elements/in_accel_x_en", original: "0"),
            Entry(path: device + "/trigger/current_trigger", original: ""),
            Entry(path: device + "/in_accel_sampling_frequency", original: "0.781000"),
            Entry(path: device + "/in_accel_sampling_frequency", original: "12.500000"),
            Entry(path: device + "/sampling_frequency", original: "a b=c"),
            Entry(path: device + "/current_timestamp_clock", original: "realtime"),
            Entry(path: device + "/buffer/length", original: "2"),
            Entry(path: device + "/buffer/enable", original: "0"),
        ]
        let text = try SettingsJournalRecord.format(entries)
        #expect(text.hasPrefix("# tiltscroll settings journal (tiltscrolld(8), FILES); written by tiltscrolld\n"))
        #expect(text.contains("\n\(device)/trigger/current_trigger=\n"))
        #expect(try SettingsJournalRecord.entries(in: text) == entries)
        #expect(try SettingsJournalRecord.entries(in: try SettingsJournalRecord.format([])) == [])
    }

    @Test func refusesToWriteWhatWouldNotReadBack() {
        for entry in [
            Entry(path: device + "/sampling_frequency", original: "1\n2"),
            Entry(path: device + "/sampling_frequency", original: "1\r"),
            Entry(path: device + "/a=b/sampling_frequency", original: "1"),
            Entry(path: "sampling_frequency", original: "1"),
        ] {
            #expect(throws: RecordFormatError.self) { try SettingsJournalRecord.format([entry]) }
        }
    }

    @Test func skipsCommentsAndBlankLines() throws {
        let text = "# a comment\n\nversion=1\n\n# another\n\(device)/buffer/enable=0\n"
        #expect(try SettingsJournalRecord.entries(in: text) == [Entry(path: device + "/buffer/enable", original: "0")])
    }

    @Test func refusesAFileThatIsNotAJournalOfThisVersion() {
        #expect(problem("") != nil)
        #expect(problem("# only a comment\n")?.message == "'version' is missing")
        #expect(problem("version=2\n")?.line == 1)
        #expect(problem("\(device)/buffer/enable=0\nversion=1\n")?.message == "expected version=1 first")
        // Cut short: the last line could hold half a value.
        #expect(problem("version=1\n\(device)/in_accel_sampling_frequency=0.78")?.message.contains("newline") == true)
    }

    @Test func refusesCorruptLinesNamingThem() {
        #expect(problem(journal("\(device)/buffer/enable=0", "garbage"))?.line == 4)
        #expect(problem(journal("\(device)/buffer/enable=0\r")) != nil)
        #expect(problem(journal("\(device)/buffer/enable=\u{1}")) != nil)
        #expect(problem(journal("\(device)/buffer/enable\u{0}=0")) != nil)
        #expect(problem(journal("=0")) != nil)
    }

    @Test func refusesPathsOutsideTheDeviceTree() {
        for path in [
            "/etc/passwd", "relative/sampling_frequency", "/sys/devicesX/sampling_frequency",
            "/sys/kernel/debug/sampling_frequency", "/sys/devices/../kernel/sampling_frequency",
            "/sys/devices/./x/sampling_frequency", "/sys/devices//x/sampling_frequency",
            "/sys/devices/sampling_frequency/..",
        ] {
            #expect(problem(journal("\(path)=1")) != nil, "accepted \(path)")
        }
    }

    @Test func refusesAttributesACaptureNeverChanges() {
        for name in [
            "remove", "driver/unbind", "power/control", "buffer/watermark", "scan_elements/in_accel_x_index",
            "trigger/other", "enable", "in_accel_x_raw",
        ] {
            #expect(problem(journal("\(device)/\(name)=1")) != nil, "accepted \(name)")
        }
    }

    @Test func acceptsADeviceTreeElsewhereWhenTold() throws {
        let entries = try SettingsJournalRecord.entries(
            in: journal("/tmp/tree/buffer/enable=0"), sysfsRoot: "/tmp/tree")
        #expect(entries == [Entry(path: "/tmp/tree/buffer/enable", original: "0")])
        #expect(problem(journal("/tmp/tree/buffer/enable=0")) != nil)
    }
}

@Suite struct CaptureJournalFilePersistence {
    @Test func loadsNothingFromAMissingFileAndNamesAnUnusableOne() throws {
        let tree = try CaptureTestTree(["settings-journal": "version=1\nnot a line\n"])
        #expect(SettingsJournalFile(directory: tree.path + "/none").load() == .missing)
        let file = SettingsJournalFile(directory: tree.path)
        guard case .unusable(let message) = file.load() else {
            Issue.record("a corrupt file was used")
            return
        }
        #expect(message.contains(file.path))
        #expect(message.contains("line 2"))
    }

    @Test func refusesToFollowALink() throws {
        let tree = try CaptureTestTree(["elsewhere": "version=1\n"])
        let file = SettingsJournalFile(directory: tree.path)
        try #require(symlink(tree.file("elsewhere"), file.path) == 0)
        guard case .unusable = file.load() else {
            Issue.record("followed a link")
            return
        }
    }

    @Test func recordsEachChangeBeforeMakingItAndForgetsThemOnceRestored() throws {
        let tree = try CaptureTestTree(["sampling_frequency": "1\n", "buffer/enable": "0\n"])
        let file = SettingsJournalFile(directory: tree.path)
        let journal = SettingsJournal(file: file)
        try journal.change(tree.file("sampling_frequency"), to: "50", from: "1")
        #expect(
            file.load(sysfsRoot: tree.path)
                == .loaded(
                    SettingsJournalRecord(entries: [Entry(path: tree.file("sampling_frequency"), original: "1")])))
        // A change that fails leaves nothing to restore, in the file too.
        #expect(throws: SystemError.self) { try journal.change(tree.file("missing_en"), to: "1", from: "0") }
        try journal.change(tree.file("buffer/enable"), to: "1", from: "0")
        #expect(
            file.load(sysfsRoot: tree.path)
                == .loaded(
                    SettingsJournalRecord(entries: [
                        Entry(path: tree.file("sampling_frequency"), original: "1"),
                        Entry(path: tree.file("buffer/enable"), original: "0"),
                    ])))
        // No temporary file is left beside it.
        #expect(!FileSystem.exists(tree.path + "/.settings-journal.tmp"))
        journal.restoreAll()
        #expect(file.load(sysfsRoot: tree.path) == .missing)
        #expect(tree.read("sampling_frequency") == "1")
    }

    @Test func aJournalThatChangesNothingWritesNoFile() throws {
        let tree = try CaptureTestTree(["sampling_frequency": "50\n"])
        let file = SettingsJournalFile(directory: tree.path)
        let journal = SettingsJournal(file: file)
        try journal.change(tree.file("sampling_frequency"), to: "50", from: "50")
        #expect(file.load(sysfsRoot: tree.path) == .missing)
        journal.restoreAll()
        #expect(file.load(sysfsRoot: tree.path) == .missing)
    }

    @Test func aPolledCaptureKeepsItsChangeInTheFileWhileItRuns() throws {
        let tree = try CaptureTestTree(CaptureTestTree.pollAttributes().merging(["sampling_frequency": "1\n"]) { $1 })
        let file = SettingsJournalFile(directory: tree.path)
        let capture = try PollCapture.open(
            try #require(tree.device(name: "lis3dh")), rate: 50, now: 0, journalFile: file
        )
        #expect(
            file.load(sysfsRoot: tree.path)
                == .loaded(
                    SettingsJournalRecord(entries: [Entry(path: tree.file("sampling_frequency"), original: "1")])))
        capture.release()
        #expect(file.load(sysfsRoot: tree.path) == .missing)
    }
}

@Suite struct CaptureJournalRecovery {
    /// A device directory named like the kernel's, inside the tree.
    private static let device = "iio:device0"

    @Test func restoresWhatAKilledDaemonLeftNewestFirst() throws {
        let tree = try CaptureTestTree([
            "\(Self.device)/in_accel_sampling_frequency": "0.781000\n", "\(Self.device)/buffer/enable": "0\n",
            "\(Self.device)/trigger/current_trigger": "\n",
        ])
        let file = SettingsJournalFile(directory: tree.path)
        // The daemon that is killed: its journal is never restored.
        do {
            let journal = SettingsJournal(file: file)
            let frequency = tree.file("\(Self.device)/in_accel_sampling_frequency")
            try journal.change(frequency, to: "12.5", from: "0.781000")
            try journal.change(frequency, to: "50", from: "12.5")
            try journal.change(tree.file("\(Self.device)/trigger/current_trigger"), to: "t-dev0", from: "")
            try journal.change(tree.file("\(Self.device)/buffer/enable"), to: "1", from: "0")
        }
        #expect(tree.read("\(Self.device)/in_accel_sampling_frequency") == "50")

        // The next daemon, before it captures.
        #expect(SettingsJournal.restoreLeftovers(from: file, sysfsRoot: tree.path) == 3)
        #expect(tree.read("\(Self.device)/in_accel_sampling_frequency") == "0.781000")
        #expect(tree.read("\(Self.device)/trigger/current_trigger") == "")
        #expect(tree.read("\(Self.device)/buffer/enable") == "0")
        #expect(file.load(sysfsRoot: tree.path) == .missing)
        #expect(SettingsJournal.restoreLeftovers(from: file, sysfsRoot: tree.path) == 0)
    }

    @Test func skipsSettingsOfADeviceThatIsGone() throws {
        let tree = try CaptureTestTree(["\(Self.device)/buffer/length": "64\n"])
        try tree.write(
            "settings-journal",
            "version=1\n\(tree.path)/iio:device1/buffer/enable=0\n\(tree.path)/\(Self.device)/buffer/length=2\n")
        let file = SettingsJournalFile(directory: tree.path)
        #expect(SettingsJournal.restoreLeftovers(from: file, sysfsRoot: tree.path) == 1)
        #expect(tree.read("\(Self.device)/buffer/length") == "2")
        #expect(file.load(sysfsRoot: tree.path) == .missing)
    }

    @Test func ignoresAndRemovesAJournalWithAnyBadLine() throws {
        let tree = try CaptureTestTree(["\(Self.device)/buffer/length": "64\n", "remove": "0\n"])
        try tree.write(
            "settings-journal", "version=1\n\(tree.path)/\(Self.device)/buffer/length=2\n\(tree.path)/remove=1\n")
        let file = SettingsJournalFile(directory: tree.path)
        #expect(SettingsJournal.restoreLeftovers(from: file, sysfsRoot: tree.path) == 0)
        #expect(tree.read("\(Self.device)/buffer/length") == "64")
        #expect(tree.read("remove") == "0")
        #expect(file.load(sysfsRoot: tree.path) == .missing)
    }
}
