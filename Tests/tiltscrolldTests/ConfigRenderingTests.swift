import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct ConfigRendering {
    /// A configuration with every field away from its default, including
    /// numbers that have no short decimal form.
    static var customised: Configuration {
        var c = Configuration()
        c.device.name = "/sys/devices/platform/accel/iio:device3"
        c.device.mountMatrix = MountMatrix(rows: [Vector3(0, 0.7071, -0.7071), Vector3(-1, 0, 0), Vector3(0, 1e-05, 1)])
        c.device.sampleRate = 33.3
        c.scroll.sampleRate = 33.3
        c.device.mode = .poll
        c.scroll.speed = 0.1 + 0.2
        c.scroll.deadZoneDegrees = 2.5
        c.scroll.maxTiltDegrees = 40
        c.scroll.curve = 1 / 3
        c.scroll.invert = true
        c.scroll.horizontal = true
        c.scroll.horizontalDeadZoneDegrees = 0
        c.scroll.orientation = .fixed(.bottomUp)
        c.scroll.smoothingMinCutoff = 0.75
        c.scroll.smoothingBeta = 0.007
        c.scroll.inertiaMilliseconds = 400
        c.scroll.maxAcceleration = 123.456
        c.scroll.outputRate = 90
        c.scroll.gravityTolerance = 0.05
        c.activation.when = .tabletMode
        return c
    }

    @Test(arguments: [Configuration(), customised])
    func theRenderedFileParsesBackToTheSameConfiguration(configuration: Configuration) throws {
        let text = configuration.renderEffective()
        #expect(try Configuration.parse(text, file: "rendered") == configuration)
    }

    @Test(arguments: ActivationMode.allCases)
    func everyActivationModeRoundTrips(mode: ActivationMode) throws {
        var c = Configuration()
        c.activation.when = mode
        #expect(try Configuration.parse(c.renderEffective(), file: "rendered") == c)
    }

    @Test func writesEveryKeyOnceWithItsValue() {
        let lines = ConfigRendering.customised.renderEffective().split(separator: "\n")
        let assignments = lines.filter { !$0.hasPrefix("#") && $0.contains("=") }
        #expect(assignments.count == ConfigKey.all.count)
        for key in ConfigKey.all {
            #expect(assignments.filter { $0.hasPrefix("\(key.name)=") }.count == 1, "key \(key.name)")
        }
        #expect(assignments.contains("Speed=0.30000000000000004"))
        #expect(assignments.contains("MountMatrix=0, 0.7071, -0.7071; -1, 0, 0; 0, 1e-05, 1"))
        #expect(assignments.contains("When=tablet-mode"))
        #expect(assignments.contains("Invert=yes"))
        #expect(assignments.contains("Orientation=bottom-up"))
    }

    @Test func writesSectionsInOrderWithTheirKeys() {
        let lines = Configuration().renderEffective().split(separator: "\n").map(String.init)
        let headers = lines.filter { $0.hasPrefix("[") }
        #expect(headers == ["[Device]", "[Scroll]", "[Activation]"])
        let scrollStart = lines.firstIndex(of: "[Scroll]")!
        let activationStart = lines.firstIndex(of: "[Activation]")!
        #expect(lines[scrollStart..<activationStart].contains("Speed=12"))
        #expect(lines[activationStart...].contains("When=auto"))
    }

    @Test func commentsGiveTheRangeAndTheDefault() {
        var c = Configuration()
        c.scroll.speed = 30
        let lines = c.renderEffective().split(separator: "\n").map(String.init)
        let speed = lines.firstIndex(of: "Speed=30")!
        #expect(lines[speed - 2] == "# Scroll speed at full tilt, detents per second.")
        #expect(lines[speed - 1] == "# 0 < x <= 1000; default: 12.")
        let name = lines.firstIndex(of: "Name=")!
        #expect(lines[name - 1].hasSuffix("; default: empty."))
    }

    /// The defaults belong to the physics and may be tuned; whatever they
    /// are, they must form a valid file.
    @Test func theDefaultsAreAValidConfiguration() {
        #expect(Configuration().combinationProblems([:]).isEmpty)
    }
}
