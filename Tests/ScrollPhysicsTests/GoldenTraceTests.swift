import Foundation
import Testing

@testable import ScrollPhysics

/// End to end: a trace file through `ScrollReplay` and `ReplayPrinter`,
/// compared line by line with the expected output next to it.
///
/// Files live in Tests/ScrollPhysicsTests/Traces/: `NAME.trace` (the input,
/// in the format `Trace` documents) and `NAME.VARIANT.expected` (what
/// `tiltscrolld --replay` prints for it with the variant's settings). To
/// regenerate after an intended change of behaviour, run
///
///     TILTSCROLL_REGENERATE_GOLDEN=1 swift test --filter GoldenTraces
///
/// and review the diff: it rewrites the synthetic traces from
/// `SyntheticTrace` and every expected file. A trace recorded on the
/// real-kernel testbed (`Tests/realkernel/run record-traces`) stays in
/// Tests/realkernel/traces and gets a row with `recorded: true`.
@Suite struct GoldenTraces {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Traces")
    static var regenerating: Bool { ProcessInfo.processInfo.environment["TILTSCROLL_REGENERATE_GOLDEN"] == "1" }

    /// Traces recorded from real drivers by the real-kernel harness.
    static let recordedDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("realkernel/traces")

    struct Case: CustomTestStringConvertible, Sendable {
        var trace: String
        var variant: String
        var settings: ScrollSettings
        /// Synthetic traces live beside the expected files; recorded ones in Tests/realkernel/traces.
        var recorded = false
        var testDescription: String { "\(trace).\(variant)" }
        var traceURL: URL {
            let directory = recorded ? GoldenTraces.recordedDirectory : GoldenTraces.directory
            return directory.appendingPathComponent(trace + ".trace")
        }
    }

    static let cases: [Case] = {
        let defaults = ScrollSettings()
        var inertia = defaults
        inertia.inertiaMilliseconds = 400
        var hid = defaults
        hid.sampleRate = 10
        var horizontal = defaults
        horizontal.horizontal = true
        return [
            Case(trace: "tilt-away-and-back", variant: "default", settings: defaults),
            Case(trace: "tilt-away-and-back", variant: "inertia-400ms", settings: inertia),
            Case(trace: "hid-10hz-toward-user", variant: "samplerate-10", settings: hid),
            Case(trace: "rotate-to-landscape", variant: "horizontal", settings: horizontal),
            Case(trace: "shake-and-silence", variant: "default", settings: defaults),
            Case(trace: "flat-on-lap", variant: "horizontal", settings: horizontal),
            Case(trace: "kxcjk-1013", variant: "default", settings: defaults, recorded: true),
            Case(trace: "hid-sensor-accel-3d", variant: "default", settings: defaults, recorded: true),
            Case(trace: "hid-sensor-accel-3d", variant: "inertia-400ms", settings: inertia, recorded: true),
            Case(trace: "put-down-and-pick-up", variant: "default", settings: defaults),
            Case(trace: "walk-and-touch", variant: "default", settings: defaults),
        ]
    }()

    /// What `--replay` prints.
    static func replay(_ trace: Trace, _ settings: ScrollSettings) -> String {
        var out = ReplayPrinter.legend + "\n"
        var printer = ReplayPrinter()
        var replay = ScrollReplay(trace: trace, settings: settings)
        while let step = replay.next() { printer.write(step, to: &out) }
        printer.writeSummary(replay.summary, to: &out)
        return out
    }

