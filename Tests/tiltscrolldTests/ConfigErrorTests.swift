import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct ConfigErrors {
    @Test func describesTheFileLineAndProblemLikeACompiler() {
        let text = "# tilt\n\n[Device]\nSampleRate=50\n\n[Scroll]\nSpeed=fast\n"
        guard let error = thrownError(ConfigError.self, try Configuration.parse(text, file: "/etc/tiltscroll.conf"))
        else {
            Issue.record("parsed a bad Speed")
            return
        }
        #expect(error.line == 7)
        #expect(error.description == "/etc/tiltscroll.conf:7: Speed must be a number between 0 and 1000, got 'fast'")
    }

    /// Each numeric key refuses a value just outside its range and names the range.
    @Test(arguments: [
        ("Device", "SampleRate", "0", "between 1 and 1000"), ("Device", "SampleRate", "1001", "between 1 and 1000"),
        ("Scroll", "Speed", "0", "between 0 and 1000"), ("Scroll", "Speed", "1000.5", "between 0 and 1000"),
        ("Scroll", "DeadZone", "-1", "between 0 and 45"), ("Scroll", "MaxTilt", "91", "between 1 and 90"),
        ("Scroll", "MaxTilt", "0.5", "between 1 and 90"),
        ("Scroll", "Curve", "0.2", "between 0.25 and 5"), ("Scroll", "Curve", "5.5", "between 0.25 and 5"),
        ("Scroll", "HorizontalDeadZone", "46", "between 0 and 45"),
        ("Scroll", "SmoothingCutoff", "0", "between 0.01 and 100"),
        ("Scroll", "SmoothingBeta", "-0.1", "between 0 and 10"),
        ("Scroll", "Inertia", "5001", "between 0 and 5000"), ("Scroll", "Acceleration", "0.5", "between 1 and 100000"),
        ("Scroll", "OutputRate", "9", "between 10 and 500"), ("Scroll", "OutputRate", "501", "between 10 and 500"),
        ("Scroll", "GravityTolerance", "0.001", "between 0.01 and 0.9"),
        ("Scroll", "GravityTolerance", "1", "between 0.01 and 0.9"),
    ])
    func refusesNumbersOutsideTheRange(section: String, key: String, value: String, range: String) throws {
        let error = try #require(parseError("[\(section)]\n\n\(key)=\(value)\n"))
        #expect(error.line == 3)
        #expect(
            error.message == "\(key) must be a number \(range), got '\(value)'"
                || error.message.hasPrefix("\(key) must be a number \(range), got '\(value)' ("))
    }

    @Test func saysWhenAnExcludedEndWasGiven() throws {
        let error = try #require(parseError("[Scroll]\nSpeed=0\n"))
        #expect(error.message == "Speed must be a number between 0 and 1000, got '0' (0 itself is not allowed)")
    }

    @Test(arguments: ["5 # fast", "12abc", "nan", "inf", "0x10", "1,5", "", "5 5", "1e400"])
    func refusesValuesThatAreNotPlainNumbers(value: String) throws {
        let error = try #require(parseError("[Scroll]\nSpeed=\(value)\n"))
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("Speed must be a number between 0 and 1000, got '\(value)'"))
    }

    @Test func pointsOutTrailingComments() throws {
        let error = try #require(parseError("[Scroll]\nSpeed=5 ; fast\n"))
        #expect(error.message.hasSuffix("(comments must be on a line of their own)"))
    }

    @Test func refusesNonBooleans() throws {
        let error = try #require(parseError("[Scroll]\nInvert=maybe\n"))
        #expect(error.line == 2)
        #expect(error.message == "Invert must be a boolean (yes/no, true/false, on/off, 1/0), got 'maybe'")
    }

    @Test func refusesUnknownChoicesAndSuggestsTheNearest() throws {
        let mode = try #require(parseError("[Device]\nMode=bufer\n"))
        #expect(mode.message == "Mode must be one of auto, poll, buffer, got 'bufer'; did you mean 'buffer'?")
        let when = try #require(parseError("[Activation]\nWhen=tablet\n"))
        #expect(when.message.hasPrefix("When must be one of auto, always, tablet-mode, manual, got 'tablet'"))
        let orientation = try #require(parseError("[Scroll]\nOrientation=leftup\n"))
        #expect(orientation.message.hasSuffix("got 'leftup'; did you mean 'left-up'?"))
    }

    @Test func showsTheMountMatrixProblem() throws {
        let error = try #require(parseError("[Device]\nMountMatrix=1, 0, 0; 0, 0, 0; 0, 0, 1\n"))
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("MountMatrix is not valid: row 2 is all zeros in '1, 0, 0; 0, 0, 0; 0, 0, 1'"))
        let short = try #require(parseError("[Device]\nMountMatrix=1, 0, 0; 0, 1, 0\n"))
        #expect(short.message.contains("expected 3 rows"))
    }

    @Test func suggestsTheNearestKey() throws {
        let error = try #require(parseError("[Scroll]\nSped=5\n"))
        #expect(error.line == 2)
        #expect(error.message == "unknown key 'Sped' in [Scroll]; did you mean 'Speed'?")
        let swapped = try #require(parseError("[Scroll]\nDeadZnoe=5\n"))
        #expect(swapped.message.hasSuffix("did you mean 'DeadZone'?"))
    }

    @Test func saysKeysAreCaseSensitive() throws {
        let error = try #require(parseError("[Scroll]\nspeed=5\n"))
        #expect(error.message == "unknown key 'speed' in [Scroll]; did you mean 'Speed'? (keys are case-sensitive)")
    }

    @Test func namesTheSectionAKeyBelongsTo() throws {
        let error = try #require(parseError("[Scroll]\nSampleRate=50\n"))
        #expect(error.message == "SampleRate belongs in [Device], not [Scroll]")
        let misspelt = try #require(parseError("[Scroll]\nSampleRat=50\n"))
        #expect(misspelt.message == "unknown key 'SampleRat' in [Scroll]; did you mean 'SampleRate' in [Device]?")
    }

    @Test func listsTheKeysWhenNothingIsClose() throws {
        let error = try #require(parseError("[Activation]\nFrobnicate=1\n"))
        #expect(
            error.message
                == "unknown key 'Frobnicate' in [Activation]; the keys of [Activation] are When, PauseWhenLocked, "
                + "PauseWhenIdle, PauseWhenLidClosed, PauseWithoutSession, PauseForSleep, PublishTabletMode")
    }

    @Test func suggestsTheNearestSection() throws {
        let error = try #require(parseError("# x\n[Scrol]\nSpeed=5\n"))
        #expect(error.line == 2)
        #expect(error.message == "unknown section [Scrol]; did you mean [Scroll]?")
        let far = try #require(parseError("[Output]\n"))
        #expect(far.message == "unknown section [Output]; the sections are [Device], [Scroll], [Activation]")
    }

    @Test func refusesKeysBeforeAnySection() throws {
        let known = try #require(parseError("\nSpeed=5\n[Scroll]\n"))
        #expect(known.line == 2)
        #expect(known.message == "'Speed=5' comes before any section header; put it under [Scroll]")
        let unknown = try #require(parseError("Foo=1\n"))
        #expect(unknown.message.hasPrefix("'Foo=1' comes before any section header"))
    }

    @Test func refusesMalformedLines() throws {
        let noEquals = try #require(parseError("[Scroll]\nSpeed 5\n"))
        #expect(noEquals.line == 2)
        #expect(noEquals.message == "expected 'Key=value' or '[Section]', got 'Speed 5'")
        let noKey = try #require(parseError("[Scroll]\n=5\n"))
        #expect(noKey.message == "missing key name before '=' in '=5'")
        let unclosed = try #require(parseError("[Scroll\n"))
        #expect(unclosed.message == "section header '[Scroll' is missing its closing ']'")
        let trailing = try #require(parseError("[Scroll] x\n"))
        #expect(trailing.message == "unexpected text ' x' after the section header '[Scroll]'")
        let empty = try #require(parseError("[]\n"))
        #expect(empty.message == "the section header '[]' has no name")
    }

    @Test func refusesBytesThatAreNotText() {
        let invalidUTF8: [UInt8] = Array("[Scroll]\nSpeed=5\n".utf8) + [0x49, 0x6E, 0xFF, 0x3D, 0x31, 0x0A]
        guard let error = thrownError(ConfigError.self, try Configuration.parse(bytes: invalidUTF8, file: "f")) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(error == ConfigError(file: "f", line: 3, message: "the line is not valid UTF-8 text"))
        let nul: [UInt8] = Array("[Scroll]\nSpeed=5\u{0}\n".utf8)
        guard let nulError = thrownError(ConfigError.self, try Configuration.parse(bytes: nul, file: "f")) else {
            Issue.record("accepted a NUL byte")
            return
        }
        #expect(nulError == ConfigError(file: "f", line: 2, message: "the line contains a NUL byte"))
    }

    @Test func refusesOverlongFiles() throws {
        let comment = "# " + String(repeating: "x", count: 1000) + "\n"
        let text = String(repeating: comment, count: 70)
        let error = try #require(parseError(text))
        #expect(error.line == nil)
        #expect(error.message.hasPrefix("the file is larger than 65536 bytes"))
    }

    @Test func shortensVeryLongValuesInMessages() throws {
        let value = String(repeating: "9x", count: 200)
        let error = try #require(parseError("[Scroll]\nSpeed=\(value)\n"))
        #expect(error.message.count < 200)
        #expect(error.message.contains("..."))
    }
}

