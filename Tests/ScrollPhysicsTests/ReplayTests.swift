import Testing

@testable import ScrollPhysics

@Suite struct ReplayDriver {
    private var trace: Trace {
        SyntheticTrace.all.first { $0.name == "tilt-away-and-back" }!.trace
    }

    @Test func interleavesSamplesAndFramesLikeACoalescingLoop() {
        var replay = ScrollReplay(trace: trace, settings: ScrollSettings())
        var deadline: Double? = nil
        var lastTime = -Double.infinity
        var lastSample: Double?
        var nextSample = 0
        var frames = 0
        var wakeUps = Set<Double>()
        while let step = replay.next() {
            #expect(step.time >= lastTime)
            lastTime = step.time
            wakeUps.insert(step.time)
            switch step.event {
            case .frame:
                // On the wake-up of the sample just fed, or on the timer.
                #expect(step.time == lastSample || step.time == deadline, "a frame off both clocks at \(step.time)")
                frames += 1
            case .sample(let index):
                #expect(index == nextSample)
                #expect(step.time == trace.samples[index].time)
                // A timer due before this sample would have come first.
                if let d = deadline { #expect(d >= step.time) }
                nextSample += 1
                lastSample = step.time
            case .touch:
                Issue.record("this trace has no touch lines")
            }
            deadline = replay.engine.frameDeadline
        }
        #expect(nextSample == trace.samples.count)
        #expect(frames == replay.summary.frameCalls)
        #expect(replay.engine.nextFrameTime == nil)  // ran on until the engine stopped
        // 50 Hz samples carry the frames: while it scrolls, no wake-up is for a frame alone.
        let scrolling = 1.2...4.2
        let frameOnly = wakeUps.filter { t in scrolling.contains(t) && !trace.samples.contains { $0.time == t } }
        #expect(frameOnly.isEmpty, "timer-only wake-ups while samples flow: \(frameOnly.sorted())")
    }

    @Test func emitsWhatTheDaemonLoopEmits() {
        var replay = ScrollReplay(trace: trace, settings: ScrollSettings())
        var replayed: [ScrollFrame] = []
        while let step = replay.next() { if let f = step.frame { replayed.append(f) } }

        // The loop of ScrollEngine's doc comment: frames on sample wake-ups when
        // due, and on the timer at frameDeadline.
        var engine = ScrollEngine(settings: ScrollSettings())
        var looped: [ScrollFrame] = []
        for sample in trace.samples {
            while let due = engine.frameDeadline, due <= sample.time {
                if let f = engine.frame(at: due) { looped.append(f) }
            }
            engine.feed(sample.acceleration, at: sample.time)
            if engine.isFrameDue(at: sample.time), let f = engine.frame(at: sample.time) { looped.append(f) }
        }
        while let due = engine.frameDeadline {
            if let f = engine.frame(at: due) { looped.append(f) }
        }
        #expect(replayed == looped)
        #expect(replay.summary.framesEmitted == looped.count)
        #expect(replay.summary.verticalHiRes == looped.reduce(0) { $0 + Int($1.verticalHiRes) })
    }

    @Test func printsFramesEventsAndASummary() {
        let text = GoldenTraces.replay(trace, ScrollSettings())
        let lines = text.split(separator: "\n")
        #expect(lines.first == Substring(ReplayPrinter.legend))
        #expect(lines[1] == "t=0.0000 event start orientation normal neutral set")
        #expect(lines.contains { $0.hasPrefix("t=") && $0.contains(" wheel=-") && $0.hasSuffix(" normal") })
        #expect(lines.last!.hasPrefix("summary samples=251 accepted=251 rejected=0 "))
    }
}

@Suite struct FixedPointText {
    @Test(arguments: [
        (12.5, 2, "12.50"), (-0.004, 2, "0.00"), (-0.006, 2, "-0.01"), (0.0001, 4, "0.0001"), (3, 0, "3"),
        (-1234.5678, 3, "-1234.568"), (Double.nan, 2, "nan"), (-Double.infinity, 1, "-inf"), (1e-12, 9, "0.000000000"),
    ])
    func formatsFixedDecimals(value: Double, decimals: Int, text: String) {
        #expect(FixedPoint.format(value, decimals: decimals) == text)
    }
}
