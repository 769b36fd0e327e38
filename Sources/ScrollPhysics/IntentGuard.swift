/// Whether the person means to scroll: the state of the `IntentGuard`, in
/// the readout and the logs by `name`.
public enum IntentState: Equatable, Sendable, CaseIterable, CustomStringConvertible {
    /// In a hand, tilted or moving: tilt scrolls.
    case holding
    /// In a hand, held within half the dead zone: nothing scrolls and the
    /// neutral pose follows a slow drift (a slump), so that no drift ever
    /// reaches the dead zone's edge. Needs fewer samples.
    case following
    /// Carried while walking or riding: the transfer curve sees the pitch
    /// through a further low-pass (`IntentGuard.jostledPitch`), so the wobble
    /// of a walk does not scroll and a deliberate tilt still does, a little
    /// later.
    case jostled
    /// Lying still on something (a table, a stand, a keyboard dock): nothing
    /// scrolls, whatever the pose. Needs samples only to notice a pick-up.
    case resting
    /// Picked up after resting: nothing scrolls until it is held still in the
    /// hand (`NeutralPose` settling); then that pose is the neutral one,
    /// unless it is within the dead zone of the old one, which stays.
    case lifting
    /// A finger or pen is on the screen (`PauseOnTouch`): nothing scrolls.
    case touched

    /// `*_to_str` for logs.
    public var name: String {
        switch self {
        case .holding: "holding"
        case .following: "following"
        case .jostled: "jostled"
        case .resting: "resting"
        case .lifting: "lifting"
        case .touched: "touched"
        }
    }

    public var description: String { name }

    /// Whether a tilt may scroll in this state.
    public var allowsScrolling: Bool {
        switch self {
        case .holding, .jostled: true
        case .following, .resting, .lifting, .touched: false
        }
    }
}

