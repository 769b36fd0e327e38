import Foundation
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A scratch directory removed when the test ends.
final class ScratchDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "tiltscroll-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = "\(path)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}

@Suite struct ConfigLoading {
    @Test func aMissingDefaultFileMeansTheDefaults() throws {
        let scratch = try ScratchDirectory()
        #expect(try Configuration.load(path: "\(scratch.path)/tiltscroll.conf", required: false) == Configuration())
    }

    @Test func aMissingRequiredFileIsAnError() throws {
        let scratch = try ScratchDirectory()
        let path = "\(scratch.path)/tiltscroll.conf"
        #expect(
            throws: ConfigError(
                file: path, line: nil, message: "cannot read the configuration: No such file or directory")
        ) { try Configuration.load(path: path, required: true) }
    }

    @Test func readsAndParsesAFile() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("a.conf", Array("[Scroll]\nSpeed=20\n[Activation]\nWhen=always\n".utf8))
        var expected = Configuration()
        expected.scroll.speed = 20
        expected.activation.when = .always
        #expect(try Configuration.load(path: path, required: true) == expected)
    }

    @Test func errorsNameTheFileAsGiven() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("bad.conf", Array("[Scroll]\nSpeed=fast\n".utf8))
        guard let error = thrownError(ConfigError.self, try Configuration.load(path: path, required: false)) else {
            Issue.record("loaded a bad file")
            return
        }
        #expect(error.description == "\(path):2: Speed must be a number between 0 and 1000, got 'fast'")
    }

    @Test func aDirectoryIsAnErrorEvenWhenNotRequired() throws {
        let scratch = try ScratchDirectory()
        guard let error = thrownError(ConfigError.self, try Configuration.load(path: scratch.path, required: false))
        else {
            Issue.record("loaded a directory")
            return
        }
        #expect(error.line == nil)
        #expect(error.message == "cannot read the configuration: Is a directory")
    }

    @Test func refusesAFileLargerThanTheCapWithoutReadingItAll() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("huge.conf", [UInt8](repeating: 0x23, count: 1 << 20))
        guard let error = thrownError(ConfigError.self, try Configuration.load(path: path, required: true)) else {
            Issue.record("loaded a 1 MiB file")
            return
        }
        #expect(error.message.hasPrefix("the file is larger than 65536 bytes"))
    }

    @Test func readsAFileOfExactlyTheCap() throws {
        let scratch = try ScratchDirectory()
        let body = Array("[Scroll]\nSpeed=9\n".utf8)
        let padding = [UInt8](repeating: 0x0A, count: ConfigFileSyntax.maximumFileSize - body.count)
        let path = try scratch.write("full.conf", body + padding)
        var expected = Configuration()
        expected.scroll.speed = 9
        #expect(try Configuration.load(path: path, required: true) == expected)
    }

    @Test func reportsInvalidUTF8WithItsLine() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(
            "latin1.conf", Array("[Device]\n".utf8) + [0x4E, 0x61, 0x6D, 0x65, 0x3D, 0xE9, 0x0A])
        #expect(throws: ConfigError(file: path, line: 2, message: "the line is not valid UTF-8 text")) {
            try Configuration.load(path: path, required: true)
        }
    }
}
