import ScrollPhysics

/// A model of how a person holds and moves a tablet, for synthetic traces:
/// the tests' golden and property traces, the feel report
/// (`Benchmarks/FeelReport`). Pure and deterministic: the same seed gives the
/// same motion on every machine.
///
/// The figures come from the field notes (`notes/intent-and-control.md`,
/// "Human motion, for synthetic traces"):
///
/// - physiological tremor of a hand: 8-12 Hz, small, an angular jitter of
///   the order of 0.05-0.2 degrees holding a tablet;
/// - postural sway: below 1 Hz, a degree or so;
/// - a device on a table shows only the sensor's noise, a few mg rms, per
///   part (`SensorModel`);
/// - walking: cadence near 1.8-2 steps/s, vertical acceleration at the hand
///   of the order of +-0.1-0.3 g, pitch wobble of a degree or two;
/// - riding in a vehicle: bumps up to 1 g (issue 11).
///
/// Angles are degrees in the user's frame of the normal orientation
/// (`PoseAngles`): pitch 0 upright, 90 lying face up, growing as the top edge
/// tilts away from the user; roll positive when the right edge is lower.
public struct Hand: Equatable, Sendable {
    /// Root-mean-square postural sway of the pitch, degrees; the roll sways
    /// 0.7 times as much. Three incommensurate components between 0.1 and
    /// 0.9 Hz with random phases, so the sway never repeats within a trace.
    public var swayDegrees: Double
    /// Peak angular tremor, degrees: two components between 8 and 12 Hz of
    /// 0.6 and 0.4 times this, on pitch and roll alike.
    public var tremorDegrees: Double
    private var pitchSway: [Oscillation] = []
    private var rollSway: [Oscillation] = []
    private var tremor: [Oscillation] = []
    /// Whether this is the real-kernel testbed's hand (`testbed(seed:)`),
    /// whose frequencies are fixed: a new seed draws only its phases.
    public private(set) var isTestbed = false

    /// A hand with "a degree or so" of sway (0.6 degrees rms) and 0.1 degrees of tremor.
    public static let typical = Hand(swayDegrees: 0.6, tremorDegrees: 0.1, seed: 1)
    /// A steady hand: 0.3 degrees rms of sway, 0.05 of tremor (the "little sway" of issue 11).
    public static let steady = Hand(swayDegrees: 0.3, tremorDegrees: 0.05, seed: 2)

    public init(swayDegrees: Double, tremorDegrees: Double, seed: UInt64) {
        self.swayDegrees = swayDegrees
        self.tremorDegrees = tremorDegrees
        var random = SeededRandom(seed: seed &+ 0x5157_4159)
        // Relative weights 0.7, 0.55, 0.45: rms of the sum = sqrt(sum w^2 / 2) = 0.725.
        let bands: [(ClosedRange<Double>, Double)] = [(0.1...0.3, 0.7), (0.3...0.6, 0.55), (0.6...0.9, 0.45)]
        let rmsOfWeights = 0.7246
        for (band, weight) in bands {
            let a = swayDegrees * weight / rmsOfWeights
            pitchSway.append(Oscillation(random.uniform(band), a, random.uniform(0...6.283)))
            rollSway.append(Oscillation(random.uniform(band), 0.7 * a, random.uniform(0...6.283)))
        }
        for weight in [0.6, 0.4] {
            tremor.append(Oscillation(random.uniform(8...12), tremorDegrees * weight, random.uniform(0...6.283)))
        }
    }

    /// The hand of the real-kernel testbed (`Tests/realkernel/helpers/hand.h`),
    /// slower than these: pitch 0.55 degrees at 0.11 Hz, 0.30 at 0.29 and
    /// 0.15 at 0.67 (0.46 rms); roll 0.40 at 0.07, 0.25 at 0.23, 0.10 at
    /// 0.53; phases from `seed`. Its tremor (about 0.125 degrees at 8-12
    /// Hz, wandering in amplitude and frequency there) is two fixed sines
    /// of that size here. A slow sway is the hardest for the stillness
    /// windows: over 1.4 s it moves least.
    public static func testbed(seed: UInt64) -> Hand {
        var hand = Hand(swayDegrees: 0.46, tremorDegrees: 0.125, seed: seed)
        var random = SeededRandom(seed: seed &+ 0x7E57_BED)
        hand.pitchSway = [(0.55, 0.11), (0.30, 0.29), (0.15, 0.67)].map {
            Oscillation($0.1, $0.0, random.uniform(0...6.283))
        }
        hand.rollSway = [(0.40, 0.07), (0.25, 0.23), (0.10, 0.53)].map {
            Oscillation($0.1, $0.0, random.uniform(0...6.283))
        }
        hand.tremor = [(0.075, 9.3), (0.05, 10.7)].map { Oscillation($0.1, $0.0, random.uniform(0...6.283)) }
        hand.isTestbed = true
        return hand
    }

