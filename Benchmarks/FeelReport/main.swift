// feel-report: how scrolling feels, in numbers, for the synthetic human
// scenarios of ScrollPhysics (`FeelScenario`): a person reading and tilting
// on purpose, putting the device down, picking it up, slumping, walking,
// riding, touching the screen. It prints numbers; it never passes or fails.
//
//     feel-report [--parts all|NAME,...] [--seeds N] [--full-rate]
//     feel-report --replay SCENARIO [--parts NAME] [--seeds N]
//
// By default the sensor is read as the daemon reads it when it follows the
// engine's demand (`DemandDrivenRun`: the rate `sampleDemand` asks for,
// frames on sample wake-ups and on the timer at `frameDeadline`); then a
// second table gives what each intent state cost: the rate demanded, and
// samples, wake-ups and frames per second measured over all scenarios and
// seeds. --full-rate reads every sample at the part's rate instead (a trace
// through `ScrollReplay`, as `tiltscrolld --replay` does). --replay prints
// what `tiltscrolld --replay` would for the scenario's trace (frames, state
// changes) with the last seed, instead of the tables.
//
// Per scenario and sensor part (default: the kxcjk-like part), averaged over
// N seeds (default 3; each seed draws the sensor's noise and timing jitter
// and the hand's sway and tremor anew):
//
//   detents    whole detents emitted, both axes
//   unwanted   detents emitted where the right behaviour is silence (after
//              a put-down has had 2 s to stop, while slumping, walking, ...)
//   onset      ms from the intended pose leaving the dead zone to the first
//              frame that moves, per deliberate tilt (mean over tilts)
//   stop       ms from the pose coming back into the dead zone to the last
//              frame that moves
//   hold       detents/s of a held tilt (1 s bins from 1 s into the hold)
//   ripple     (fastest bin - slowest bin) / mean over that hold
//   rest-stop  s from a put-down's touchdown to the last frame that moves
//              (the largest over the seeds)
//
// Then every put-down of every scenario, seed by seed: s from the hand
// letting go (the surface takes the device) to the last frame that moved;
// and every pick-up: s from the lift to the last frame that moved before a
// deliberate tilt, or 0 (it never scrolled on its own).
//
// Following the demand, a last table gives how soon a pick-up is noticed
// at the resting rate: s from the lift beginning to the engine leaving
// `resting` (and asking for its full rate), over every pick-up of every
// scenario and seed (the promise is 0.5 s).
import ScrollPhysics
import SyntheticMotion

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

func usage() -> Never {
    print("usage: feel-report [--parts all|NAME,...] [--seeds N] [--full-rate] | --replay SCENARIO")
    print("parts: " + SensorModel.parts.map(\.name).joined(separator: " ") + " " + SensorModel.hidHub10Hz.name)
    exit(2)
}

var parts: [SensorModel] = [.kxcjk]
var seeds = 3
var replayName: String?
var fullRate = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--parts":
        guard let value = arguments.popFirst() else { usage() }
        let known = SensorModel.parts + [.hidHub10Hz]
        if value == "all" {
            parts = known
        } else {
            parts = value.split(separator: ",").map { name in
                guard let part = known.first(where: { $0.name == name }) else { usage() }
                return part
            }
        }
    case "--replay":
        guard let value = arguments.popFirst() else { usage() }
        replayName = value
    case "--full-rate":
        fullRate = true
    case "--seeds":
        guard let value = arguments.popFirst(), let n = Int(value), n > 0 else { usage() }
        seeds = n
    default:
        usage()
    }
}

