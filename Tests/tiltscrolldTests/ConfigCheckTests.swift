import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

private func check(_ text: String) -> Configuration.Check {
    Configuration.check(bytes: Array(text.utf8), file: "f.conf")
}

/// `--check-config`: every problem of a file at once, by line.
@Suite struct ConfigCheck {
    @Test func reportsEveryProblemOnItsLineInOrder() {
        let result = check(
            "[Scroll]\nSped=3\nInvert=maybe\n[Scrol]\nSpeed=5\n[Device]\nSampleRate=fast\ngarbage\nMode=poll\n")
        #expect(result.problems.map(\.line) == [2, 3, 4, 7, 8])
        #expect(result.problems[0].message.hasPrefix("unknown key 'Sped' in [Scroll]; did you mean 'Speed'?"))
        #expect(result.problems[1].message.hasPrefix("Invert must be a boolean"))
        #expect(result.problems[2].message == "unknown section [Scrol]; did you mean [Scroll]?")
        #expect(result.problems[3].message.hasPrefix("SampleRate must be a number between 1 and 1000, got 'fast'"))
        #expect(result.problems[4].message == "expected 'Key=value' or '[Section]', got 'garbage'")
        let lines = result.report.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines.first == "f.conf:2: unknown key 'Sped' in [Scroll]; did you mean 'Speed'?")
        #expect(lines.last == "f.conf:8: expected 'Key=value' or '[Section]', got 'garbage'")
        // The valid keys count: the configuration is what the good lines say.
        #expect(result.configuration.device.mode == .poll)
    }

    @Test func aProblemFoundLastIsStillReportedOnItsLine() throws {
        // The combination is judged after the whole file, and blames line 2.
        let result = check("[Scroll]\nDeadZone=30\nMaxTilt=20\nCurve=steep\n")
        #expect(result.problems.map(\.line) == [2, 4])
        #expect(result.problems[0].message == "DeadZone (30) must be smaller than MaxTilt (20, set on line 3)")
        // Parsing throws the first problem of the file.
        let error = try #require(parseError("[Scroll]\nDeadZone=30\nMaxTilt=20\nCurve=steep\n"))
        #expect(error.line == 2)
    }

    @Test func doesNotJudgeACombinationWithAValueThatWasRefused() {
        // MaxTilt's value is refused; DeadZone=30 against the default MaxTilt would only mislead.
        let result = check("[Scroll]\nMaxTilt=abc\nDeadZone=30\n")
        #expect(result.problems.map(\.line) == [2])
    }

    @Test func keysUnderABrokenOrUnknownSectionAreNotReportedAgain() {
        #expect(check("[Scroll\nSpeed=3\nWhatever=1\n").problems.map(\.line) == [1])
        #expect(check("[Scrolling]\nSped=3\n").problems.map(\.line) == [1])
        // A key before any header is misplaced, and said so.
        #expect(check("Speed=3\n[Scroll]\nSpeed=4\n").problems.map(\.line) == [1])
    }

    @Test func unreadableLinesAreReportedAndTheRestIsChecked() {
        let bytes = Array("[Scroll]\n".utf8) + [0x53, 0x00, 0x0A] + Array("Speed=x\n".utf8) + [0xE9, 0x0A]
        let result = Configuration.check(bytes: bytes, file: "f.conf")
        #expect(result.problems.map(\.line) == [2, 3, 4])
        #expect(result.problems.map(\.message).first == "the line contains a NUL byte")
        #expect(result.problems.map(\.message).last == "the line is not valid UTF-8 text")
    }

    @Test func aFileThatCannotBeReadIsOneProblem() throws {
        let huge = check(String(repeating: "#\n", count: 40_000))
        #expect(huge.problems.count == 1)
        #expect(huge.problems.first?.line == nil)
        #expect(huge.report.hasPrefix("f.conf: the file is larger than 65536 bytes"))
        let scratch = try ScratchDirectory()
        let missing = Configuration.check(path: scratch.path + "/none.conf", required: true)
        #expect(missing.report == "\(scratch.path)/none.conf: cannot read the configuration: No such file or directory")
        #expect(Configuration.check(path: scratch.path + "/none.conf", required: false).problems.isEmpty)
    }

    @Test func aValidFileHasNoProblems() {
        let result = check("[Scroll]\nSpeed=20\n")
        #expect(result.problems.isEmpty)
        #expect(result.report == "")
        #expect(result.configuration.scroll.speed == 20)
    }
}