    /// The same kind of hand (amplitudes, and for the testbed's its
    /// frequencies) with the rest drawn from `seed`.
    public func reseeded(_ seed: UInt64) -> Hand {
        isTestbed ? .testbed(seed: seed) : Hand(swayDegrees: swayDegrees, tremorDegrees: tremorDegrees, seed: seed)
    }

    /// How far the hand is off the pose it means to hold at `time`.
    public func wobble(at time: Double) -> PoseAngles {
        var pitch = 0.0
        var roll = 0.0
        for o in pitchSway { pitch += o.value(at: time) }
        for o in rollSway { roll += o.value(at: time) }
        for (i, o) in tremor.enumerated() {
            pitch += o.value(at: time)
            roll += o.value(at: time + Double(i) * 0.37)
        }
        return PoseAngles(pitch: pitch, roll: roll)
    }
}

/// A sine: amplitude * sin(2 pi frequency t + phase).
struct Oscillation: Equatable, Sendable {
    var frequency: Double
    var amplitude: Double
    var phase: Double

    init(_ frequency: Double, _ amplitude: Double, _ phase: Double) {
        self.frequency = frequency
        self.amplitude = amplitude
        self.phase = phase
    }

    func value(at t: Double) -> Double {
        amplitude * MathFunctions.sine(radians: 2 * Double.pi * frequency * t + phase)
    }
}

/// What moves the person holding the device, or the surface it lies on.
public enum Carriage: Equatable, Sendable {
    /// Walking: a vertical bounce of `bounceG` (peak, in g) at the step
    /// cadence with a second harmonic of a third of it, and a pitch wobble of
    /// `wobbleDegrees` (peak) at the stride frequency (half the cadence) plus
    /// half of it at the cadence. The hand also swings fore and aft at the
    /// cadence by half the bounce: that figure is ours, not the notes'
    /// (they give the vertical only), and it is what makes a walk look like
    /// tilting to an accelerometer (0.1 g sideways reads as 6 degrees).
    case walking(cadence: Double = 1.9, bounceG: Double = 0.15, wobbleDegrees: Double = 1.5)
    /// Riding in a vehicle: bumps at random intervals (0.5 to 2.5 s), each a
    /// vertical damped 6 Hz oscillation of up to `maxBumpG`, with a
    /// horizontal (fore-aft) part of 0.3 of it a quarter period later and a
    /// pitch jolt of up to 1.5 degrees, on top of a road vibration of 0.03 g
    /// at 13 Hz.
    case riding(maxBumpG: Double = 1.0)
    /// Typing on a keyboard dock: taps about 6 times a second, each a damped
    /// 18 Hz ringing of 0.03 g and 0.05 degrees.
    case typing
}

/// A scripted session: where the person means to hold the device and when,
/// who holds it (a hand or a surface), what carries it, when a finger
/// touches the screen.
///
/// Between two keyframes the intended pose eases from one to the next with
/// a cosine (as a hand moves: slow start, slow end). A keyframe's `holder`
/// holds the device from that keyframe to the next: `.hand` adds the hand's
/// sway and tremor, `.surface` only what the surface does (nothing, or the
/// carriage). Coming to rest on a surface after a hand adds a touchdown
/// (a 0.3 g, 25 Hz knock dying out in 40 ms) and lets the hand's wobble
/// settle out within 0.15 s; a hand taking over fades its wobble in over 0.3 s.
/// The hand segment before a surface lowers the device by 0.2 m, the one
/// after a surface lifts it as much (`carryG`), unless the keyframe where
/// the holder changes is not `carried`: then the hand only turns it
/// onto the surface or off it (a pure rotation, as it is laid back onto a
/// table or tipped onto a stand), and the surface takes it without a knock.
public struct MotionScript: Sendable {
    public enum Holder: Equatable, Sendable {
        case hand
        case surface
    }