@Suite struct ConfigCombinationErrors {
    @Test func deadZoneMustStayBelowMaxTilt() throws {
        let error = try #require(parseError("[Scroll]\nMaxTilt=10\nDeadZone=12\n"))
        #expect(error.line == 3)
        #expect(error.message == "DeadZone (12) must be smaller than MaxTilt (10, set on line 2)")
    }

    @Test func blamesMaxTiltWhenTheDeadZoneIsTheDefault() throws {
        let error = try #require(parseError("[Scroll]\n\nMaxTilt=3\n"))
        #expect(error.line == 3)
        #expect(error.message == "MaxTilt (3) must be larger than DeadZone (4, the default)")
    }

    @Test func blamesTheLastAssignmentOfADuplicatedKey() throws {
        let error = try #require(parseError("[Scroll]\nDeadZone=1\nMaxTilt=20\nDeadZone=20\n"))
        #expect(error.line == 4)
    }

    @Test func horizontalDeadZoneMustStayBelowMaxTilt() throws {
        let error = try #require(parseError("[Scroll]\nHorizontalDeadZone=30\n"))
        #expect(error.line == 2)
        #expect(error.message == "HorizontalDeadZone (30) must be smaller than MaxTilt (25, the default)")
    }

    @Test func smoothingCutoffMustStayBelowHalfTheSampleRate() throws {
        let error = try #require(parseError("[Device]\nSampleRate=10\n[Scroll]\nSmoothingCutoff=5\n"))
        #expect(error.line == 4)
        #expect(error.message == "SmoothingCutoff (5) must be smaller than half of SampleRate (5, set on line 2)")
        let rate = try #require(parseError("[Device]\nSampleRate=2\n"))
        #expect(rate.line == 2)
        #expect(rate.message == "half of SampleRate (1) must be larger than SmoothingCutoff (1, the default)")
    }
}
