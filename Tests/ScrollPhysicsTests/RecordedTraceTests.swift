import Foundation
import Testing

@testable import ScrollPhysics

/// Traces recorded from real drivers on the real-kernel testbed
/// (Tests/realkernel/traces, made by `Tests/realkernel/run record-traces`):
/// a hand holds the display at 30 degrees, tilts it slowly away to 50, back,
/// towards the user to 10, back to 30 and holds still, with a slight tremor.
/// The recording starts half a second before the sweep.
@Suite struct RecordedTraces {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("realkernel/traces")

    static func frames(_ name: String, _ settings: ScrollSettings = ScrollSettings()) throws -> [ReplayStep] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".trace"), encoding: .utf8)
        var replay = ScrollReplay(trace: try Trace.parse(text), settings: settings)
        var frames: [ReplayStep] = []
        while let step = replay.next() {
            if step.frame != nil { frames.append(step) }
        }
        return frames
    }

    static func hiRes(_ frames: [ReplayStep], during range: ClosedRange<Double>) -> (sum: Int, count: Int) {
        let inside = frames.filter { range.contains($0.time) }
        return (inside.reduce(0) { $0 + Int($1.frame!.verticalHiRes) }, inside.count)
    }

    @Test(arguments: ["kxcjk-1013", "hid-sensor-accel-3d"])
    func theSweepScrollsAsTheContractSays(trace: String) throws {
        let frames = try Self.frames(trace)
        let start = Self.hiRes(frames, during: 0...2.2)
        #expect(start.count == 0, "held at the reading pose, yet \(start.count) frames")
        let away = Self.hiRes(frames, during: 2.5...8.5)
        #expect(away.sum < -480, "tilting the top edge away scrolled \(away.sum), expected towards the end")
        let toward = Self.hiRes(frames, during: 9.5...13)
        #expect(toward.sum > 240, "tilting towards the user scrolled \(toward.sum), expected towards the start")
        let end = Self.hiRes(frames, during: 14.5...16.5)
        #expect(end.count == 0, "back at the reading pose, yet \(end.count) frames")
        #expect(frames.allSatisfy { $0.frame!.horizontalHiRes == 0 })
    }

    /// `Invert=` mirrors the output exactly, frame for frame.
    @Test(arguments: ["kxcjk-1013", "hid-sensor-accel-3d"])
    func invertingFlipsEveryFrame(trace: String) throws {
        var inverted = ScrollSettings()
        inverted.invert = true
        let normal = try Self.frames(trace).map { $0.frame!.verticalHiRes }
        let flipped = try Self.frames(trace, inverted).map { $0.frame!.verticalHiRes }
        #expect(flipped == normal.map { -$0 })
    }
}