    public struct Keyframe: Equatable, Sendable {
        public var time: Double
        public var pitch: Double
        public var roll: Double
        public var holder: Holder
        /// Where the holder changes here (a hand to a surface or back):
        /// whether the device is carried down or up on the way and knocks
        /// on arrival (true), or only turned, without a jolt (false).
        public var carried: Bool

        public init(_ time: Double, pitch: Double, roll: Double = 0, _ holder: Holder = .hand, carried: Bool = true) {
            self.time = time
            self.pitch = pitch
            self.roll = roll
            self.holder = holder
            self.carried = carried
        }
    }

    public var keyframes: [Keyframe]
    public var hand: Hand
    public var carriage: [(during: ClosedRange<Double>, carriage: Carriage)]
    /// Times a finger (or pen) is on the screen.
    public var contacts: [ClosedRange<Double>]
    /// Seeds the random parts of carriages (bump times and sizes, taps).
    public var seed: UInt64
    private var bumps: [(time: Double, size: Double)] = []
    private var taps: [Double] = []

    public init(
        _ keyframes: [Keyframe], hand: Hand = .typical,
        carriage: [(during: ClosedRange<Double>, carriage: Carriage)] = [],
        contacts: [ClosedRange<Double>] = [], seed: UInt64 = 1
    ) {
        precondition(!keyframes.isEmpty, "a script needs a keyframe")
        self.keyframes = keyframes
        self.hand = hand
        self.carriage = carriage
        self.contacts = contacts
        self.seed = seed
        var random = SeededRandom(seed: seed &+ 0xB0B5)
        for (range, kind) in carriage {
            switch kind {
            case .riding(let maxBumpG):
                var t = range.lowerBound + random.uniform(0.2...1)
                while t < range.upperBound {
                    bumps.append((t, random.uniform(0.2...1) * maxBumpG))
                    t += random.uniform(0.5...2.5)
                }
            case .typing:
                var t = range.lowerBound
                while t < range.upperBound {
                    taps.append(t)
                    t += random.uniform(0.08...0.25)
                }
            case .walking:
                break
            }
        }
    }

    public var duration: Double { keyframes.last!.time }

    /// The index of the keyframe whose segment contains `time`.
    private func segment(at time: Double) -> Int {
        var i = 0
        while i + 1 < keyframes.count, keyframes[i + 1].time <= time { i += 1 }
        return i
    }

    /// The pose the person means at `time`: keyframes eased, no wobble.
    public func intendedPose(at time: Double) -> PoseAngles {
        let i = segment(at: time)
        let a = keyframes[i]
        guard i + 1 < keyframes.count else { return PoseAngles(pitch: a.pitch, roll: a.roll) }
        let b = keyframes[i + 1]
        let e = ease(time, a.time, b.time)
        return PoseAngles(pitch: a.pitch + (b.pitch - a.pitch) * e, roll: a.roll + (b.roll - a.roll) * e)
    }

    /// Who holds the device at `time`.
    public func holder(at time: Double) -> Holder { keyframes[segment(at: time)].holder }

    /// Whether a contact is on the screen at `time`.
    public func isTouched(at time: Double) -> Bool { contacts.contains { $0.contains(time) } }

    /// The keyframe where the current holder took the device (the start of
    /// its run of keyframes), or nil if it has held it from the start.
    private func takenOver(_ i: Int) -> MotionScript.Keyframe? {
        var j = i
        while j > 0, keyframes[j - 1].holder == keyframes[i].holder { j -= 1 }
        return j == 0 ? nil : keyframes[j]
    }