/// Tells a hand from a table, a deliberate tilt from a drift or a walk, and
/// a finger on the screen from a tilt: the state machine between the
/// smoothed pose and the transfer curve.
///
///     holding   --came-to-rest--> resting   (StillnessMeter)
///     following --came-to-rest--> resting
///     jostled   --came-to-rest--> resting
///     lifting   --came-to-rest--> resting
///     resting   --lifted--------> lifting   (off the rest pose, carried)
///     resting   --moved---------> holding   (off the rest pose, not carried
///                                            then nor within 0.35 s, from
///                                            inside the dead zone)
///     lifting   --settled-------> holding   (held still in the hand 0.3 s)
///     holding   --steadied------> following (two blocks within half the dead zones)
///     following --unsteadied----> holding   (beyond half of one, or 10 deg/s)
///     holding   --jostle-began--> jostled   (JostleMeter)
///     following --jostle-began--> jostled
///     jostled   --jostle-ended--> holding
///
/// Came to rest: still (`StillnessMeter`, thresholds from the sensor's own
/// noise) over its short window, 1.4 s, when the window began within a
/// second of the device being carried out of a hand and it has not been
/// carried since (a put-down lowers the device: its magnitude leaves 1 g by
/// more than `transportG`, 0.07 g, in two samples running, which a tilt in
/// the hand does not reach;
/// the lift of a pick-up, carried from rest, is no put-down); or still
/// over the long window, 5.6 s, however it got there, as long as nothing
/// jostles it (1.4 s block means smooth a walk's 2 Hz bounce out of the
/// long window's scatter; `JostleMeter` does not miss it). The long window
/// is what a steady hand needs on a noisy or coarse part not to be taken for
/// a table; a put-down gets the short one, so scrolling stops within 2 s.
///
/// Leaving rest: a sample off the rest pose by more than the noise allows
/// (`StillnessMeter.departs`), or one whose magnitude is off 1 g by more
/// than `transportG`: lying still, nothing but a lift or a knock does that,
/// and a lift does it first, before its tilt stands out of the noise, so
/// one such sample is a carry (on a table, no quick tilt in a hand tears a
/// reading) and the slow resting rate notices a pick-up at its first sample
/// (a keyboard dock's keys ring at a few hundredths of a g and stay below).
/// Carried (lifted) it is a pick-up, `lifting`. Off the rest pose without
/// a carry, from a rest pose inside the dead zone, it waits `decideSeconds`
/// at the full rate, still resting (nothing scrolls): the first resting
/// sample of a lift may come after its acceleration (a lift eases in and
/// out, and a resting period is a good part of it), and then the carry
/// shows at the lift's end. Carried within that time, `lifting`; if not,
/// `moved`: it was a hand held very still after all (or a nudge that
/// changes nothing), and the neutral pose stays. From a rest pose outside
/// the dead zone it is `lifting` either way: no nudge of a device lying
/// tilted ever restarts scrolling.
///
/// A contact on the screen is a layer over these: while touched (with
/// `PauseOnTouch`) the state reads `touched` and nothing scrolls; the
/// machine underneath goes on, so a device picked up by its screen is
/// `lifting` when the finger lifts.
///
/// Jostled: the pitch the transfer curve sees passes two more first-order
/// low-passes of 0.25 s each (about 0.5 s of lag): a walk's wobble at the
/// step cadence (1.9 Hz) keeps a tenth of its amplitude, at the stride
/// frequency (0.95 Hz) a third, and the apparent tilt of the fore-and-aft
/// swing of the hand goes with it; a deliberate tilt comes through whole,
/// half a second later.
///
/// Following: each 0.35 s block, the neutral pose moves towards the smoothed
/// pose by blockSeconds / (4 s + blockSeconds) of the difference while the
/// difference is within a quarter of the dead zone, tapering to nothing at
/// half of it. The fastest drift it follows is thus a quarter of the dead
/// zone per 4 s (0.25 deg/s with the default 4 degrees): a slump of 6
/// degrees a minute (0.1 deg/s) is followed with a lag of 0.4 degrees, while
/// a tilt across the dead zone within about 2 s (2 deg/s and more) leaves
/// the follower behind at once and scrolls as before.
@usableFromInline
struct IntentGuard: Equatable, Sendable {
    enum Event: Equatable, Sendable, CaseIterable, CustomStringConvertible {
        case cameToRest
        case lifted
        case moved
        case settled
        case steadied
        case unsteadied
        case jostleBegan
        case jostleEnded

        var name: String {
            switch self {
            case .cameToRest: "came-to-rest"
            case .lifted: "lifted"
            case .moved: "moved"
            case .settled: "settled"
            case .steadied: "steadied"
            case .unsteadied: "unsteadied"
            case .jostleBegan: "jostle-began"
            case .jostleEnded: "jostle-ended"
            }
        }

        var description: String { name }
    }

    /// The transitions, written out; nil where an event does not apply.
    static func next(after state: IntentState, on event: Event) -> IntentState? {
        switch (state, event) {
        case (.holding, .cameToRest), (.following, .cameToRest), (.jostled, .cameToRest), (.lifting, .cameToRest):
            .resting
        case (.resting, .lifted): .lifting
        case (.resting, .moved): .holding
        case (.lifting, .settled): .holding
        case (.holding, .steadied): .following
        case (.following, .unsteadied): .holding
        case (.holding, .jostleBegan), (.following, .jostleBegan): .jostled
        case (.jostled, .jostleEnded): .holding
        default: nil
        }
    }

    /// Time constant of the neutral following a drift, seconds.
    static let followSeconds = 4.0
    /// Departure of the magnitude from its slow mean that counts as being
    /// carried, g: a put-down lowers the device at 0.1-0.3 g, a tilt in the
    /// hand stays within a few hundredths, the noisiest part's noise is 6 mg
    /// (physical, like `JostleMeter.onG`, and for the same reason).
    static let transportG = 0.07
    /// How long before a still window began a transport makes it a put-down.
    static let transportLeadSeconds = 1.0
    /// Angular speed of the pitch that ends `following` at once (a
    /// deliberate tilt starts faster than this; sway stays below 4 deg/s), as
    /// long as it is more than the sensor's noise can make from one sample
    /// to the next.
    static let wakeDegreesPerSecond = 10.0
    /// How long a departure from rest without a carry waits for one before
    /// it is taken for a still hand: a lift of 0.8 s eased in and out keeps
    /// its magnitude within `transportG` of 1 g from 0.28 to 0.52 s into
    /// it, so a carry follows any departure within 0.3 s. A still hand
    /// taken for a table pays it once, when it tilts again.
    static let decideSeconds = 0.35

