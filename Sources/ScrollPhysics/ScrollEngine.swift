/// Tilt in, wheel frames out: the whole scroll physics behind one value type.
///
///     sample -> time and 1 g checks -> orientation (edge up) -> pitch/roll in
///     the user's frame -> 1-euro filter -> minus neutral -> gesture guard ->
///     intent guard (hand or table, drift, walk, touch) -> transfer curve
///     (target speed) -> acceleration limit / inertia (speed) -> exact
///     integral -> hi-res accumulator -> frame on the output clock
///
/// Pure: no I/O, no clock, no allocation after `init`. Time is passed in as
/// seconds on one monotonic clock (CLOCK_BOOTTIME in the daemon, so that a
/// suspend counts as time passing).
///
/// Its parts, each with its own tests: the pose (`OrientationTracker`,
/// `NeutralPose`, two `OneEuroFilter`s), the `GestureGuard`, the
/// `IntentGuard` (with its `StillnessMeter` and `JostleMeter`), the
/// `DataFreshness`, one `AxisChannel` per wheel axis, and the `OutputClock`.
///
/// How the daemon drives it, one `poll()` loop, every call with the time it
/// is about (a sample's time stamp, or now):
///
///     setSensorResolution(in_accel_scale)     // once per sensor: the noise floor's floor
///     feed(sample, at: t)                     // every sample, accepted or not
///     touch(true, at: now)                    // the first touchscreen or pen contact began
///     touch(false, at: now)                   // the last one lifted
///     // on every wake-up (samples, touches, the timer), at `now`:
///     if isFrameDue(at: now), let frame = frame(at: now) { write it to uinput }
///     // then:
///     arm the timer for frameDeadline (nil: no timer at all)
///     run the sensor, or the polling, at sampleDemand.rate (or faster)
///     log readout.intent by name when it changes (resting, following, touched, ...)
///
/// `frameDeadline` lies beyond the next sample while the sensor is at least
/// about as fast as the output (50 Hz against 60): the samples' wake-ups
/// carry the frames, one wake-up per frame while scrolling. A loop that arms
/// its timer for `nextFrameTime` instead, and takes a frame only when that
/// is due, gets frames on the regular output clock as before; frames sum to
/// the same distance either way (conservation). `sampleDemand` drops to
/// 2.5 Hz while the device rests and to a quarter of the configured rate
/// while it is held still inside the dead zone; the engine judges staleness
/// by the rate actually delivered, so a daemon that ignores the demand is
/// served as well, at its own cost.
///
/// Direction contract: tilting the top edge of the display away from the user
/// (towards lying face up) scrolls towards the end of the document, which is
/// negative `REL_WHEEL_HI_RES`; towards the user is positive; in every
/// orientation, since the angle is measured about the horizontal axis of the
/// edge that is up. Held still at neutral or inside the dead zone there are
/// no frames and no timer at all.
public struct ScrollEngine: Sendable {
    /// The settings in force, as sanitized from the ones given.
    public private(set) var settings: ScrollSettings

    // Derived from the settings.
    private var limits: MotionLimits

    // Pose.
    @usableFromInline
    var tracker: OrientationTracker
    /// The orientation whose user frame the filters and `neutralAngles` are in.
    private var frameOrientation: ScreenOrientation
    private var neutralPose = NeutralPose()
    private var neutralAngles = PoseAngles(pitch: 0, roll: 0)
    private var raw = RawPose()
    private var pitchFilter: OneEuroFilter
    /// Runs only while horizontal scrolling is on; otherwise nothing needs a smoothed roll.
    private var rollFilter: OneEuroFilter
    private var lastGravity: Vector3?
    private var gesture = GestureGuard()
    /// `@usableFromInline`, like `clock`: the questions a loop asks on every
    /// wake-up (`intentState`, `sampleDemand`, `frameDeadline`, ...) are
    /// always inlined into it, since as calls into this module each made
    /// the caller copy the whole engine first (2,640 bytes, most of it the
    /// intent guard's history; the daemon's
    /// loop did it three times a wake-up). `@inlinable` alone left them
    /// calls there.
    @usableFromInline
    var intent = IntentGuard()