    @Test(arguments: cases)
    func replayMatchesTheExpectedOutput(_ c: Case) throws {
        let traceURL = c.traceURL
        let expectedURL = Self.directory.appendingPathComponent("\(c.trace).\(c.variant).expected")
        if Self.regenerating, let text = Self.syntheticText(c.trace) {
            try text.write(to: traceURL, atomically: true, encoding: .utf8)
        }
        let trace = try Trace.parse(String(contentsOf: traceURL, encoding: .utf8))
        let actual = Self.replay(trace, c.settings)
        if Self.regenerating {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let firstMismatch = (0..<min(a.count, e.count)).first { a[$0] != e[$0] }
        if let i = firstMismatch ?? (a.count != e.count ? min(a.count, e.count) : nil) {
            Issue.record(
                """
                \(c.testDescription): first difference at line \(i + 1)
                  expected: \(i < e.count ? String(e[i]) : "<end>")
                  actual:   \(i < a.count ? String(a[i]) : "<end>")
                """)
        }
    }

    /// The generated text of a synthetic trace (devices or people), nil for a recorded one.
    static func syntheticText(_ name: String) -> String? {
        SyntheticTrace.all.first { $0.name == name }?.text ?? HumanTrace.all.first { $0.name == name }?.text
    }

    @Test func syntheticTracesAreUpToDate() throws {
        for name in SyntheticTrace.all.map(\.name) + HumanTrace.all.map(\.name) {
            let url = Self.directory.appendingPathComponent(name + ".trace")
            let text = Self.syntheticText(name)!
            if Self.regenerating {
                try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
                continue
            }
            let stored = try String(contentsOf: url, encoding: .utf8)
            #expect(stored == text, "\(name).trace differs from its generator")
        }
    }

    /// The behaviour each golden trace is there to show, asserted directly so
    /// that a regenerated file cannot quietly accept a broken contract.
    @Test func theGoldenTracesShowTheContract() throws {
        func replay(_ name: String, _ settings: ScrollSettings) throws -> (ReplaySummary, [ReplayStep]) {
            let trace = try Trace.parse(
                String(contentsOf: Self.directory.appendingPathComponent(name + ".trace"), encoding: .utf8))
            var replay = ScrollReplay(trace: trace, settings: settings)
            var frames: [ReplayStep] = []
            while let step = replay.next() { if step.frame != nil { frames.append(step) } }
            return (replay.summary, frames)
        }
        func summary(_ name: String, _ settings: ScrollSettings) throws -> ReplaySummary {
            try replay(name, settings).0
        }
        let c = Dictionary(uniqueKeysWithValues: Self.cases.map { ("\($0.trace).\($0.variant)", $0.settings) })
        let away = try summary("tilt-away-and-back", c["tilt-away-and-back.default"]!)
        #expect(away.verticalHiRes < -1200 && away.verticalDetents <= -10 && away.horizontalHiRes == 0)
        let coasting = try summary("tilt-away-and-back", c["tilt-away-and-back.inertia-400ms"]!)
        #expect(coasting.verticalHiRes < away.verticalHiRes)  // coasts a little further
        let hid = try summary("hid-10hz-toward-user", c["hid-10hz-toward-user.samplerate-10"]!)
        #expect(hid.verticalHiRes > 600 && hid.samples == 41 && hid.framesEmitted > 100)
        let rotate = try summary("rotate-to-landscape", c["rotate-to-landscape.horizontal"]!)
        #expect(rotate.verticalHiRes < -600 && abs(rotate.horizontalHiRes) < 120 && rotate.horizontalDetents == 0)
        let shake = try summary("shake-and-silence", c["shake-and-silence.default"]!)
        #expect(shake.rejectedSamples >= 15 && shake.verticalHiRes < -2400)  // scrolls on through the shake
        let (lap, lapFrames) = try replay("flat-on-lap", c["flat-on-lap.horizontal"]!)
        func sum(_ range: ClosedRange<Double>, _ value: (ScrollFrame) -> Int32) -> Int {
            lapFrames.filter { range.contains($0.time) }.reduce(0) { $0 + Int(value($1.frame!)) }
        }
        #expect(sum(1...3.4, \.horizontalHiRes) > 300)  // right edge down: right
        #expect(sum(3.5...6, \.horizontalHiRes) < -300)  // left edge down: left
        #expect(sum(0...6, \.verticalHiRes) == 0)
        #expect(sum(6...9, \.verticalHiRes) > 300)  // top edge raised towards the user: up
        #expect(sum(6...9, \.horizontalHiRes) == 0)
        #expect(lap.verticalDetents >= 2)

        // A person: put down flat, quiet within 2 s of the touchdown (2.7 s)
        // until picked up; picked up at a new angle (8 s), quiet; the tilt
        // after (11 s) scrolls towards the end.
        let (_, person) = try replay("put-down-and-pick-up", c["put-down-and-pick-up.default"]!)
        func hiRes(_ steps: [ReplayStep], _ range: ClosedRange<Double>) -> Int {
            steps.filter { range.contains($0.time) }.reduce(0) { $0 + Int($1.frame!.verticalHiRes) }
        }
        #expect(person.filter { (4.7...11).contains($0.time) }.isEmpty)
        #expect(hiRes(person, 11...13.6) < -400)
        #expect(person.filter { $0.time > 14 }.isEmpty)
        // Walking, a tilt still scrolls (3 s), the walk alone does not; a
        // finger (8 s) pauses, its release makes 36 degrees neutral; the
        // tilt from there (10.5 s) scrolls.
        let (_, walker) = try replay("walk-and-touch", c["walk-and-touch.default"]!)
        #expect(walker.filter { (0...3).contains($0.time) || (6.5...7.9).contains($0.time) }.isEmpty)
        #expect(hiRes(walker, 3...6.5) < -600)
        #expect(walker.filter { (8.02...10.5).contains($0.time) }.isEmpty)
        #expect(hiRes(walker, 10.5...13) < -240)
    }
}
