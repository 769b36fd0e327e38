import Foundation
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

@Suite struct DemoTraceEmbedding {
    /// The build embedded the recorded file, byte for byte.
    @Test func matchesTheRecordedTraceItWasMadeFrom() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let recorded = try String(contentsOf: root.appendingPathComponent(DemoTrace.source), encoding: .utf8)
        #expect(DemoTrace.text == recorded)
    }

    @Test func isARealRecordingThatScrollsBothWays() throws {
        let trace = try Trace.parse(DemoTrace.text)
        #expect(trace.samples.count > 500)
        var replay = ScrollReplay(trace: trace, settings: ScrollSettings())
        var down = 0
        var up = 0
        while let step = replay.next() {
            guard let frame = step.frame else { continue }
            if frame.verticalHiRes < 0 { down += 1 } else if frame.verticalHiRes > 0 { up += 1 }
        }
        #expect(down > 50 && up > 20)
    }
}
