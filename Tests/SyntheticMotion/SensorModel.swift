import ScrollPhysics

/// An accelerometer part as synthetic traces model it: resolution, white
/// noise, sample rate and timing jitter.
///
/// A device lying on a table shows only its sensor's noise, "a few mg rms,
/// per part" (field notes): the parts below span that range and the
/// resolutions the real-kernel testbed records (kxcjk-1013: 0.019163 m/s^2
/// per count; the HID sensor hub: 0.0980665, a hundredth of a g, coarse
/// enough to hide a hand's tremor).
public struct SensorModel: Equatable, Sendable, CustomStringConvertible {
    public var name: String
    /// m/s^2 per count (the IIO `in_accel_scale`).
    public var scale: Double
    /// Standard deviation of the white noise on each axis, m/s^2, before
    /// quantization.
    public var noise: Double
    /// Samples per second.
    public var rate: Double
    /// Each sample's time stamp is off its grid by up to this many seconds
    /// (uniform), as a polling loop or a hub's report clock is.
    public var jitter: Double

    public init(name: String, scale: Double, noise: Double, rate: Double = 50, jitter: Double = 0.001) {
        self.name = name
        self.scale = scale
        self.noise = noise
        self.rate = rate
        self.jitter = jitter
    }

    public var description: String { name }

    /// 12 bits over +-2 g (1 mg per count), 2 mg rms noise.
    public static let fine = SensorModel(name: "12-bit-2mg", scale: 0.009582, noise: 0.0196)
    /// The kxcjk-1013's resolution (2 mg per count), 3 mg rms noise.
    public static let kxcjk = SensorModel(name: "kxcjk-3mg", scale: 0.019163, noise: 0.0294)
    /// A HID sensor hub: a hundredth of a g per count, 3 mg rms noise under it.
    public static let hidHub = SensorModel(name: "hid-hub-3mg", scale: 0.0980665, noise: 0.0294)
    /// The same hub reporting at 10 Hz.
    public static let hidHub10Hz = SensorModel(
        name: "hid-hub-10hz", scale: 0.0980665, noise: 0.0294, rate: 10, jitter: 0.003)
    /// A noisy part: 14 bits over +-2 g, 6 mg rms noise.
    public static let noisy = SensorModel(name: "14-bit-6mg", scale: 0.0023942, noise: 0.0588)

    /// The parts property tests run over.
    public static let parts: [SensorModel] = [.fine, .kxcjk, .hidHub, .noisy]
}

/// A scripted session seen through one sensor part: raw counts at the
/// times a reader asks for them, with the part's noise and resolution.
public struct SyntheticSensor: Sendable {
    public var script: MotionScript
    public var model: SensorModel
    private var random: SeededRandom

    public init(script: MotionScript, model: SensorModel, seed: UInt64) {
        self.script = script
        self.model = model
        random = SeededRandom(seed: seed)
    }

    /// The raw reading (counts, as `in_accel_*_raw` gives them) at `time`.
    public mutating func raw(at time: Double) -> Vector3 {
        let a = script.acceleration(at: time)
        let n = model.noise
        let noisy = a + random.gaussianVector(sigma: n)
        let s = model.scale
        return Vector3((noisy.x / s).rounded(), (noisy.y / s).rounded(), (noisy.z / s).rounded())
    }

    /// The reading at `time` in m/s^2, as the daemon feeds it (raw times scale).
    public mutating func acceleration(at time: Double) -> Vector3 { raw(at: time) * model.scale }

    /// The whole script sampled at the part's rate (times jittered, rounded
    /// to the microsecond, never decreasing), as a trace, with the script's
    /// contacts as touch lines.
    public mutating func trace() -> Trace {
        var raw: [(time: Double, raw: Vector3)] = []
        let period = 1 / model.rate
        var i = 0
        var last = -Double.infinity
        while Double(i) * period <= script.duration + 1e-9 {
            var t = Double(i) * period
            i += 1
            if model.jitter > 0 { t += random.uniform(-model.jitter...model.jitter) }
            t = max(((t * 1_000_000).rounded() / 1_000_000), last, 0)
            last = t
            raw.append((t, self.raw(at: t)))
        }
        let touches = script.contacts.sorted { $0.lowerBound < $1.lowerBound }.flatMap { c in
            [Trace.Touch(time: c.lowerBound, touching: true), Trace.Touch(time: c.upperBound, touching: false)]
        }
        return Trace(scale: Vector3(model.scale, model.scale, model.scale), raw: raw, touches: touches)
    }
}
