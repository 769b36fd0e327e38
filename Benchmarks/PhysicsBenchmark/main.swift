// physics-bench: N synthetic accelerometer samples through the whole scroll
// physics pipeline, driven like the daemon drives it (ScrollEngine's doc
// comment): feed every sample at 50 Hz, take a frame on the sample's
// wake-up when isFrameDue(at:) says so, and on the timer at frameDeadline
// (at 50 Hz against the 60 Hz output the samples carry the frames).
//
//     physics-bench [N] [default|full]
//
// N defaults to 1,000,000. `default` runs the shipped configuration
// (vertical only, no inertia); `full` (the default) also scrolls
// horizontally and coasts with 300 ms of inertia: every stage at work.
//
// The motion is precomputed once (setup, allocated before the loop) and
// cycles through slow forward and sideways tilts, a return to neutral and a
// short run of rejected samples, so every stage does real work: the 1 g
// gate, orientation tracking, both 1-euro filters, the transfer curve, the
// acceleration limit and inertia, the integrator and the hi-res accumulator.
// Benchmarks/physics-bench.sh runs it for N and 2N under valgrind; the
// difference divided by N is the per-sample cost without the setup.
import ScrollPhysics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

let arguments = CommandLine.arguments
func usage() -> Never {
    print("usage: physics-bench [N] [default|full]   (N: number of samples, default 1000000)")
    exit(2)
}
var count = 1_000_000
var full = true
for argument in arguments.dropFirst() {
    if let n = Int(argument), n > 0 {
        count = n
    } else if argument == "default" || argument == "full" {
        full = argument == "full"
    } else {
        usage()
    }
}

let sampleRate = 50.0
let g = 9.80665
let cycle = 2000  // 40 s of motion, then it repeats; divides N = 10^6 and 2N evenly

/// Gravity for a device `away` degrees back from upright, `side` degrees right edge down.
func gravity(away: Double, side: Double) -> Vector3 {
    let a = away * .pi / 180
    let r = side * .pi / 180
    return Vector3(sin(r), -cos(r) * cos(a), -cos(r) * sin(a)) * g
}

var motion: [Vector3] = []
motion.reserveCapacity(cycle)
for i in 0..<cycle {
    let t = Double(i) / sampleRate
    let away = 30 + 22 * sin(2 * .pi * t / 10)  // forward and back, +-22 degrees over 10 s
    let side = 14 * sin(2 * .pi * t / 8)  // sideways, +-14 degrees over 8 s
    var v = gravity(away: away, side: side) + Vector3(0.03 * sin(t * 91), 0.03 * cos(t * 77), 0.02 * sin(t * 53))
    if i % 250 >= 245 { v = v * 1.7 }  // a bump now and then: rejected samples
    motion.append(v)
}

/// The daemon's loop, over precomputed samples. A function, so the engine is a
/// local variable: a global one would pay Swift's dynamic exclusivity checks
/// on every access (measured: about 300 instructions per sample).
func run(samples count: Int, motion: [Vector3], full: Bool) -> (frames: Int, vertical: Int64, horizontal: Int64) {
    var settings = ScrollSettings()
    if full {
        settings.horizontal = true
        settings.inertiaMilliseconds = 300
    }
    var engine = ScrollEngine(settings: settings)
    var frames = 0
    var verticalTotal: Int64 = 0
    var horizontalTotal: Int64 = 0
    let period = 1 / sampleRate
    var index = 0
    for i in 0..<count {
        let t = Double(i) * period
        while let due = engine.frameDeadline, due <= t {
            if let f = engine.frame(at: due) {
                frames &+= 1
                verticalTotal &+= Int64(f.verticalHiRes)
                horizontalTotal &+= Int64(f.horizontalHiRes)
            }
        }
        engine.feed(motion[index], at: t)
        if engine.isFrameDue(at: t), let f = engine.frame(at: t) {
            frames &+= 1
            verticalTotal &+= Int64(f.verticalHiRes)
            horizontalTotal &+= Int64(f.horizontalHiRes)
        }
        index += 1
        if index == motion.count { index = 0 }
    }
    return (frames, verticalTotal, horizontalTotal)
}

let (frames, verticalTotal, horizontalTotal) = run(samples: count, motion: motion, full: full)
print(
    "config=\(full ? "full" : "default") samples=\(count) frames=\(frames) vertical-hires=\(verticalTotal) horizontal-hires=\(horizontalTotal)"
        + " seconds-simulated=\(Double(count) / sampleRate)")