    // Motion and output.
    private var vertical: AxisChannel
    private var horizontal: AxisChannel
    private var freshness: DataFreshness
    @usableFromInline
    var clock: OutputClock
    /// Motion has been integrated up to here.
    private var motionTime: Double?
    private var verdict = SampleVerdict.none
    private var lastMagnitudeG = 0.0

    /// A stale stop takes at most this long, whatever the speed (the promise is 250 ms).
    public static let staleStopSeconds = 0.2
    /// How long a run of rejected samples may last before the data counts as stale.
    public static let rejectionHoldSeconds = DataFreshness.rejectionHoldSeconds
    /// Beyond this sideways tilt (75 degrees, by its sine) the device is
    /// near a pole of the user's frame, where forward tilt is undefined.
    static let poleRollSine = 0.9659258262890683

    public init(settings: ScrollSettings) {
        let s = settings.sanitized()
        self.settings = s
        let placeholder = TransferCurve(deadZoneDegrees: 0, maxTiltDegrees: 1, exponent: 1, maxSpeed: 0)
        vertical = AxisChannel(curve: placeholder)
        horizontal = AxisChannel(curve: placeholder)
        limits = MotionLimits(acceleration: 1)
        clock = OutputClock(period: 1)
        freshness = DataFreshness(period: 1)
        tracker = OrientationTracker(setting: s.orientation)
        frameOrientation = tracker.orientation
        pitchFilter = OneEuroFilter(minCutoff: s.smoothingMinCutoff, beta: s.smoothingBeta)
        rollFilter = pitchFilter
        derive(from: s)
        requestSamples()
    }

    private mutating func derive(from s: ScrollSettings) {
        vertical.curve = TransferCurve(
            deadZoneDegrees: s.deadZoneDegrees, maxTiltDegrees: s.maxTiltDegrees, exponent: s.curve,
            maxSpeed: s.speed)
        horizontal.curve = TransferCurve(
            deadZoneDegrees: s.horizontalDeadZoneDegrees, maxTiltDegrees: s.maxTiltDegrees, exponent: s.curve,
            maxSpeed: s.speed)
        limits = MotionLimits(settings: s)
        clock.period = 1 / s.outputRate
        freshness.longestPeriod = max(1 / s.sampleRate, 1 / Self.restingSampleRate)
        gesture.configure(for: s)
        intent.configure(
            deadZoneDegrees: s.deadZoneDegrees, horizontalDeadZoneDegrees: s.horizontalDeadZoneDegrees,
            pauseOnTouch: s.pauseOnTouch)
        pitchFilter.minCutoff = s.smoothingMinCutoff
        pitchFilter.beta = s.smoothingBeta
        rollFilter.minCutoff = s.smoothingMinCutoff
        rollFilter.beta = s.smoothingBeta
        if !s.horizontal { rollFilter.clear() }
    }

    private mutating func setNeutralAngles(_ angles: PoseAngles) {
        neutralAngles = angles
        gesture.recentre(neutralRoll: angles.roll)
    }

    /// The roll the horizontal curve and the readout see. It reads three
    /// stored properties rather than being a computed property of the engine:
    /// calling a getter of `self` from a mutating method made the compiler
    /// copy the whole engine first (about 800 bytes then, 2,640 now),
    /// measured at ~110 instructions a sample then.
    private var smoothedRoll: Double {
        @inline(__always) get { Self.smoothedRoll(horizontal: settings.horizontal, rollFilter.value, raw) }
    }

    @inline(__always)
    private static func smoothedRoll(horizontal: Bool, _ filtered: Double?, _ raw: RawPose) -> Double {
        if horizontal, let roll = filtered { return roll }
        return raw.roll
    }

