import Foundation

@testable import ScrollPhysics
@testable import SyntheticMotion

/// A 360-degree convertible with an accelerometer in each half, in the
/// frames systemd's 60-sensor.hwdb defines (both readings through their
/// mount matrices), written out independently of the code under test.
///
/// The display's axes: x towards its right edge (along the hinge, which runs
/// along its bottom edge), y towards its top edge, z out of the screen. With
/// the lid closed the base's axes are the display's; opening the lid by an
/// angle turns the display about x, so one gravity reads, in the display's
/// frame, the base's reading rotated about x by the angle.
enum HingedDevice {
    static let g = 9.80665

    /// `v` rotated about x by `degrees` (y towards z).
    static func turnedAboutHinge(_ v: Vector3, by degrees: Double) -> Vector3 {
        let a = degrees * .pi / 180
        return Vector3(v.x, cos(a) * v.y - sin(a) * v.z, sin(a) * v.y + cos(a) * v.z)
    }

    /// What the display reads when the base reads `base` and the lid is
    /// open by `hinge` degrees.
    static func display(base: Vector3, hinge: Double) -> Vector3 { turnedAboutHinge(base, by: hinge) }

    /// What the base reads when the display reads `display`.
    static func base(display: Vector3, hinge: Double) -> Vector3 { turnedAboutHinge(display, by: -hinge) }

    /// A laptop on a table: the base flat, keyboard up, the lid open by
    /// `hinge`: the base reads straight down its z axis.
    static func onATable(hinge: Double) -> (display: Vector3, base: Vector3) {
        let base = Vector3(0, 0, g)
        return (display(base: base, hinge: hinge), base)
    }

    /// The display held at a pose (`Pose.gravity`: `away` tilts its top
    /// edge away from the user, `rightDown` lowers its right edge, turning
    /// the hinge towards vertical), the lid open by `hinge`.
    static func held(away: Double, rightDown: Double = 0, hinge: Double) -> (display: Vector3, base: Vector3) {
        let display = Pose.gravity(away: away, rightDown: rightDown)
        return (display, base(display: display, hinge: hinge))
    }

    /// A direction drawn uniformly over the sphere: gravity in the base's
    /// frame for a device turned any way at all (a turn about gravity
    /// changes nothing the sensors read).
    static func anyDirection(_ random: inout SeededRandom) -> Vector3 {
        while true {
            let v = random.gaussianVector(sigma: 1)
            if let unit = v.normalized, v.length > 1e-3 { return unit }
        }
    }

    /// A part's reading of `v`: white noise (`SensorModel.noise`) and its resolution.
    static func read(_ v: Vector3, by part: SensorModel, _ random: inout SeededRandom) -> Vector3 {
        let n = v + random.gaussianVector(sigma: part.noise)
        func quantized(_ x: Double) -> Double { (x / part.scale).rounded() * part.scale }
        return Vector3(quantized(n.x), quantized(n.y), quantized(n.z))
    }

    /// The signed difference `a - b` of two angles, in (-180, 180].
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }
}

/// A person handling a convertible: where the display is held (its pose,
/// in a hand or lying on something) and how far the lid is open, keyframe
/// by keyframe, eased between them as a hand moves (`ease`). In a hand the
/// whole device sways and trembles together (`Hand`); folding turns the
/// display about the hinge, which pushes its sensor, `sensorRadius` from
/// the hinge, along and across the display (the centripetal and tangential
/// acceleration of the fold); each part adds its own noise.
struct FoldingScript {
    struct Keyframe {
        var time: Double
        var hinge: Double
        var away: Double
        var rightDown: Double
        var inHand: Bool

        init(_ time: Double, hinge: Double, away: Double, rightDown: Double = 0, inHand: Bool = true) {
            self.time = time
            self.hinge = hinge
            self.away = away
            self.rightDown = rightDown
            self.inHand = inHand
        }
    }

    var keyframes: [Keyframe]
    var hand = Hand.typical
    var part = SensorModel.kxcjk
    /// How far the display's sensor sits from the hinge, metres.
    var sensorRadius = 0.15

    var duration: Double { keyframes.last!.time }

    private func segment(at t: Double) -> (Keyframe, Keyframe, Double) {
        var i = 0
        while i + 1 < keyframes.count, keyframes[i + 1].time <= t { i += 1 }
        let a = keyframes[i]
        guard i + 1 < keyframes.count else { return (a, a, 0) }
        let b = keyframes[i + 1]
        return (a, b, ease(t, a.time, b.time))
    }

    /// The hinge angle meant at `t`, degrees.
    func hinge(at t: Double) -> Double {
        let (a, b, e) = segment(at: t)
        return a.hinge + (b.hinge - a.hinge) * e
    }

    /// Both readings at `t`, noise-free (`read(at:_:)` adds each part's).
    func exact(at t: Double) -> (display: Vector3, base: Vector3) {
        let (a, b, e) = segment(at: t)
        var away = a.away + (b.away - a.away) * e
        var rightDown = a.rightDown + (b.rightDown - a.rightDown) * e
        if a.inHand {
            let w = hand.wobble(at: t)
            away += w.pitch
            rightDown += w.roll
        }
        let theta = hinge(at: t)
        let gravity = Pose.gravity(away: away, rightDown: rightDown)
        let base = HingedDevice.base(display: gravity, hinge: theta)
        // The fold's own acceleration at the display's sensor, from the
        // hinge angle's rate and its change (numerically, 5 ms apart).
        let h = 0.005
        let omega = (hinge(at: t + h) - hinge(at: t - h)) / (2 * h) * .pi / 180
        let alpha = (hinge(at: t + h) - 2 * theta + hinge(at: t - h)) / (h * h) * .pi / 180
        // Circling the hinge: pulled towards it (-y) by omega^2 r, pushed
        // along the screen's normal by alpha r; a reading shows minus the
        // acceleration.
        let pushed = Vector3(0, omega * omega * sensorRadius, -alpha * sensorRadius)
        return (gravity + pushed, base)
    }

    /// Both readings at `t` through the part.
    func read(at t: Double, _ random: inout SeededRandom) -> (display: Vector3, base: Vector3) {
        let (display, base) = exact(at: t)
        return (HingedDevice.read(display, by: part, &random), HingedDevice.read(base, by: part, &random))
    }
}

/// A detector driven the way the daemon drives it: a pair at the rate it
/// demands (the next one a demanded period after the last, jittered), the
/// posture and phase recorded at each pair.
struct HingeRun {
    var detector = HingePostureDetector()
    /// Each change of posture, at the pair that made it.
    var changes: [(time: Double, to: HingePosture)] = []
    var pairs = 0
    /// Pairs, and seconds, at each demanded rate.
    var pairsAtRate: [Double: Int] = [:]
    var secondsAtRate: [Double: Double] = [:]

    /// Runs from `start` to `end`, reading `pairAt(t)`; the first pair at `start`.
    mutating func run(
        from start: Double = 0, to end: Double, jitter: Double = 0.003, seed: UInt64 = 1,
        pairAt: (Double, inout SeededRandom) -> (display: Vector3, base: Vector3)
    ) {
        var random = SeededRandom(seed: seed)
        var t = start
        while t <= end {
            let (display, base) = pairAt(t, &random)
            if detector.observe(display: display, at: t, base: base, at: t) {
                changes.append((t, detector.posture))
            }
            pairs += 1
            let rate = detector.sampleDemand.rate
            pairsAtRate[rate, default: 0] += 1
            let next = 1 / rate + random.uniform(-jitter...jitter)
            secondsAtRate[rate, default: 0] += next
            t += next
        }
    }
}