func fixed(_ value: Double?, _ decimals: Int, width: Int) -> String {
    guard let value, value.isFinite else { return pad("-", width) }
    var scaled = (abs(value) * pow(10, Double(decimals))).rounded()
    var digits = ""
    for _ in 0..<decimals {
        digits = String(Int(scaled.truncatingRemainder(dividingBy: 10))) + digits
        scaled = (scaled / 10).rounded(.down)
    }
    let text =
        (value < 0 && scaled + Double(digits.isEmpty ? 0 : 1) > 0 ? "-" : "") + String(Int(scaled))
        + (decimals > 0 ? "." + digits : "")
    return pad(text, width)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func mean(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }

let settings = ScrollSettings()
if let name = replayName {
    guard let scenario = FeelScenario.all.first(where: { $0.name == name }) else { usage() }
    var s = settings
    s.sampleRate = parts[0].rate
    var source = SyntheticSensor(script: scenario.script(seed: UInt64(seeds)), model: parts[0], seed: UInt64(seeds))
    var replay = ScrollReplay(trace: source.trace(), settings: s)
    var printer = ReplayPrinter()
    var out = ""
    while let step = replay.next() { printer.write(step, to: &out) }
    printer.writeSummary(replay.summary, to: &out)
    print(out, terminator: "")
    exit(0)
}
print(
    "feel-report: default settings (dead zone \(settings.deadZoneDegrees), max tilt \(settings.maxTiltDegrees),"
        + " speed \(settings.speed) detents/s), \(seeds) seed\(seeds == 1 ? "" : "s") per part, "
        + (fullRate ? "every sample at the part's rate" : "samples at the rate the engine demands"))
print(
    pad("scenario", 18) + pad("part", 14) + pad("detents", 9) + pad("unwanted", 9) + pad("onset-ms", 9)
        + pad("stop-ms", 9) + pad("hold/s", 8) + pad("ripple", 8) + pad("rest-stop-s", 12))
var costs = [[DemandDrivenRun.StateCost]](
    repeating: Array(repeating: DemandDrivenRun.StateCost(), count: IntentState.allCases.count), count: parts.count)
var pickUpNotices = [[Double?]](repeating: [], count: parts.count)
/// Per scenario and part, every seed's put-downs and pick-ups.
var putDowns: [(scenario: String, part: String, seconds: [Double])] = []
var pickUps: [(scenario: String, part: String, seconds: [Double])] = []
for scenario in FeelScenario.all {
    for (p, part) in parts.enumerated() {
        var s = settings
        s.sampleRate = part.rate
        let runs = (1...seeds).map { seed -> FeelMeasurement in
            if fullRate { return scenario.measure(settings: s, sensor: part, seed: UInt64(seed)) }
            let (m, run) = scenario.measureFollowingDemand(settings: s, sensor: part, seed: UInt64(seed))
            pickUpNotices[p] += run.pickUpNoticeLatencies(in: scenario)
            for (i, c) in run.costs.enumerated() {
                costs[p][i].seconds += c.seconds
                costs[p][i].samples += c.samples
                costs[p][i].wakeUps += c.wakeUps
                costs[p][i].frames += c.frames
            }
            return m
        }
        let detents = mean(runs.map { Double($0.detents) })
        let unwanted = runs.map(\.unwantedDetents).max().map(Double.init)
        let onsets = runs.flatMap { $0.tilts.compactMap(\.onsetLatency) }
        let stops = runs.flatMap { $0.tilts.compactMap(\.stopLatency) }
        let holds = runs.flatMap(\.holds)
        let restStops = runs.flatMap(\.restStops)
        if !restStops.isEmpty { putDowns.append((scenario.name, part.name, restStops)) }
        let scrolls = runs.flatMap(\.pickUpScrolls)
        if !scrolls.isEmpty { pickUps.append((scenario.name, part.name, scrolls)) }
        let silent = !scenario.unwanted.isEmpty
        print(
            pad(scenario.name, 18) + pad(part.name, 14) + fixed(detents, 1, width: 9)
                + (silent ? fixed(unwanted, 0, width: 9) : pad("-", 9))
                + fixed(mean(onsets).map { $0 * 1000 }, 0, width: 9) + fixed(mean(stops).map { $0 * 1000 }, 0, width: 9)
                + fixed(mean(holds.map(\.mean)).map(abs), 2, width: 8) + fixed(mean(holds.map(\.ripple)), 3, width: 8)
                + fixed(restStops.max(), 2, width: 12))
    }
}

print("")
print("put-downs: s from the hand letting go to the last frame that moved, seed by seed (the promise: 2 s)")
for row in putDowns {
    print(pad(row.scenario, 18) + pad(row.part, 14) + "  " + row.seconds.map { fixed($0, 2, width: 6) }.joined())
}
print("")
print("pick-ups: s from the lift to the last frame that moved before a deliberate tilt, seed by seed (0: none)")
for row in pickUps {
    print(pad(row.scenario, 18) + pad(row.part, 14) + "  " + row.seconds.map { fixed($0, 2, width: 6) }.joined())
}

if !fullRate {
    print("")
    print("per intent state, over all scenarios and seeds: rate demanded, then measured per second")
    print(
        pad("part", 14) + pad("state", 11) + pad("demand-Hz", 11) + pad("seconds", 10) + pad("samples/s", 11)
            + pad("wake-ups/s", 12) + pad("frames/s", 10))
    for (p, part) in parts.enumerated() {
        for (i, state) in IntentState.allCases.enumerated() {
            let c = costs[p][i]
            guard c.seconds > 0 else { continue }
            let demand = ScrollEngine(
                settings: {
                    var s = settings
                    s.sampleRate = part.rate
                    return s
                }()
            )
            .demandedRate(for: state)
            print(
                pad(part.name, 14) + pad(state.name, 11) + fixed(demand, 2, width: 11) + fixed(c.seconds, 1, width: 10)
                    + fixed(Double(c.samples) / c.seconds, 2, width: 11)
                    + fixed(Double(c.wakeUps) / c.seconds, 2, width: 12)
                    + fixed(Double(c.frames) / c.seconds, 2, width: 10))
        }
    }
    print("")
    print(
        "pick-ups noticed at the resting rate (\(ScrollEngine.restingSampleRate) Hz):"
            + " s from the lift to leaving resting")
    print(
        pad("part", 14) + pad("pick-ups", 10) + pad("missed", 8) + pad("mean-s", 8) + pad("p95-s", 8) + pad("max-s", 8))
    for (p, part) in parts.enumerated() where !pickUpNotices[p].isEmpty {
        let noticed = pickUpNotices[p].compactMap { $0 }.sorted()
        let p95 = noticed.isEmpty ? nil : noticed[min(noticed.count - 1, noticed.count * 95 / 100)]
        print(
            pad(part.name, 14) + pad("\(pickUpNotices[p].count)", 10)
                + pad("\(pickUpNotices[p].count - noticed.count)", 8) + fixed(mean(noticed), 2, width: 8)
                + fixed(p95, 2, width: 8) + fixed(noticed.last, 2, width: 8))
    }
}