    // MARK: - The daemon's API

    /// Apply a reloaded configuration; keeps the neutral pose and the current
    /// motion (the speed follows the new target within the new limits, so
    /// the output does not jump). Pinning a different orientation counts as a
    /// rotation: the neutral pose is carried over and settles again.
    public mutating func apply(_ newSettings: ScrollSettings) {
        let s = newSettings.sanitized()
        settings = s
        derive(from: s)
        requestSamples()
        if tracker.apply(s.orientation) { reframe(at: freshness.lastAcceptedTime ?? motionTime ?? 0) }
        updateTargets()
        scheduleIfNeeded()
    }

    /// One accelerometer sample in m/s^2, already scaled and rotated by the
    /// mount matrix, taken at `time` seconds. Samples that are not finite,
    /// not close enough to 1 g, or earlier than the previous one are ignored
    /// (`readout.lastSample` says why). A jump back in time by more than the
    /// stale limit is a new time base: motion stops and timing starts afresh,
    /// keeping the neutral pose.
    public mutating func feed(_ acceleration: Vector3, at time: Double) {
        guard time.isFinite else {
            verdict = .rejected(.timeNotFinite)
            return
        }
        if let last = freshness.lastSampleTime, time < last {
            guard last - time > freshness.staleAfter else {
                verdict = .rejected(.timeWentBackwards(by: last - time))
                return
            }
            halt()
        }
        freshness.heard(at: time)
        clock.lastSample = time
        clock.samplePeriod = freshness.expectedPeriod
        advance(to: time)
        let a = acceleration
        // x * 0 is NaN for an infinite or NaN x and (+-)0 otherwise: one
        // test for all three components, cheaper than three isFinite.
        guard a.x * 0 + a.y * 0 + a.z * 0 == 0 else {
            verdict = .rejected(.notFinite)
            freshness.refreshDeadline()
            return
        }
        let magnitudeG = a.length / standardGravity
        lastMagnitudeG = magnitudeG
        guard abs(magnitudeG - 1) <= settings.gravityTolerance else {
            verdict = .rejected(.notGravity(magnitudeG: magnitudeG))
            freshness.refreshDeadline()
            let before = intent.motion
            let wasProvisional = intent.isProvisional
            intent.observeRejected(at: time)
            if intent.motion != before {
                enter(intent.motion, gravity: lastGravity, at: time)
                updateTargets()
            } else if intent.isProvisional != wasProvisional {
                requestSamples()
            }
            return
        }
        verdict = .accepted
        accept(a, length: magnitudeG * standardGravity, magnitudeG: magnitudeG, at: time)
        scheduleIfNeeded()
    }

    /// Make the current (smoothed) pose the neutral one (SIGUSR1,
    /// activation). The tilt becomes zero, so the speed eases to zero within
    /// the acceleration limit: no jump. With no fresh sample, the next
    /// accepted one becomes neutral.
    public mutating func recalibrate(at time: Double) {
        if time.isFinite { advance(to: time) }
        if !freshness.isStale, lastGravity != nil, pitchFilter.value != nil {
            captureSmoothedNeutral()
            if intent.motion == .lifting { intent.settled() }
        } else {
            neutralPose.awaitSample()
        }
        updateTargets()
        scheduleIfNeeded()
    }

