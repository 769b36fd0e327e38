// physics-bench: N synthetic accelerometer samples through the whole scroll
// physics pipeline, driven like the daemon drives it (ScrollEngine's doc
// comment): feed every sample at 50 Hz, take a frame on the sample's
// wake-up when isFrameDue(at:) says so, and on the timer at frameDeadline
// (at 50 Hz against the 60 Hz output the samples carry the frames).
//
//     physics-bench [N] [default|full|hinge]
//
// N defaults to 1,000,000. `default` runs the shipped configuration
// (vertical only, no inertia); `full` (the default) also scrolls
// horizontally and coasts with 300 ms of inertia: every stage at work.
// `hinge` runs N pairs of readings (display and base) through the
// `HingePostureDetector` instead, at its deciding rate of 5 Hz, over a
// cycle that folds a laptop into a tablet and back, holds it in portrait
// (the hinge vertical), shakes it and sets it up as a tent: every reading,
// rejection and phase at work.
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
    print("usage: physics-bench [N] [default|full|hinge]   (N: number of samples or pairs, default 1000000)")
    exit(2)
}
var count = 1_000_000
var full = true
var hinge = false
for argument in arguments.dropFirst() {
    if let n = Int(argument), n > 0 {
        count = n
    } else if argument == "default" || argument == "full" {
        full = argument == "full"
    } else if argument == "hinge" {
        hinge = true
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

/// The display's reading `away` degrees back from upright, `side` right edge
/// down, and the base's with the lid open by `hinge` degrees (the frames of
/// `HingeReading`: the base's is the display's turned back about x).
func pair(away: Double, side: Double, hinge: Double) -> (Vector3, Vector3) {
    let d = gravity(away: away, side: side)
    let h = -hinge * .pi / 180
    return (d, Vector3(d.x, cos(h) * d.y - sin(h) * d.z, sin(h) * d.y + cos(h) * d.z))
}

/// The pairs of one hinge cycle, 80 s at 5 Hz (divides N = 10^6 and 2N evenly).
func hingeMotion() -> [(Vector3, Vector3)] {
    let rate = 5.0
    var pairs: [(Vector3, Vector3)] = []
    pairs.reserveCapacity(400)
    for i in 0..<400 {
        let t = Double(i) / rate
        let sway = 0.6 * sin(2 * .pi * 0.2 * t)
        var angle: Double
        var away = 25 + sway
        var side = 0.4 * sin(2 * .pi * 0.13 * t)
        switch t {
        case ..<10: angle = 110  // a laptop
        case ..<12: angle = 110 + 125 * (1 - cos(.pi * (t - 10) / 2))  // folding back
        case ..<30: angle = 359.5  // a tablet in the hand
        case ..<40:
            angle = 359.5
            side = 85  // portrait: the hinge near vertical
        case ..<45: angle = 359.5
        case ..<55:
            angle = 120  // a laptop shaken: every other pair rejected
        case ..<57: angle = 120 + 85 * (1 - cos(.pi * (t - 55) / 2))  // set up as a tent
        default:
            angle = 290
            away = 200
        }
        var (d, b) = pair(away: away, side: side, hinge: angle)
        if (45..<55).contains(t) && i % 2 == 0 { d = d * 1.4 }
        if (10..<12).contains(t) { d = d + Vector3(0, 0.15 * g, 0) }  // the fold's own push
        d = d + Vector3(0.02 * sin(t * 91), 0.02 * cos(t * 77), 0.02 * sin(t * 53))
        b = b + Vector3(0.02 * cos(t * 83), 0.02 * sin(t * 71), 0.02 * cos(t * 59))
        pairs.append((d, b))
    }
    return pairs
}

/// The daemon's calls for the hinge: one `observe` per pair, the demand
/// asked after each (as the loop asks it every round).
func runHinge(pairs count: Int, motion: [(Vector3, Vector3)]) -> (changes: Int, tablet: Int, demand: Double) {
    var detector = HingePostureDetector()
    var changes = 0
    var tablet = 0
    var demand = 0.0
    var index = 0
    for i in 0..<count {
        let t = Double(i) * 0.2
        let (d, b) = motion[index]
        if detector.observe(display: d, at: t, base: b, at: t) { changes &+= 1 }
        if detector.posture.isTabletMode { tablet &+= 1 }
        demand += detector.sampleDemand.rate
        index += 1
        if index == motion.count { index = 0 }
    }
    return (changes, tablet, demand / Double(count))
}

if hinge {
    let (changes, tablet, demand) = runHinge(pairs: count, motion: hingeMotion())
    print(
        "config=hinge pairs=\(count) posture-changes=\(changes) pairs-in-tablet-mode=\(tablet)"
            + " mean-demand-hz=\(demand) seconds-simulated=\(Double(count) / 5)")
    exit(0)
}

let (frames, verticalTotal, horizontalTotal) = run(samples: count, motion: motion, full: full)
print(
    "config=\(full ? "full" : "default") samples=\(count) frames=\(frames) vertical-hires=\(verticalTotal) horizontal-hires=\(horizontalTotal)"
        + " seconds-simulated=\(Double(count) / sampleRate)")
