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
///     resting   --lifted--------> lifting   (off the rest pose: a person took it)
///     resting   --moved---------> holding   (off a provisional rest pose, not
///                                            carried: the hand never went)
///     lifting   --settled-------> holding   (held still in the hand 0.3 s)
///     holding   --steadied------> following (two blocks within half the dead zones)
///     following --unsteadied----> holding   (beyond half of one, or 10 deg/s)
///     holding   --jostle-began--> jostled   (JostleMeter)
///     following --jostle-began--> jostled
///     jostled   --jostle-ended--> holding
///
/// Came to rest, three ways, all judged by `StillnessMeter` with thresholds
/// from the sensor's own noise:
///
/// - Put down with a carry: still over the short window, 1.4 s, when the
///   window began within a second of the device being carried out of a
///   hand and it has not been carried since (a put-down lowers the device:
///   its magnitude leaves 1 g by more than `transportG`, 0.07 g, in two
///   samples running, which a tilt in the hand does not reach; the lift of
///   a pick-up, carried from rest, is no put-down).
/// - Let go, with or without a jolt: the hand's sway and tremor are gone.
///   A hand never holds a pose as still as a table, but its sway is slow,
///   so over a short window it now and then moves little; how often
///   depends on the hand and on the part's noise. So the guard learns the
///   hand while it holds the device (`HandSway`: the sway of its quieter
///   moments, per window) and takes a still window for a put-down only
///   when this hand's quiet sway would have stood `shortVisibility` (32)
///   times above that window's noise in the short window, or
///   `mediumVisibility` (16) times in the medium one (2.8 s): beyond
///   those, swaying hands looked still in 3 of some 60,000 medium windows
///   and 6 of some 30,000 short ones (synthetic hands and parts of
///   `Tests/SyntheticMotion`, `Benchmarks/README.md`). On a part whose
///   noise is within about a count (a hub in hundredths of a g), the
///   window's noise and stillness and the hand's sway are all taken with
///   every reading a sample, repeats included (`WindowSums.everyReading`):
///   lying flat it repeats most readings, and counted as none they made
///   its noise seem six to twelve times what it is. Either window must
///   begin within `turnLeadSeconds` of a turn of the device
///   (`StillnessMeter.turnRadians`, 3 degrees in 0.7 s: a hand lays it
///   onto the surface, tips it onto a stand), which confines such a judgement to the moments after a
///   movement; a medium window whose hand stood 64 times above its noise
///   needs no turn (a device let go where it is held). Scrolling stops
///   within 2 s of the hand letting go where the short window decides,
///   within about 3.3 s where the medium one does. Such a rest is
///   provisional for `confirmSeconds`, sampled as a hand held still: off its
///   rest pose without a carry in that time, the hand was there after all
///   (`moved`: holding, the neutral pose unchanged, scrolling resumes).
/// - Still over the long window, 5.6 s, however it got there, as long as
///   nothing jostles it (1.4 s block means smooth a walk's 2 Hz bounce out
///   of the long window's scatter; `JostleMeter` does not miss it): what
///   remains for a hand the guard has not learnt yet, or one too steady
///   for the part's noise (a 10 Hz hub in hundredths of a g).
///
/// Leaving rest: a sample off the rest pose by more than the noise allows
/// (`StillnessMeter.departs`), a block mean likewise, or a sample whose
/// magnitude is off 1 g by more than `transportG`: lying still, nothing but
/// a lift or a knock does that, and a lift does it first, before its tilt
/// stands out of the noise, so one such sample is a carry (on a table, no
/// quick tilt in a hand tears a reading) and the slow resting rate notices
/// a pick-up at its first sample (a keyboard dock's keys ring at a few
/// hundredths of a g and stay below). A table never moves by itself: off
/// a confirmed rest, carried or not, a person took the device (`lifting`),
/// and the pose where it settles in the hand is the neutral one, unless it
/// is within the dead zone of the old one.
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
    /// How long a rest that only the hand's going decided stays provisional.
    static let confirmSeconds = 2.8

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
    /// The sway of the hand that holds the device, learnt while it does
    /// (holding or following), in the short window and in the medium one.
    private(set) var shortHand = HandSway()
    private(set) var mediumHand = HandSway()
    /// How many times a window's noise the hand's quiet sway
    /// (`HandSway.quietQuarter`) must be for the window's stillness to say,
    /// without a carry, that the hand has let go: in the short window, in
    /// the medium one, and in the medium one without a turn.
    static let shortVisibility = 32.0
    static let mediumVisibility = 16.0
    static let unturnedVisibility = 64.0
    /// How soon after a turn (`StillnessMeter.turnRadians`) a still window
    /// must begin for the hand's going to count: the turn ends where the
    /// surface takes the device, and a window that begins within this time
    /// can follow the block that holds the touchdown.
    static let turnLeadSeconds = StillnessMeter.shortSeconds
    /// When the device was last turned (`StillnessMeter.Verdict.turned`).
    private var lastTurn = -Double.infinity

    // The dead zones in force and what follows from them.
    private var deadZone = 4.0
    private var halfDeadZone = 2.0
    private var wakeTilt = 2.0
    private var halfHorizontalDeadZone = 4.0
    private var wakeSideways = 4.0

    /// The block being filled.
    private var blocks = BlockClock()
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
    /// Resting on the hand's going alone: since when; nil otherwise.
    @usableFromInline private(set) var provisionalSince: Double?
    /// Whether the rest is provisional: the engine then samples as it does
    /// a hand held still (`following`), fast enough for the block means to
    /// show the hand's sway coming back, which the resting rate is not.
    @inlinable var isProvisional: Bool { provisionalSince != nil }

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
        provisionalSince = nil
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
        if blocks.closes(at: time) { closeBlock(at: time, tilt: forward, sideways: sidewaysTilt) }
        let radians = rawPitch / MathFunctions.degreesPerRadian
        stillness.add(pitch: radians, sinRoll: sinRoll)
        blocks.add(deviation: JostleMeter.deviation(magnitudeG), at: time)
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

    /// Off the rest pose: a person took it (lifted), unless the rest is
    /// provisional and nothing carried it: then the hand never went
    /// (moved), and the neutral pose stays.
    private mutating func leaveRest(at time: Double) {
        if provisionalSince != nil, time - lastTransport > Self.transportLeadSeconds {
            apply(.moved)
        } else {
            apply(.lifted)
        }
    }

    /// Closes the block at `time`; `forward` and `sideways` are the tilts
    /// from neutral of the sample that closes it, degrees.
    private mutating func closeBlock(at time: Double, tilt forward: Double, sideways: Double) {
        guard let (start, magnitude) = blocks.close(at: time) else { return }  // the first block opens
        let seconds = time - start
        // The short and medium windows matter whenever the device is not
        // resting (a put-down, the hand's sway), the long one only while
        // nothing jostles: judge them only then.
        let verdict = stillness.closeBlock(
            started: start, at: time, magnitude: magnitude, judgeShort: motion != .resting,
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
        var provisional = false
        if let s = verdict.shortStill {
            // Carried just before the window (or in its first block: the touchdown), not since.
            if lastCarriedFromHand >= s.since - Self.transportLeadSeconds,
                lastCarriedFromHand <= s.since + StillnessMeter.blockSeconds
            {
                still = s
            }
        }
        // Where the hand's going decides, a block mean departs from the rest
        // pose only by half the hand's quiet sway (in amplitude): the
        // still window may end a slow turn onto the surface, and its mean
        // lie off the pose by what noise can hide, which a table's next
        // blocks would take for a departure; the hand's sway, back, goes
        // further.
        var handDeparture = 0.0
        if still == nil, let gone = handGone(verdict) {
            still = gone.window
            provisional = true
            handDeparture = gone.quietSway / 2
        }
        if verdict.turned { lastTurn = time }
        if motion == .holding || motion == .following {
            // The hand as it holds the device, not as it turns it: a window
            // that holds a turn, or the block after one, is a movement.
            let calm = lastTurn + StillnessMeter.blockSeconds
            if let sway = verdict.shortSway, sway.since >= calm { shortHand.add(max(sway.excess, 0)) }
            if let sway = verdict.mediumSway, sway.since >= calm { mediumHand.add(max(sway.excess, 0)) }
        }
        let cameToRest = still != nil && motion != .resting
        if cameToRest, let s = still {
            stillness.settle(at: s.pose, variance: s.variance, blockDeparture: handDeparture)
            // A provisional rest keeps the hand: it may turn out there.
            if !provisional {
                shortHand.forget()
                mediumHand.forget()
            }
        }
        steadyCloses = abs(forward) <= halfDeadZone && abs(sideways) <= halfHorizontalDeadZone ? steadyCloses + 1 : 0
        if verdict.departed, motion == .resting {
            leaveRest(at: time)
        } else if let since = provisionalSince, time - since >= Self.confirmSeconds {
            provisionalSince = nil
            shortHand.forget()
            mediumHand.forget()
        }
        if cameToRest {
            apply(.cameToRest)
            if provisional { provisionalSince = time }
        }
        if jostleChanged { apply(jostle.isJostled ? .jostleBegan : .jostleEnded) }
        if steadyCloses >= 2, !jostle.isJostled { apply(.steadied) }
    }

    /// A still window that the hand holding the device would not have left
    /// so still (see the type's comment), and that hand's quiet sway
    /// (squared radians); nil if there is none. Always inlined: called out
    /// of line from a mutating method, it made the compiler copy the whole
    /// guard first (2,745 bytes, about 17 instructions a sample).
    @inline(__always)
    private func handGone(_ verdict: StillnessMeter.Verdict) -> (window: StillnessMeter.Still, quietSway: Double)? {
        if let s = verdict.shortStill, let sway = verdict.shortSway, sway.stillByNoise,
            s.since - lastTurn <= Self.turnLeadSeconds, let quiet = shortHand.quietQuarter,
            quiet >= Self.shortVisibility * sway.noise
        {
            return (s, quiet)
        }
        if let s = verdict.mediumStill, let sway = verdict.mediumSway, sway.stillByNoise,
            let quiet = mediumHand.quietQuarter
        {
            let turned = s.since - lastTurn <= Self.turnLeadSeconds
            if quiet >= (turned ? Self.mediumVisibility : Self.unturnedVisibility) * sway.noise { return (s, quiet) }
        }
        return nil
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
        blocks = BlockClock()
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
