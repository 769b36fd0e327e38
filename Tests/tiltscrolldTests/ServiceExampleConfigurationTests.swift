import Foundation
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// The defaults users read, in conf/tiltscroll.conf and tiltscroll.conf(5),
/// are the code's defaults (`Configuration()`): a default changed in one
/// place and not the others fails here.
@Suite struct ServiceExampleConfiguration {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Each key's default as the configuration file spells it; "" for unset.
    static func codeDefaults() -> [String: String] {
        let c = Configuration()
        let s = c.scroll
        func number(_ value: Double) -> String { "\(value)" }
        func boolean(_ value: Bool) -> String { value ? "yes" : "no" }
        let orientation: String
        switch s.orientation {
        case .auto: orientation = "auto"
        case .fixed(let fixed): orientation = fixed.rawValue
        }
        return [
            "Device.Name": c.device.name ?? "",
            "Device.MountMatrix": c.device.mountMatrix == nil ? "" : "set",
            "Device.SampleRate": number(c.device.sampleRate),
            "Device.Mode": c.device.mode.rawValue,
            "Scroll.Speed": number(s.speed),
            "Scroll.DeadZone": number(s.deadZoneDegrees),
            "Scroll.MaxTilt": number(s.maxTiltDegrees),
            "Scroll.Curve": number(s.curve),
            "Scroll.Invert": boolean(s.invert),
            "Scroll.Horizontal": boolean(s.horizontal),
            "Scroll.HorizontalDeadZone": number(s.horizontalDeadZoneDegrees),
            "Scroll.Orientation": orientation,
            "Scroll.SmoothingCutoff": number(s.smoothingMinCutoff),
            "Scroll.SmoothingBeta": number(s.smoothingBeta),
            "Scroll.Inertia": number(s.inertiaMilliseconds),
            "Scroll.Acceleration": number(s.maxAcceleration),
            "Scroll.OutputRate": number(s.outputRate),
            "Scroll.GravityTolerance": number(s.gravityTolerance),
            "Scroll.PauseOnTouch": boolean(s.pauseOnTouch),
            "Scroll.ZeroOnTouch": boolean(s.zeroOnTouch),
            "Activation.When": c.activation.when.rawValue,
            "Activation.PauseWhenLocked": boolean(c.activation.pauseWhenLocked),
            "Activation.PauseWhenIdle": boolean(c.activation.pauseWhenIdle),
            "Activation.PauseWhenLidClosed": boolean(c.activation.pauseWhenLidClosed),
            "Activation.PauseWithoutSession": boolean(c.activation.pauseWithoutSession),
            "Activation.PauseForSleep": boolean(c.activation.pauseForSleep),
            "Activation.PublishTabletMode": boolean(c.activation.publishTabletMode),
        ]
    }

    /// Numbers compare by value ("1.0" is "1"), everything else as text.
    static func normalized(_ value: String) -> String {
        DecimalNumber.parse(value).map { "\($0)" } ?? value
    }

    @Test func theExampleFileShowsEveryKeyAtItsDefault() throws {
        let text = try String(
            contentsOf: Self.repository.appendingPathComponent("conf/tiltscroll.conf"), encoding: .utf8)
        var section = ""
        var example: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if line.hasPrefix("#"), let equals = line.firstIndex(of: "="),
                line.dropFirst().first?.isUppercase == true, !line.contains(" ")
            {
                let key = section + "." + line[line.index(after: line.startIndex)..<equals]
                #expect(example[key] == nil, "\(key) appears twice")
                example[key] = Self.normalized(String(line[line.index(after: equals)...]))
            }
        }
        let defaults = Self.codeDefaults().mapValues { $0 == "set" ? $0 : Self.normalized($0) }
        #expect(example == defaults)
    }

    @Test func theManualPageStatesEveryDefault() throws {
        let lines = try String(
            contentsOf: Self.repository.appendingPathComponent("man/tiltscroll.conf.5"), encoding: .utf8
        ).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var documented: [String: String] = [:]
        var section = ""
        for (index, line) in lines.enumerated() {
            if line.hasPrefix(".SH [") {
                let name = line.dropFirst(".SH [".count).prefix { $0 != "]" }
                section = name.prefix(1) + name.dropFirst().lowercased()
            }
            guard line.hasPrefix(".BI "), let equals = line.firstIndex(of: "=") else { continue }
            let key = section + "." + line[line.index(line.startIndex, offsetBy: 4)..<equals]
            guard let defaultLine = lines[index...].firstIndex(where: { $0.hasPrefix("Default:") }) else {
                Issue.record("\(key) has no Default: line")
                continue
            }
            var value = lines[defaultLine].dropFirst("Default:".count).trimmingCharacters(in: .whitespaces)
            if value.isEmpty {
                // "Default:" then ".BR auto ." on the next line.
                value = lines[defaultLine + 1].split(separator: " ").dropFirst().first.map(String.init) ?? ""
            }
            value = String(value.prefix { $0 != "," && $0 != " " })
            if value.hasSuffix(".") && DecimalNumber.parse(value) == nil { value.removeLast() }
            if value.hasSuffix(".") && !value.dropLast().contains(".") { value.removeLast() }
            documented[key] = value == "unset" ? "" : Self.normalized(value)
        }
        let defaults = Self.codeDefaults().mapValues { $0 == "set" ? $0 : Self.normalized($0) }
        #expect(documented == defaults)
    }
}