    /// A finger or pen touched a touchscreen or tablet (`touching` true: the
    /// first contact began) or the last contact lifted (false), at `time`;
    /// repeating the same value changes nothing. With `pauseOnTouch` tilt
    /// stops scrolling at once (motion up to `time` is still emitted, in the
    /// next frame at the latest) until the last contact lifts; then, with
    /// `zeroOnTouch`, the pose held becomes the neutral one, so scrolling
    /// resumes from it without a jump.
    public mutating func touch(_ touching: Bool, at time: Double) {
        guard touching != intent.touching else { return }
        if time.isFinite { advance(to: time) }
        intent.touch(touching)
        requestSamples()
        if touching {
            if settings.pauseOnTouch {
                vertical.stopNow()
                horizontal.stopNow()
            }
        } else if settings.zeroOnTouch, !freshness.isStale, lastGravity != nil, pitchFilter.value != nil {
            captureSmoothedNeutral()
            if intent.motion == .lifting { intent.settled() }
        }
        updateTargets()
        scheduleIfNeeded()
    }

    /// The neutral gravity direction (unit vector, display axes) for
    /// persisting; provisional while it settles after a rotation.
    public var neutral: Vector3? { neutralPose.direction }

    /// Restores a persisted neutral direction (any non-zero finite length;
    /// anything else is ignored). Taken in the orientation it points to; if
    /// the device turns out to be held in another one, it is carried over and
    /// settles like after a rotation.
    public mutating func restoreNeutral(_ direction: Vector3) {
        guard neutralPose.restore(direction) else { return }
        if lastGravity != nil {
            if let own = neutralPose.orientation, own != frameOrientation {
                neutralPose.reframe(to: frameOrientation, anchor: lastGravity, at: freshness.lastAcceptedTime ?? 0)
            } else {
                neutralPose.adopt(frameOrientation)
            }
        }
        refreshNeutralAngles()
        gesture.arm()
        updateTargets()
        scheduleIfNeeded()
    }

    /// While scrolling (speed or target not zero, or whole units waiting),
    /// the time the output clock wants the next frame: one output period
    /// after the last frame, on a regular grid. A loop that takes frames only
    /// then gets them at the output rate; one that coalesces them with
    /// samples arms its timer for `frameDeadline` instead. nil while nothing
    /// moves: then no timer is needed at all.
    @inlinable @inline(__always)
    public var nextFrameTime: Double? { clock.due }

    /// Whether a frame taken now counts as the due one: true from
    /// `nextFrameTime` on, and a little earlier on a wake-up for a sample, so
    /// that sample and frame share it (`OutputClock`). Ask on every wake-up.
    @inlinable @inline(__always)
    public func isFrameDue(at time: Double) -> Bool { clock.isDue(at: time) }

    /// The latest time `frame(at:)` must be called by a loop that also
    /// takes frames on sample wake-ups (`isFrameDue(at:)`): arm the timer for
    /// it. Later than `nextFrameTime` when a sample is expected to carry the
    /// frame; nil while nothing moves.
    @inlinable @inline(__always)
    public var frameDeadline: Double? { clock.deadline }

    /// How often the engine needs samples now, and the state that decides it.
    /// The daemon may run the sensor (or its polling) this fast or faster;
    /// slower, it loses the promises below.
    ///
    /// - resting: `restingSampleRate` (2.5 Hz, the configured rate if
    ///   lower): the first sample after a lift begins shows it (its
    ///   acceleration takes the magnitude off 1 g at once, `IntentGuard`),
    ///   so a pick-up is noticed within a period, 0.4 s (the promise is
    ///   0.5 s; the tests `aPickUpIsNoticedWithinHalfASecond...`). When only
    ///   the tilt showed it, the lift took a few samples to stand out of the
    ///   table's noise and 4 Hz was the least that kept the promise. While
    ///   the rest is provisional (`IntentGuard.confirmSeconds`, 2.8 s after
    ///   a put-down without a jolt), the rate of a hand held still, below;
    /// - following (held still inside the dead zone): a quarter of the
    ///   configured rate, but a sample at least every 0.1 s: the guard wakes
    ///   at half the dead zone or 10 degrees/s, before a deliberate tilt
    ///   leaves it, so its onset is barely delayed by the lower rate
    ///   (`Benchmarks/FeelReport` measures it);
    /// - otherwise (moving, scrolling, jostled, lifting, touched, no data
    ///   yet): the configured rate.
    ///
    /// The engine follows whatever rate it gets: staleness counts in the
    /// periods actually delivered, and filters and meters are time-based.
    @inlinable @inline(__always)
    public var sampleDemand: SampleDemand {
        SampleDemand(rate: rateDemandedNow, state: intent.state)
    }

