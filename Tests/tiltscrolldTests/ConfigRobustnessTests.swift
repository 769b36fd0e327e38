import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A small deterministic generator (SplitMix64), so a failure reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct ConfigRobustness {
    static let seed = Array(ConfigRendering.customised.renderEffective().utf8)
    static let interesting: [UInt8] = Array("[]=#;\n\r\t .-e0123456789yesnoSpeedDeadZone".utf8) + [0, 0xC3, 0xFF, 0x80]

    /// Thousands of damaged files: each either parses to a configuration
    /// that survives its own round trip, or fails with an error on a line
    /// that exists. None may crash.
    @Test func damagedFilesFailCleanlyOrRoundTrip() {
        var random = SplitMix64(state: 0x7469_6C74)
        for _ in 0..<2000 {
            var bytes = ConfigRobustness.seed
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                let byte = ConfigRobustness.interesting.randomElement(using: &random)!
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.insert(byte, at: position)
                case 1 where position < bytes.count: bytes[position] = byte
                default: if position < bytes.count { bytes.remove(at: position) }
                }
            }
            do {
                let configuration = try Configuration.parse(bytes: bytes, file: "fuzz")
                #expect((try? Configuration.parse(configuration.renderEffective(), file: "again")) == configuration)
            } catch {
                let lineCount = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
                #expect(error.line.map { (1...lineCount).contains($0) } ?? true, "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test func aHugeUnknownKeyGetsNoSuggestionButAClearError() throws {
        let key = String(repeating: "Speed", count: 2000)
        let error = try #require(parseError("[Scroll]\n\(key)=1\n"))
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("unknown key '"))
        #expect(
            error.message.hasSuffix(
                "the keys of [Scroll] are Speed, DeadZone, MaxTilt, Curve, Invert, Horizontal, "
                    + "HorizontalDeadZone, Orientation, SmoothingCutoff, SmoothingBeta, Inertia, Acceleration, OutputRate, "
                    + "GravityTolerance, PauseOnTouch, ZeroOnTouch"))
    }
}