    /// The state of the machine under the touch layer.
    private(set) var motion = IntentState.holding {
        didSet { refreshState() }
    }
    private(set) var touching = false {
        didSet { refreshState() }
    }
    private(set) var pauseOnTouch = true {
        didSet { refreshState() }
    }
    /// What the readout and the scroll gate see (kept stored: asked every sample).
    @usableFromInline private(set) var state = IntentState.holding
    private(set) var allowsScrolling = true

    private mutating func refreshState() {
        state = touching && pauseOnTouch ? .touched : motion
        allowsScrolling = state.allowsScrolling
    }

    private(set) var stillness = StillnessMeter()
    private(set) var jostle = JostleMeter()

    // The dead zones in force and what follows from them.
    private var deadZone = 4.0
    private var halfDeadZone = 2.0
    private var wakeTilt = 2.0
    private var halfHorizontalDeadZone = 4.0
    private var wakeSideways = 4.0

    // The block being filled: when it began and is due to close, and the
    // magnitudes of its samples (`JostleMeter.deviation`).
    private var blockStart = -Double.infinity
    private var blockEnd = -Double.infinity
    private var magnitudes = Moments()
    private var lastSampleTime = -Double.infinity
    /// How many block closes in a row found the tilt within half the dead zone.
    private var steadyCloses = 0
    /// While following: the previous sample's pitch (as read, continuous) and time.
    private var previousPitch: (value: Double, time: Double)?
    /// A change of the pitch as read between two samples that is more than
    /// the sensor's noise makes but for one sample in 370 (3 sqrt 2 times
    /// its noise, degrees): a false wake costs 0.7 s at the full rate, a late
    /// one the onset of a tilt.
    private var wakeNoiseDegrees = 0.0
    /// When the device was last carried (see `transportG`).
    private var lastTransport = -Double.infinity
    /// Whether the previous accepted sample's magnitude was off by more
    /// than `transportG`. A carry shows in a run of samples (a put-down's
    /// 0.8 s puts three in a row beyond it even at 10 Hz); one sample
    /// alone is a reading torn between two poses (a part whose axes are
    /// read one by one, 34 ms apart on a slow bus, during a quick tilt),
    /// and taken for a put-down it let a hand's next 1.4 s pass for a table.
    private var offMagnitude = false
    /// When it was last carried out of a hand (holding, following or
    /// jostled): only such a carry can be a put-down. The lift of a
    /// pick-up is a carry too, and a hand held still right after it can
    /// show no more than a table does on a coarse part (a hub's 10 mg steps
    /// are 0.57 degrees, more than a second of sway moves): were it a
    /// put-down, the short window would take the hand for a table.
    private var lastCarriedFromHand = -Double.infinity
    /// The tilt from neutral where the device came to rest, degrees.
    private var restTilt = 0.0
    /// Resting, off the rest pose without a carry: since when it waits for
    /// one (`decideSeconds`); nil otherwise.
    @usableFromInline private(set) var undecidedSince: Double?
    /// Whether the engine should sample at its full rate whatever the
    /// state: while a departure from rest waits for a carry.
    @inlinable var wantsFullRate: Bool { undecidedSince != nil }

    /// How far the neutral pose should move to follow a drift, degrees
    /// (pitch, roll), and whether it should at all; the engine applies and
    /// clears both (`takeNeutralShift()`).
    private(set) var neutralShift = (pitch: 0.0, roll: 0.0)
    private(set) var hasNeutralShift = false

