import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// Parses `text` and returns the configuration, recording a test issue if it fails.
func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Configuration? {
    do {
        return try Configuration.parse(text, file: "test.conf")
    } catch {
        Issue.record("unexpected error: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Parses `text` expecting an error, which is returned.
func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ConfigError? {
    do {
        let configuration = try Configuration.parse(text, file: "test.conf")
        Issue.record("parsed but should have failed: \(configuration)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

@Suite struct ConfigParsingValues {
    @Test func emptyFileGivesTheDefaults() {
        #expect(parsed("") == Configuration())
        #expect(parsed("\n# only a comment\n; another\n\n") == Configuration())
    }

    @Test func readsEveryDeviceKey() throws {
        let c = try #require(
            parsed(
                """
                [Device]
                Name=accel_3d
                MountMatrix=0, -1, 0; -1, 0, 0; 0, 0, 1
                SampleRate=100
                Mode=buffer
                """))
        #expect(c.device.name == "accel_3d")
        #expect(c.device.mountMatrix == MountMatrix(rows: [Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)]))
        #expect(c.device.sampleRate == 100)
        #expect(c.device.mode == .buffer)
    }

    @Test func sampleRateAlsoReachesThePhysics() throws {
        let c = try #require(parsed("[Device]\nSampleRate=20\n"))
        #expect(c.scroll.sampleRate == 20)
    }

    @Test func readsEveryScrollKey() throws {
        let c = try #require(
            parsed(
                """
                [Scroll]
                Speed=20.5
                DeadZone=3
                MaxTilt=30
                Curve=2
                Invert=yes
                Horizontal=on
                HorizontalDeadZone=6
                Orientation=left-up
                SmoothingCutoff=2.5
                SmoothingBeta=0.1
                Inertia=250
                Acceleration=80
                OutputRate=120
                GravityTolerance=0.3
                """))
        var expected = ScrollSettings()
        expected.speed = 20.5
        expected.deadZoneDegrees = 3
        expected.maxTiltDegrees = 30
        expected.curve = 2
        expected.invert = true
        expected.horizontal = true
        expected.horizontalDeadZoneDegrees = 6
        expected.orientation = .fixed(.leftUp)
        expected.smoothingMinCutoff = 2.5
        expected.smoothingBeta = 0.1
        expected.inertiaMilliseconds = 250
        expected.maxAcceleration = 80
        expected.outputRate = 120
        expected.gravityTolerance = 0.3
        #expect(c.scroll == expected)
        #expect(c.device == DeviceSettings())
    }

    @Test(arguments: ActivationMode.allCases)
    func readsEveryActivationMode(mode: ActivationMode) throws {
        let c = try #require(parsed("[Activation]\nWhen=\(mode.rawValue)\n"))
        #expect(c.activation.when == mode)
    }

    @Test(arguments: [
        ("auto", OrientationSetting.auto), ("normal", .fixed(.normal)), ("left-up", .fixed(.leftUp)),
        ("right-up", .fixed(.rightUp)), ("bottom-up", .fixed(.bottomUp)),
    ])
    func readsEveryOrientation(word: String, value: OrientationSetting) throws {
        let c = try #require(parsed("[Scroll]\nOrientation=\(word)\n"))
        #expect(c.scroll.orientation == value)
    }

    @Test(arguments: ["1", "yes", "y", "true", "t", "on", "YES", "True", "On"])
    func acceptsSystemdTrueWords(word: String) throws {
        #expect(try #require(parsed("[Scroll]\nInvert=\(word)\n")).scroll.invert == true)
    }

    @Test(arguments: ["0", "no", "n", "false", "f", "off", "NO", "False", "Off"])
    func acceptsSystemdFalseWords(word: String) throws {
        #expect(try #require(parsed("[Scroll]\nHorizontal=yes\nHorizontal=\(word)\n")).scroll.horizontal == false)
    }

    @Test func trimsWhitespaceCarriageReturnsAndAcceptsEqualsInValues() throws {
        let c = try #require(parsed("  [Device]  \r\n\tName =  /sys/bus/iio/devices/iio:device0 \r\n"))
        #expect(c.device.name == "/sys/bus/iio/devices/iio:device0")
        let withEquals = try #require(parsed("[Device]\nName=a=b\n"))
        #expect(withEquals.device.name == "a=b")
    }

    @Test func emptyNameAndMatrixMeanAutomatic() throws {
        let c = try #require(parsed("[Device]\nName=x\nName=\nMountMatrix=1,0,0;0,1,0;0,0,1\nMountMatrix=\n"))
        #expect(c.device.name == nil)
        #expect(c.device.mountMatrix == nil)
    }

    @Test func lastOfDuplicateKeysWinsAndSectionsMayRepeat() throws {
        let c = try #require(parsed("[Scroll]\nSpeed=5\n[Device]\nSampleRate=25\n[Scroll]\nSpeed=7\n"))
        #expect(c.scroll.speed == 7)
        #expect(c.device.sampleRate == 25)
    }

    @Test func acceptsTheEdgesOfEachRange() throws {
        let c = try #require(
            parsed(
                """
                [Device]
                SampleRate=1000
                [Scroll]
                Speed=1000
                DeadZone=0
                MaxTilt=90
                Curve=0.25
                Inertia=5000
                OutputRate=500
                GravityTolerance=0.9
                SmoothingBeta=0
                """))
        #expect(c.scroll.speed == 1000)
        #expect(c.scroll.deadZoneDegrees == 0)
        #expect(c.scroll.maxTiltDegrees == 90)
        #expect(c.scroll.curve == 0.25)
        #expect(c.scroll.inertiaMilliseconds == 5000)
        #expect(c.device.sampleRate == 1000)
        #expect(c.scroll.outputRate == 500)
        #expect(c.scroll.gravityTolerance == 0.9)
    }
}
