import ScrollPhysics
import Testing

@testable import tiltscrolld

@Suite struct MonitorViewRendering {
    @Test func theGaugeMarksTheDeadZoneAndTheAngle() {
        // 41 cells from -25 to +25 degrees: 1.25 degrees a cell, centre at 20.
        let gauge = MonitorView.gauge(12.5, deadZone: 5, maxTilt: 25)
        let cells = Array(gauge.dropFirst().dropLast())
        #expect(cells.count == 41)
        #expect(cells[16] == "|" && cells[24] == "|")
        #expect(cells[30] == "#")
        #expect(cells[20] == "+")
    }

    @Test func anAngleBeyondMaxTiltSitsAtTheEnd() {
        let cells = Array(MonitorView.gauge(-80, deadZone: 4, maxTilt: 25).dropFirst().dropLast())
        #expect(cells.first == "#")
        #expect(!MonitorView.gauge(.nan, deadZone: 4, maxTilt: 25).isEmpty)
    }

    @Test func showsTheVectorsOrientationAndSpeedOnLinesThatClearTheirEnd() {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.feed(Vector3(0, -9.80665, 0), at: 0)
        let snapshot = MonitorSnapshot(
            readout: engine.readout, raw: Vector3(0, 9.80665, 0), corrected: Vector3(0, -9.80665, 0),
            matrix: MountMatrix(rows: [Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1)]),
            deviceLine: "kxcj91008 (poll)", state: "Watching kxcj91008")
        let lines = MonitorView.render(snapshot, settings: ScrollSettings(), hiResTotal: -240, horizontalHiResTotal: 0)
            .split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasSuffix("\u{1B}[K") })
        #expect(lines.contains { $0.hasPrefix("raw          (+0.00, +9.81, +0.00) m/s^2  |a| = 1.00 g") })
        #expect(lines.contains { $0.contains("mount matrix 1, 0, 0; 0, -1, 0; 0, 0, 1") })
        #expect(lines.contains { $0.hasPrefix("orientation  normal") })
        #expect(lines.contains { $0.hasPrefix("scrolled     -2.00 detents") })
        #expect(!lines.contains { $0.hasPrefix("sideways") })
    }
}