    mutating func takeNeutralShift() -> (pitch: Double, roll: Double) {
        let shift = neutralShift
        neutralShift = (0, 0)
        hasNeutralShift = false
        return shift
    }

    init() {}

    @usableFromInline
    static func == (a: IntentGuard, b: IntentGuard) -> Bool {
        a.motion == b.motion && a.touching == b.touching && a.stillness == b.stillness && a.jostle == b.jostle
    }

    /// Time constant of each of the two low-passes while jostled, seconds.
    static let jostledSeconds = 0.25
    /// The two low-passes, and the time of their last sample.
    private var jostledStages: (first: Double, second: Double, time: Double)?

    /// While jostled, the pitch the transfer curve should see instead of the
    /// smoothed one; nil otherwise.
    var jostledPitch: Double? { motion == .jostled ? jostledStages?.second : nil }

    mutating func configure(deadZoneDegrees: Double, horizontalDeadZoneDegrees: Double, pauseOnTouch: Bool) {
        deadZone = deadZoneDegrees
        halfDeadZone = deadZoneDegrees / 2
        wakeTilt = deadZoneDegrees / 2
        halfHorizontalDeadZone = horizontalDeadZoneDegrees / 2
        wakeSideways = horizontalDeadZoneDegrees / 2
        self.pauseOnTouch = pauseOnTouch
    }

    /// The sensor's resolution, m/s^2 per count (0 or less: unknown): one
    /// count moves the angles by up to resolution / g.
    mutating func setResolution(_ metersPerSecondSquared: Double) {
        guard metersPerSecondSquared.isFinite, metersPerSecondSquared > 0 else {
            stillness.quantizationVariance = StillnessMeter.unknownResolutionVariance
            return
        }
        let angle = metersPerSecondSquared / standardGravity
        stillness.quantizationVariance = max(angle * angle / 12, StillnessMeter.unknownResolutionVariance)
    }

    private mutating func apply(_ event: Event) {
        guard let to = Self.next(after: motion, on: event) else { return }
        motion = to
        undecidedSince = nil
        if to != .jostled { jostledStages = nil }
        if to == .following { previousPitch = nil }
        if to != .resting, stillness.rest != nil { stillness.leaveRest() }
    }

    /// One accepted sample: its pitch (degrees, continuous), the sine of its
    /// roll, and its magnitude in g; `pitch` is the smoothed pitch
    /// (continuous), `tilt` its distance from the neutral pose and
    /// `sidewaysTilt` the smoothed roll's (0 without horizontal scrolling),
    /// degrees.
    @inline(__always)
    mutating func observe(
        rawPitch: Double, sinRoll: Double, magnitudeG: Double, pitch: Double, tilt forward: Double,
        sidewaysTilt: Double, at time: Double
    ) {
        if time >= blockEnd { closeBlock(at: time, tilt: forward, sideways: sidewaysTilt) }
        lastSampleTime = time
        let radians = rawPitch / MathFunctions.degreesPerRadian
        stillness.add(pitch: radians, sinRoll: sinRoll)
        magnitudes.add(JostleMeter.deviation(magnitudeG))
        let off = abs(magnitudeG - jostle.slowMagnitudeG) > Self.transportG
        if off, offMagnitude {
            lastTransport = time
            if motion != .resting, motion != .lifting { lastCarriedFromHand = time }
        }
        offMagnitude = off
        switch motion {
        case .resting, .following, .jostled:
            watch(
                rawPitch: rawPitch, radians: radians, sinRoll: sinRoll, magnitudeOff: off, pitch: pitch,
                tilt: forward, sidewaysTilt: sidewaysTilt, at: time)
        case .holding, .lifting, .touched:
            break  // they change only when a block closes
        }
    }

