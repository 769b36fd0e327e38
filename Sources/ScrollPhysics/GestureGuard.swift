/// Keeps a rotation (or a put-down) from scrolling on the way: a sideways
/// tilt far beyond full speed disarms scrolling until the device comes back
/// near neutral, since scrolling on the way there or back would be a
/// surprise.
///
///     armed --roll leaves the gesture band--> disarmed
///     disarmed --roll back inside the re-arm band (and, with horizontal
///               scrolling, the smoothed roll too)--> armed
///
/// Both bands are centred on the neutral roll and tested by the sine of the
/// roll, which costs no arctangent per sample.
struct GestureGuard: Equatable, Sendable {
    private(set) var isArmed = true
    /// Half-width of the band that keeps the gesture armed, degrees.
    private(set) var limitDegrees = 0.0
    /// Half-width of the band that re-arms it, degrees.
    private(set) var rearmDegrees = 0.0
    private var neutralRoll = 0.0
    private var band = RollBand()
    private var rearmBand = RollBand()

    init() {}

    /// The widths for `settings`: beyond full speed plus 10 degrees (at most
    /// 75) it is a rotation in progress, not a gesture; back inside the
    /// widest dead zone it re-arms.
    mutating func configure(for s: ScrollSettings) {
        limitDegrees = min(s.maxTiltDegrees + 10, 75)
        rearmDegrees = max(s.deadZoneDegrees, s.horizontalDeadZoneDegrees)
        refreshBands()
    }

    /// The neutral pose changed: the bands follow its roll.
    mutating func recentre(neutralRoll roll: Double) {
        neutralRoll = roll
        refreshBands()
    }

    private mutating func refreshBands() {
        band = RollBand(center: neutralRoll, halfWidth: limitDegrees)
        rearmBand = RollBand(center: neutralRoll, halfWidth: rearmDegrees)
    }

    mutating func arm() { isArmed = true }

    /// One accepted sample: `sinRoll` is the sine of its roll; `smoothedRoll`
    /// the filtered roll in degrees while horizontal scrolling is on (nil
    /// otherwise), which must be back near neutral too before re-arming.
    @inline(__always)
    mutating func observe(sinRoll: Double, smoothedRoll: Double?) {
        if isArmed {
            if !band.contains(sine: sinRoll) { isArmed = false }
            return
        }
        guard rearmBand.contains(sine: sinRoll) else { return }
        if let roll = smoothedRoll, !(abs(roll - neutralRoll) <= rearmDegrees) { return }
        isArmed = true
    }
}
