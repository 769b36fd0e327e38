import Foundation

@testable import ScrollPhysics

/// What a simulated run produced.
struct Run {
    var frames: [(time: Double, frame: ScrollFrame)] = []
    /// Every frame call (emitting or not) with the readout after it.
    var clock: [(time: Double, readout: ScrollReadout)] = []
    var engine: ScrollEngine

    var verticalTotal: Int { frames.reduce(0) { $0 + Int($1.frame.verticalHiRes) } }
    var horizontalTotal: Int { frames.reduce(0) { $0 + Int($1.frame.horizontalHiRes) } }
    var verticalDetentTotal: Int { frames.reduce(0) { $0 + Int($1.frame.verticalDetents) } }
    func frames(in range: ClosedRange<Double>) -> [(time: Double, frame: ScrollFrame)] {
        frames.filter { range.contains($0.time) }
    }
}

/// Drives an engine like the daemon: a sample every 1/sampleRate seconds from
/// `from` to `to` (while `pose` returns one), frames whenever the output clock
/// is due, in time order; then the clock runs on until `until` (default: to
/// `to` + 1 s) or until the engine stops it.
func drive(
    _ engine: inout ScrollEngine, from start: Double = 0, to end: Double, sampleRate: Double = 50,
    until stop: Double? = nil, into run: inout Run, pose: (Double) -> Vector3?
) {
    let period = 1 / sampleRate
    var i = 0
    let last = stop ?? end + 1
    while true {
        let sampleTime = start + Double(i) * period
        let nextSample: Double? = sampleTime <= end + 1e-9 ? sampleTime : nil
        if let due = engine.nextFrameTime, due <= (nextSample ?? last), due <= last {
            if let f = engine.frame(at: due) { run.frames.append((due, f)) }
            run.clock.append((due, engine.readout))
            continue
        }
        guard let t = nextSample else { break }
        if let g = pose(t) { engine.feed(g, at: t) }
        i += 1
    }
}

/// A fresh engine driven over one motion.
func simulate(
    _ settings: ScrollSettings = ScrollSettings(), to end: Double, sampleRate: Double = 50, until stop: Double? = nil,
    pose: (Double) -> Vector3?
) -> Run {
    var engine = ScrollEngine(settings: settings)
    var run = Run(engine: engine)
    drive(&engine, to: end, sampleRate: sampleRate, until: stop, into: &run, pose: pose)
    run.engine = engine
    return run
}