    /// What resting, following and jostled look at in every sample (the
    /// arguments of `observe`, and the raw pitch in radians).
    ///
    /// Out of line, so that `observe` stays small enough for Swift's
    /// performance inliner to inline it into `ScrollEngine.accept` (it
    /// always-inlines a callee of at most 64 blocks into a large caller and
    /// weighs cost against benefit above that); when `observe` was not
    /// inlined, its call and spills cost 22 instructions a sample
    /// (Benchmarks/physics-bench.sh). The states that need this are the
    /// ones sampled slowly, or briefly.
    @inline(never)
    private mutating func watch(
        rawPitch: Double, radians: Double, sinRoll: Double, magnitudeOff: Bool, pitch: Double,
        tilt forward: Double, sidewaysTilt: Double, at time: Double
    ) {
        switch motion {
        case .resting:
            if magnitudeOff {
                // Lying still, the magnitude leaves 1 g only when the device
                // is lifted or knocked, and a lift does that first, before it
                // tilts the device enough to show: one sample is a carry here
                // (no hand tilts it quickly enough to tear a reading).
                lastTransport = time
                leaveRest(at: time)
            } else if let since = undecidedSince {
                if time - since >= Self.decideSeconds { apply(.moved) }
            } else if stillness.departs(pitch: radians, sinRoll: sinRoll) {
                leaveRest(at: time)
            }
        case .following:
            // The pitch as read, not smoothed: at a quarter rate the filter's
            // lag would cost the onset of a tilt a sample.
            if let p = previousPitch,
                abs(rawPitch - p.value) > max(Self.wakeDegreesPerSecond * (time - p.time), wakeNoiseDegrees)
            {
                apply(.unsteadied)
            } else if abs(forward) > wakeTilt || abs(sidewaysTilt) > wakeSideways {
                apply(.unsteadied)
            } else {
                previousPitch = (rawPitch, time)
            }
        case .jostled:
            lowPass(pitch, at: time)
        case .holding, .lifting, .touched:
            break
        }
    }

    private mutating func lowPass(_ pitch: Double, at time: Double) {
        guard let s = jostledStages, time - s.time < 1 else {
            jostledStages = (pitch, pitch, time)
            return
        }
        let dt = time - s.time
        guard dt > 0 else { return }
        let k = dt / (Self.jostledSeconds + dt)
        let first = s.first + k * (pitch - s.first)
        jostledStages = (first, s.second + k * (first - s.second), time)
    }

    /// A sample with finite components that is not gravity: resting, the
    /// device was knocked or lifted. Otherwise it tells nothing the accepted
    /// samples around it do not (a walk or a ride shows in them too), and a
    /// part that glitches now and then must not pass for a walk.
    mutating func observeRejected(at time: Double) {
        if motion == .resting { leaveRest(at: time) }
    }

    /// Off the rest pose: lifted if carried (or lying outside the dead
    /// zone); otherwise it waits for a carry at the full rate, and without
    /// one it is a still hand moving again (`watch`).
    private mutating func leaveRest(at time: Double) {
        if time - lastTransport <= Self.transportLeadSeconds || abs(restTilt) > deadZone {
            apply(.lifted)
        } else if undecidedSince == nil {
            undecidedSince = time
        }
    }