    /// The rate `sampleDemand` asks for now.
    @inlinable @inline(__always)
    var rateDemandedNow: Double {
        Self.sampleRate(for: intent.isProvisional ? .following : intent.state, configured: settings.sampleRate)
    }

    /// Samples per second while resting.
    public static let restingSampleRate = 2.5
    /// The lowest rate while held still inside the dead zone.
    public static let heldStillMinimumRate = 10.0

    /// The rate `sampleDemand` asks for in `state` with these settings.
    public func demandedRate(for state: IntentState) -> Double {
        Self.sampleRate(for: state, configured: settings.sampleRate)
    }

    @inlinable
    static func sampleRate(for state: IntentState, configured full: Double) -> Double {
        switch state {
        case .resting: min(full, restingSampleRate)
        case .following: min(full, max(full / 4, heldStillMinimumRate))
        case .holding, .jostled, .lifting, .touched: full
        }
    }

    private mutating func requestSamples() {
        freshness.request(period: 1 / rateDemandedNow)
        clock.samplePeriod = freshness.expectedPeriod
    }

    /// Integrates the motion up to `time` and returns the frame to emit, or
    /// nil when it would be empty. Also brings scrolling to a stop once the
    /// data is stale, so keep calling it while `nextFrameTime` is set.
    public mutating func frame(at time: Double) -> ScrollFrame? {
        guard time.isFinite else { return nil }
        // A frame on a sample's wake-up comes at the time the sample brought
        // the motion to: nothing to integrate.
        if time != motionTime { advance(to: time) }
        let (verticalHiRes, verticalDetents) = vertical.take()
        let (horizontalHiRes, horizontalDetents) = horizontal.take()
        clock.advance(after: max(time, motionTime ?? time), needed: needsFrame)
        let frame = ScrollFrame(
            verticalHiRes: verticalHiRes, verticalDetents: verticalDetents,
            horizontalHiRes: horizontalHiRes, horizontalDetents: horizontalDetents)
        return frame.isEmpty ? nil : frame
    }

    /// Stop all motion now (device lost, deactivation); keeps the neutral
    /// pose. Sub-unit remainders are dropped: the next output device starts
    /// from zero, as a fresh wheel would.
    public mutating func halt() {
        vertical.halt()
        horizontal.halt()
        clock.stop()
        pitchFilter.clear()
        rollFilter.clear()
        lastGravity = nil
        freshness.reset()
        motionTime = nil
        tracker.cancelPending()
        intent.reset()
        requestSamples()
    }

    /// The sensor's resolution, m/s^2 per count (`in_accel_scale`): the
    /// smallest movement it can show, below which its noise is not measured
    /// (`StillnessMeter`). Unknown until set; 0 or less makes it unknown again.
    public mutating func setSensorResolution(_ metersPerSecondSquaredPerCount: Double) {
        intent.setResolution(metersPerSecondSquaredPerCount)
    }

    /// Whether the person means to scroll (`readout.intent`), cheap enough to
    /// compare on every round of a loop: log and show it when it changes.
    @inlinable @inline(__always)
    public var intentState: IntentState { intent.state }

    /// The edge of the display that is up, cheap enough to compare on every
    /// round of a loop (`readout` builds the whole picture).
    @inlinable @inline(__always)
    public var orientation: ScreenOrientation { tracker.orientation }