    /// The acceleration an ideal (noise-free) accelerometer reads at `time`,
    /// m/s^2 in display axes, normal orientation.
    public func acceleration(at time: Double) -> Vector3 {
        var pose = intendedPose(at: time)
        var verticalG = 0.0
        var foreAftG = 0.0
        let i = segment(at: time)
        let taken = takenOver(i)
        verticalG += carryG(segment: i, at: time)
        switch keyframes[i].holder {
        case .hand:
            let weight = taken.map { ease(time, $0.time, $0.time + 0.3) } ?? 1
            let w = hand.wobble(at: time)
            pose.pitch += weight * w.pitch
            pose.roll += weight * w.roll
        case .surface:
            if let down = taken {
                let w = hand.wobble(at: time)
                let weight = 1 - ease(time, down.time, down.time + 0.15)
                pose.pitch += weight * w.pitch
                pose.roll += weight * w.roll
                if down.carried { verticalG += Self.dampedSine(time - down.time, 0.3, 17, 0.04) }
            }
        }
        for (range, kind) in carriage where range.contains(time) {
            let t = time - range.lowerBound
            switch kind {
            case .walking(let cadence, let bounce, let wobble):
                let step = 2 * Double.pi * cadence * t
                verticalG +=
                    bounce * MathFunctions.sine(radians: step) + bounce / 3 * MathFunctions.sine(radians: 2 * step + 1)
                foreAftG += bounce / 2 * MathFunctions.sine(radians: step + 1.2)
                pose.pitch +=
                    wobble * MathFunctions.sine(radians: step / 2 + 0.5) + wobble / 2
                    * MathFunctions.sine(radians: step + 2)
            case .riding:
                verticalG += 0.03 * MathFunctions.sine(radians: 2 * Double.pi * 13 * t)
                for bump in bumps where bump.time <= time && time < bump.time + 1 {
                    verticalG += Self.dampedSine(time - bump.time, bump.size, 6, 0.12)
                    foreAftG += Self.dampedSine(time - bump.time - 0.04, 0.3 * bump.size, 6, 0.12)
                    pose.pitch += Self.dampedSine(time - bump.time, 1.5 * bump.size, 3, 0.2)
                }
            case .typing:
                for tap in taps where tap <= time && time < tap + 0.3 {
                    verticalG += Self.dampedSine(time - tap, 0.03, 18, 0.04)
                    pose.pitch += Self.dampedSine(time - tap, 0.05, 18, 0.04)
                }
            }
        }
        // Gravity reads along "down"; an acceleration reads against itself:
        // up (-down) adds to the reading, a horizontal one tilts it.
        let down = pose.gravityDirection(in: .normal)
        let pitch = pose.pitch / MathFunctions.degreesPerRadian
        let towardsUser = Vector3(0, -MathFunctions.sine(radians: pitch), MathFunctions.cosine(radians: pitch))
        return (down * (1 + verticalG) - towardsUser * foreAftG) * standardGravity
    }

    /// The vertical acceleration of lowering the device onto a surface (the
    /// hand segment just before one) or lifting it off (the hand segment just
    /// after one), in g: the second derivative of 0.2 m times the ease.
    private func carryG(segment i: Int, at time: Double) -> Double {
        guard keyframes[i].holder == .hand, i + 1 < keyframes.count else { return 0 }
        let lowering = keyframes[i + 1].holder == .surface && keyframes[i + 1].carried
        let lifting = i > 0 && keyframes[i - 1].holder == .surface && keyframes[i].carried
        guard lowering || lifting else { return 0 }
        let t0 = keyframes[i].time
        let span = keyframes[i + 1].time - t0
        guard span > 0 else { return 0 }
        // d(t) = D (1 - cos(pi x)) / 2, x = (t - t0) / span: d'' = D pi^2 cos(pi x) / (2 span^2).
        let x = (time - t0) / span
        let a = 0.2 * Double.pi * Double.pi * MathFunctions.cosine(radians: Double.pi * x) / (2 * span * span)
        return (lifting ? a : -a) / standardGravity
    }

    private static func dampedSine(_ t: Double, _ amplitude: Double, _ frequency: Double, _ decay: Double) -> Double {
        guard t >= 0 else { return 0 }
        return amplitude * MathFunctions.exponential(-t / decay)
            * MathFunctions.sine(radians: 2 * Double.pi * frequency * t)
    }
}

/// A smooth step from 0 to 1 between `t0` and `t1` (cosine ease), as a hand moves.
public func ease(_ t: Double, _ t0: Double, _ t1: Double) -> Double {
    if t <= t0 { return 0 }
    if t >= t1 { return 1 }
    let x = (t - t0) / (t1 - t0)
    return (1 - MathFunctions.cosine(radians: Double.pi * x)) / 2
}