    /// Closes the block at `time`; `forward` and `sideways` are the tilts
    /// from neutral of the sample that closes it, degrees.
    private mutating func closeBlock(at time: Double, tilt forward: Double, sideways: Double) {
        let start = blockStart
        let magnitude = magnitudes
        // The next block ends half a sample interval short of its length, so
        // that it holds `blockSeconds` of samples on average at any rate.
        let interval = lastSampleTime.isFinite ? min(time - lastSampleTime, StillnessMeter.blockSeconds) : 0
        blockStart = time
        blockEnd = time + StillnessMeter.blockSeconds - interval / 2
        magnitudes = Moments()
        guard start.isFinite, time > start else { return }  // the first block opens
        let seconds = time - start
        // The short window only matters right after a transport, the long
        // one only while nothing jostles: judge them only then.
        let verdict = stillness.closeBlock(
            started: start, at: time, magnitude: magnitude,
            judgeShort: time - lastCarriedFromHand
                <= StillnessMeter.shortSeconds + Self.transportLeadSeconds + seconds,
            judgeLong: !jostle.isJostled)
        let jostleChanged = jostle.closeBlock(magnitude, seconds: seconds, at: time)
        // The noise floor, or until there is one the noise of the short window.
        var noise = stillness.noiseFloor
        if !noise.isFinite { noise = stillness.noiseVariance ?? 0 }
        wakeNoiseDegrees = 3 * 2.0.squareRoot() * noise.squareRoot() * MathFunctions.degreesPerRadian
        if motion == .following {
            let alpha = seconds / (Self.followSeconds + seconds)
            neutralShift.pitch += alpha * Self.followGain(mean: forward, half: halfDeadZone)
            neutralShift.roll += alpha * Self.followGain(mean: sideways, half: halfHorizontalDeadZone)
            hasNeutralShift = neutralShift.pitch != 0 || neutralShift.roll != 0
        }
        var still = verdict.longStill
        // Carried just before the window (or in its first block: the touchdown), not since.
        if let s = verdict.shortStill, lastCarriedFromHand >= s.since - Self.transportLeadSeconds,
            lastCarriedFromHand <= s.since + StillnessMeter.blockSeconds
        {
            still = s
        }
        let cameToRest = still != nil && motion != .resting
        if cameToRest, let s = still {
            stillness.settle(at: s.pose, variance: s.variance)
            restTilt = forward
        }
        steadyCloses = abs(forward) <= halfDeadZone && abs(sideways) <= halfHorizontalDeadZone ? steadyCloses + 1 : 0
        if verdict.departed, motion == .resting { leaveRest(at: time) }
        if cameToRest { apply(.cameToRest) }
        if jostleChanged { apply(jostle.isJostled ? .jostleBegan : .jostleEnded) }
        if steadyCloses >= 2, !jostle.isJostled { apply(.steadied) }
    }

    /// A tilt, weighted down from a quarter of the dead zone to nothing at
    /// half of it (a tilt on its way out is no drift).
    private static func followGain(mean: Double, half: Double) -> Double {
        guard half > 0 else { return 0 }
        let size = abs(mean)
        if size <= half / 2 { return mean }
        if size >= half { return 0 }
        return mean * (half - size) / (half / 2)
    }

    /// The device settled in the hand after a pick-up (the engine saw the
    /// neutral pose settle).
    mutating func settled() { apply(.settled) }

    /// The pitch is measured in a new frame (a rotation): the jostled
    /// low-pass starts again.
    mutating func forgetPitch() { jostledStages = nil }

    /// A finger or pen touched the screen, or the last one lifted.
    mutating func touch(_ touching: Bool) { self.touching = touching }

    /// A gap in the data or a new frame of reference: stillness must be
    /// shown again. The low-pass of a jostled pitch rides through a gap of
    /// rejected samples (a bump), being what bridges them; after a second
    /// without samples it starts again.
    mutating func forgetRun() {
        stillness.forgetWindows()
        previousPitch = nil
        blockStart = -Double.infinity
        blockEnd = -Double.infinity
        lastSampleTime = -Double.infinity
        magnitudes = Moments()
        steadyCloses = 0
        offMagnitude = false
    }

    /// Start over (device lost, deactivation), keeping the settings, the
    /// resolution, what was learnt of the noise, and the touch layer.
    mutating func reset() {
        var kept = IntentGuard()
        kept.stillness = stillness
        kept.stillness.reset()
        kept.pauseOnTouch = pauseOnTouch
        kept.touching = touching  // a finger on the screen stays there when the sensor goes
        (kept.deadZone, kept.halfDeadZone, kept.wakeTilt, kept.halfHorizontalDeadZone, kept.wakeSideways) =
            (deadZone, halfDeadZone, wakeTilt, halfHorizontalDeadZone, wakeSideways)
        self = kept
    }
}