    /// What the engine sees.
    public var readout: ScrollReadout {
        let neutralKnown = neutralPose.direction != nil && lastGravity != nil
        let smoothedPitch = pitchFilter.value ?? raw.pitch
        let rawRoll = raw.roll
        return ScrollReadout(
            time: motionTime,
            tiltDegrees: neutralKnown ? MathFunctions.wrappedDegrees(raw.pitch - neutralAngles.pitch) : 0,
            smoothedTiltDegrees: neutralKnown ? MathFunctions.wrappedDegrees(smoothedPitch - neutralAngles.pitch) : 0,
            horizontalTiltDegrees: neutralKnown ? rawRoll - neutralAngles.roll : 0,
            smoothedHorizontalTiltDegrees: neutralKnown ? smoothedRoll - neutralAngles.roll : 0,
            speed: vertical.speed, horizontalSpeed: horizontal.speed,
            targetSpeed: vertical.target, targetHorizontalSpeed: horizontal.target,
            orientation: tracker.orientation, orientationPending: tracker.isPending,
            lastSample: verdict, lastMagnitudeG: lastMagnitudeG, isStale: freshness.isStale,
            neutral: neutralPose.state, gestureArmed: gesture.isArmed, intent: intent.state,
            verticalDistance: vertical.distance, horizontalDistance: horizontal.distance)
    }

    // MARK: - Pose

    private mutating func accept(_ g: Vector3, length: Double, magnitudeG: Double, at time: Double) {
        let (afterGap, wasStale) = freshness.accept(at: time)
        lastGravity = g
        if wasStale {
            vertical.endBraking()
            horizontal.endBraking()
        }

        let firstDecision = !tracker.isDetermined
        _ = tracker.update(gravity: g, magnitude: length, at: time, maximumGap: freshness.staleAfter)
        var freshStart = afterGap
        if tracker.orientation != frameOrientation {
            if firstDecision {
                // Not a rotation: the engine just learned how the device is held.
                frameOrientation = tracker.orientation
                refreshNeutralAngles()
            } else {
                reframe(at: time)
            }
            freshStart = true
        }
        if let own = neutralPose.orientation, own != frameOrientation {
            // A restored neutral from another orientation.
            neutralPose.reframe(to: frameOrientation, anchor: g, at: time)
            refreshNeutralAngles()
        } else if neutralPose.orientation == nil {
            neutralPose.adopt(frameOrientation)
            refreshNeutralAngles()
        }

        raw = RawPose(gravity: g, length: length, in: frameOrientation)
        var continuousPitch = raw.pitch
        if freshStart || pitchFilter.value == nil {
            restartFilters(at: time)
            intent.forgetRun()
        } else if let previous = pitchFilter.value {
            // Follow the pitch continuously across +-180 degrees.
            continuousPitch = previous + MathFunctions.wrappedDegrees(raw.pitch - previous)
            pitchFilter.filter(continuousPitch, at: time)
            if settings.horizontal { rollFilter.filter(raw.roll, at: time) }
        }

        if !neutralPose.isSet {
            switch neutralPose.state {
            case .awaitingSample:
                neutralPose.capture(g, in: frameOrientation)
                restartFilters(at: time)
                setNeutralAngles(raw.angles)
                gesture.arm()
            case .settling:
                if neutralPose.settle(with: g, at: time) {
                    if intent.motion == .lifting { settleAfterPickUp() } else { captureSmoothedNeutral() }
                }
            case .set:
                break
            }
        }
        let sinRoll = raw.sinRoll
        // The smoothed roll, asked once: nothing needs it without horizontal scrolling.
        let roll = settings.horizontal ? smoothedRoll : nil
        if neutralPose.isSet {
            gesture.observe(sinRoll: sinRoll, smoothedRoll: roll)
        }
        guard let pitch = pitchFilter.value else {
            updateTargets()
            return
        }
        let forward = MathFunctions.wrappedDegrees(pitch - neutralAngles.pitch)
        let sideways = roll.map { $0 - neutralAngles.roll } ?? 0
        let sample = (pitch: continuousPitch, sinRoll: sinRoll, magnitudeG: magnitudeG)
        if observeIntent(sample, gravity: g, pitch: pitch, forward: forward, sideways: sideways, at: time) {
            updateTargets()
        } else {
            updateTargets(smoothedForward: forward)
        }
    }

