import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
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
        var record = MonitorRecord(
            state: "Scrolling with kxcj91008", device: "kxcj91008 (poll)", settings: ScrollSettings())
        record.read(engine.readout)
        record.raw = Vector3(0, 9.80665, 0)
        record.corrected = Vector3(0, -9.80665, 0)
        record.matrix = MountMatrix(rows: [Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1)])
        record.scrolled = -2
        let lines = MonitorView.render(record, title: "tiltscrollctl monitor").split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasSuffix("\u{1B}[K") })
        #expect(lines.contains { $0.hasPrefix("raw          (+0.00, +9.81, +0.00) m/s^2  |a| = 1.00 g") })
        #expect(lines.contains { $0.contains("mount matrix 1, 0, 0; 0, -1, 0; 0, 0, 1") })
        #expect(lines.contains { $0.hasPrefix("orientation  normal") })
        #expect(lines.contains { $0.hasPrefix("scrolled     -2.00 detents") })
        #expect(!lines.contains { $0.hasPrefix("sideways") })
    }

    @Test func withoutASensorItSaysSoAndDrawsNoReading() {
        let record = MonitorRecord(state: "Scrolling off", device: "no accelerometer", settings: ScrollSettings())
        let lines = MonitorView.render(record, title: "tiltscrollctl monitor").split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("intent       no sensor captured") })
        #expect(!lines.contains { $0.hasPrefix("orientation") })
    }
}

@Suite struct MonitorRecordLines {
    func sample() -> MonitorRecord {
        var engine = ScrollEngine(settings: ScrollSettings())
        engine.feed(Vector3(0.4, -9.7, 1.2), at: 0)
        var settings = ScrollSettings()
        settings.horizontal = true
        var record = MonitorRecord(state: "Scrolling\twith\nkx", device: "kx (buffer capture)", settings: settings)
        record.read(engine.readout)
        record.raw = Vector3(0.1, -9.8, 0.25)
        record.corrected = Vector3(-0.1, 9.8, 0.25)
        record.matrix = MountMatrix(rows: [Vector3(-1, 0, 0), Vector3(0, -1, 0), Vector3(0, 0, 1)])
        record.scrolled = 3.25
        return record
    }

    @Test func aRecordReadsBackFromItsLine() throws {
        let record = sample()
        let line = record.encoded
        #expect(!line.contains("\n"))
        var expected = record
        expected.state = "Scrolling with kx"
        #expect(try MonitorRecord(parsing: line[...]) == expected)
        let idle = MonitorRecord(state: "Scrolling off", device: "kx", settings: ScrollSettings())
        #expect(try MonitorRecord(parsing: idle.encoded[...]) == idle)
    }

    @Test func unknownFieldsAreSkippedAndMissingOnesFail() throws {
        let line = sample().encoded
        #expect(try MonitorRecord(parsing: (line + "\tnew-field=1")[...]).device == "kx (buffer capture)")
        let withoutTilt = line.split(separator: "\t").filter { !$0.hasPrefix("tilt=") }.joined(separator: "\t")
        #expect(throws: MonitorRecord.ParseError.self) { try MonitorRecord(parsing: withoutTilt[...]) }
        for garbage in ["", "x", "state=a", "\t\t=", String(repeating: "=", count: 1000)] {
            #expect(throws: MonitorRecord.ParseError.self) { try MonitorRecord(parsing: garbage[...]) }
        }
    }
}
