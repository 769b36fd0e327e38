import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// Bad input never crashes and never leaves a runaway scroll.
@Suite struct Robustness {
    private func wild(_ random: inout SeededRandom) -> Double {
        switch random.next() % 10 {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return random.uniform(-1e300...1e300)
        case 4: return 0
        default: return random.uniform(-12...12)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomCallsWithRandomGarbageKeepTheInvariants(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var settings = ScrollSettings()
        settings.horizontal = true
        settings.inertiaMilliseconds = 500
        var engine = ScrollEngine(settings: settings)
        var time = 0.0
        // Lowering Speed= eases down from the old speed (no jump): bounded by the highest configured.
        var ceiling = engine.settings.speed
        for _ in 0..<20_000 {
            // Mostly forward in time, sometimes a little or a lot back, sometimes not a number.
            switch random.next() % 20 {
            case 0: time -= random.uniform(0...0.1)
            case 1: time -= random.uniform(0...1000)
            case 2: time += random.uniform(0...100)
            default: time += random.uniform(0...0.03)
            }
            let t = random.next() % 50 == 0 ? Double.nan : time
            switch random.next() % 12 {
            case 0: engine.recalibrate(at: t)
            case 1: engine.halt()
            case 2: engine.restoreNeutral(Vector3(wild(&random), wild(&random), wild(&random)))
            case 3:
                var s = settings
                s.speed = random.uniform(-10...2000)
                s.outputRate = random.next() % 2 == 0 ? .nan : random.uniform(0...1000)
                s.orientation =
                    random.next() % 2 == 0 ? .auto : .fixed(ScreenOrientation.allCases.randomElement(using: &random)!)
                s.horizontal = random.next() % 2 == 0
                engine.apply(s)
                ceiling = max(ceiling, engine.settings.speed)
            case 4, 5, 6:
                let f = engine.frame(at: engine.nextFrameTime ?? t)
                if let f {
                    #expect(abs(Double(f.verticalHiRes)) <= HiResAccumulator.maxUnitsPerFrame)
                    #expect(abs(f.verticalDetents) <= abs(f.verticalHiRes) / 120 + 1)
                }
            default:
                // A plausible sample most of the time, garbage otherwise.
                let g =
                    random.next() % 4 == 0
                    ? Vector3(wild(&random), wild(&random), wild(&random))
                    : Vector3(random.uniform(-9.8...9.8), random.uniform(-9.8...9.8), random.uniform(-9.8...9.8))
                        .normalized.map { $0 * 9.8 } ?? .zero
                engine.feed(g, at: t)
            }
            let r = engine.readout
            #expect(r.speed.isFinite && abs(r.speed) <= ceiling + 1e-9)
            #expect(r.horizontalSpeed.isFinite && abs(r.horizontalSpeed) <= ceiling + 1e-9)
            #expect(engine.nextFrameTime?.isFinite ?? true)
            if engine.nextFrameTime == nil { #expect(r.speed == 0 && r.horizontalSpeed == 0) }
            if let n = engine.neutral { #expect(abs(n.length - 1) < 1e-9) }
        }
    }

    @Test func aTraceOfNothingButGarbageEmitsNothing() throws {
        var text = Trace.header + "\n"
        for i in 0..<500 { text += "\(Double(i) / 50) 99999 -99999 0\n" }  // far from 1 g
        var replay = ScrollReplay(trace: try Trace.parse(text), settings: ScrollSettings())
        while replay.next() != nil {}
        #expect(replay.summary.rejectedSamples == 500)
        #expect(replay.summary.frameCalls == 0)
        #expect(replay.engine.neutral == nil)
    }
}