    // MARK: - Intent

    /// Feeds the intent guard one accepted sample (its continuous pitch, the
    /// sine of its roll, its magnitude; `pitch`: the smoothed pitch,
    /// `forward`: its tilt from neutral, `sideways`: the smoothed roll's, 0
    /// without horizontal scrolling). Returns true if the neutral pose moved.
    @inline(__always)
    private mutating func observeIntent(
        _ sample: (pitch: Double, sinRoll: Double, magnitudeG: Double), gravity g: Vector3, pitch: Double,
        forward: Double, sideways: Double, at time: Double
    ) -> Bool {
        let before = intent.motion
        let wasProvisional = intent.isProvisional
        intent.observe(
            rawPitch: sample.pitch, sinRoll: sample.sinRoll, magnitudeG: sample.magnitudeG, pitch: pitch,
            tilt: forward, sidewaysTilt: sideways, at: time)
        var moved = false
        if intent.hasNeutralShift {
            followDrift()
            moved = true
        }
        if intent.motion != before {
            enter(intent.motion, gravity: g, at: time)
        } else if intent.isProvisional != wasProvisional {
            requestSamples()
        }
        return moved
    }

    /// The intent guard entered `state`.
    private mutating func enter(_ state: IntentState, gravity: Vector3?, at time: Double) {
        requestSamples()
        switch state {
        case .resting:
            // Put down: stop at once, nothing is gained by a smooth stop.
            vertical.stopNow()
            horizontal.stopNow()
        case .lifting:
            neutralPose.awaitStillness(anchor: gravity, at: time)
        case .holding, .following, .jostled, .touched:
            break
        }
    }

    /// The neutral pose follows a slow drift while the device is held inside
    /// the dead zone (`IntentGuard`).
    private mutating func followDrift() {
        let shift = intent.takeNeutralShift()
        guard neutralPose.isSet else { return }
        neutralAngles.pitch = MathFunctions.wrappedDegrees(neutralAngles.pitch + shift.pitch)
        if shift.roll != 0 {
            neutralAngles.roll = min(max(neutralAngles.roll + shift.roll, -90), 90)
            gesture.recentre(neutralRoll: neutralAngles.roll)
        }
        neutralPose.capture(neutralAngles.gravityDirection(in: frameOrientation), in: frameOrientation)
    }

    /// Settled in the hand after a pick-up: within the dead zone of the old
    /// neutral pose, it stays (picked up at the old angle, it works at once);
    /// otherwise the settled pose is the new neutral (picked up at a new
    /// angle, it never starts scrolling on its own).
    private mutating func settleAfterPickUp() {
        if let pitch = pitchFilter.value,
            abs(MathFunctions.wrappedDegrees(pitch - neutralAngles.pitch)) <= settings.deadZoneDegrees,
            !settings.horizontal || abs(smoothedRoll - neutralAngles.roll) <= settings.horizontalDeadZoneDegrees
        {
            neutralPose.confirm()
        } else {
            captureSmoothedNeutral()
        }
        intent.settled()
    }

    /// The orientation in use changed: angles are now measured in the new
    /// user frame; the neutral pose is carried over and settles again.
    private mutating func reframe(at time: Double) {
        frameOrientation = tracker.orientation
        intent.forgetRun()
        intent.forgetPitch()
        neutralPose.reframe(to: frameOrientation, anchor: lastGravity, at: time)
        refreshNeutralAngles()
        if let g = lastGravity {
            raw = RawPose(gravity: g, length: raw.length, in: frameOrientation)
            restartFilters(at: time)
        }
    }

    private mutating func restartFilters(at time: Double) {
        pitchFilter.reset(to: raw.pitch, at: time)
        if settings.horizontal { rollFilter.reset(to: raw.roll, at: time) } else { rollFilter.clear() }
    }

    private mutating func refreshNeutralAngles() {
        if let direction = neutralPose.direction {
            setNeutralAngles(PoseAngles(gravity: direction, in: frameOrientation))
        }
    }

    /// The smoothed pose becomes neutral: the tilt the curve sees is then
    /// exactly zero.
    private mutating func captureSmoothedNeutral() {
        guard let pitch = pitchFilter.value else { return }
        let angles = PoseAngles(pitch: MathFunctions.wrappedDegrees(pitch), roll: smoothedRoll)
        neutralPose.capture(angles.gravityDirection(in: frameOrientation), in: frameOrientation)
        setNeutralAngles(angles)
        pitchFilter.reset(to: angles.pitch, at: freshness.lastAcceptedTime ?? 0)
        gesture.arm()
    }

    /// The speeds the pose asks for. `smoothedForward`, when the caller has
    /// it, is the smoothed pitch's tilt from neutral.
    private mutating func updateTargets(smoothedForward: Double? = nil) {
        guard neutralPose.isSet, !freshness.isStale, !tracker.isPending, gesture.isArmed,
            intent.allowsScrolling, let pitch = pitchFilter.value
        else {
            vertical.target = 0
            horizontal.target = 0
            return
        }
        // While carried, the curve sees the pitch through a further low-pass.
        var forward: Double
        if let jostled = intent.jostledPitch {
            forward = MathFunctions.wrappedDegrees(jostled - neutralAngles.pitch)
        } else if let known = smoothedForward {
            forward = known
        } else {
            forward = MathFunctions.wrappedDegrees(pitch - neutralAngles.pitch)
        }
        // Away from the user scrolls towards the end: negative REL_WHEEL.
        var v = abs(raw.sinRoll) > Self.poleRollSine ? 0 : -vertical.curve.speed(forTilt: forward)
        if settings.invert { v = -v }
        vertical.target = v
        var h = 0.0
        if settings.horizontal {
            let sideways = smoothedRoll - neutralAngles.roll
            h = horizontal.curve.speed(forTilt: sideways)
        }
        horizontal.target = h
    }

    // MARK: - Motion and the output clock

    /// Integrates the motion from `motionTime` to `time`, stopping it at the
    /// moment the data goes stale.
    private mutating func advance(to time: Double) {
        guard var from = motionTime else {
            motionTime = time
            return
        }
        guard time > from else {
            // A clock that jumped back by more than the stale limit is a new
            // time base: as after a device loss, stop and start timing afresh
            // (the stale deadline of the old clock would mean nothing).
            if time < from - freshness.staleAfter {
                halt()
                motionTime = time
            }
            return
        }
        let deadline = freshness.deadline
        if deadline < time {
            if deadline > from {
                integrate(deadline - from)
                from = deadline
            }
            becomeStale()
        }
        integrate(time - from)
        motionTime = time
    }

    /// Never keep scrolling on old data: brake to rest within `staleStopSeconds`,
    /// no inertia, however fast.
    private mutating func becomeStale() {
        freshness.expire()
        vertical.brake(within: Self.staleStopSeconds, limits: limits)
        horizontal.brake(within: Self.staleStopSeconds, limits: limits)
    }

    @inline(__always)
    private mutating func integrate(_ seconds: Double) {
        vertical.integrate(seconds, limits: limits)
        horizontal.integrate(seconds, limits: limits)
    }

    private var needsFrame: Bool { vertical.needsFrame || horizontal.needsFrame }

    /// After a sample or a command: start the clock when motion begins, stop
    /// it when nothing is left to do.
    @inline(__always)
    private mutating func scheduleIfNeeded() {
        clock.start(at: motionTime, needed: needsFrame)
    }
}
