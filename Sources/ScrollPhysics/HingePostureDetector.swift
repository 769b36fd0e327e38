/// Tells a laptop, a tent or stand and a tablet apart from pairs of
/// readings of a convertible's two accelerometers (`HingeReading`), with
/// hysteresis, and with agreement over several readings before a change.
///
/// Each pair is first read as evidence about the posture held now:
///
///     reading               laptop        tent-or-stand   tablet          undecided
///     open <= 160           agrees        points: laptop  points: laptop  points: laptop
///     open 160..200         agrees        agrees          agrees          laptop < 180 <= tent
///     open 200..310         points: tent  agrees          points: tent    points: tent
///     open 310..330         points: tent  agrees          agrees          points: tent
///     open >= 330           points: tab.  points: tablet  agrees          points: tablet
///     closed-or-folded,
///       closing             agrees        points: laptop  points: laptop  points: laptop
///       folding             points: tab.  points: tablet  agrees          points: tablet
///       approach unknown    may mean: t.  points: tablet  agrees          may mean: tablet
///     shaken, halves disagree: moving;  hinge near vertical: blind;
///     not finite, readings too far apart, time not usable: ignored
///
/// where the approach (`HingeApproach`) is which way the lid came towards
/// the ends: closing if the last angle seen between 60 and 300 degrees
/// (trusted, or rough from a pair rejected as motion) was below 180,
/// folding if 180 or more, unknown when none was seen since the pairs
/// began (or resumed after a gap).
///
/// and the evidence moves the phase (`HingePhase`, `next(after:in:on:at:)`):
///
///     any        --agrees------------> settled
///     any        --points at P-------> confirming(P, 1)   (confirming(P, n) -> n + 1)
///                   posture P once `agreementReadings` in a row span `agreementSeconds`
///     any        --may mean P--------> dwelling(P)        (dwelling(P) stays)
///                   posture P once it has dwelt `dwellSeconds`
///     any        --moving------------> moving             (breaks a run)
///     any        --blind-------------> blind              (breaks a run)
///     a gap of more than `gapSeconds` between pairs, or a new time base: settled first
///
/// The thresholds, and why:
/// - Tablet mode from 200 degrees, laptop again at 160 (ChromeOS's figures):
///   40 degrees of hysteresis against an angle whose noise is a fraction of
///   a degree in a hand (both halves sway together; only each part's own
///   noise and the pair's skew show), so noise around a threshold changes
///   the posture at most once. A laptop opened flat (180) stays what it was.
/// - Folded flat (tablet) from 330, back to a tent or stand at 310: a tablet
///   held folded gapes by a few degrees, a tent or stand stands at 250-320.
/// - Three agreeing readings (ChromeOS), spanning at least 0.3 s: the
///   verdict does not depend on how fast pairs come (the daemon may feed
///   them at the display's 50 Hz while scrolling), and a lid flexed for an
///   instant under a hand is no fold.
/// - Within 20 degrees of 0 or 360 (`HingeReading.ambiguousDegrees`)
///   closed and folded flat read the same; right at 0 or 360 the noise
///   even puts them on either side. Which way the lid went tells them
///   apart: it cannot pass from one end to the other without crossing 180,
///   and while it moves (too fast for a trusted reading) the rough angles
///   still show which half of the circle it is in. Without that (the first
///   pairs, or the first after a gap) a laptop or an undecided posture
///   becomes a tablet after 0.6 s of such readings in a row, and a tablet
///   stays one (ChromeOS's "unstable angle" rule, which waits 2 s): a
///   closed lid then reads as folded, which costs little (its
///   keyboard is out of reach anyway, and opening it is a laptop again
///   within a second), where a tablet taken for a laptop would keep its
///   keyboard live under the hand holding it. A daemon that goes on
///   feeding pairs (at 2 Hz) while the lid is closed keeps the approach,
///   and a closed lid stays a laptop; one that stops pays the dwell on its
///   first pairs after the lid opens (a lid lingering within 20 degrees of
///   closed for 0.6 s reads as a tablet until it opens further).
///
/// What it costs (`sampleDemand`): pairs at `watchingRate`, 2 Hz, while the
/// readings agree with the posture, or the hinge is vertical and nothing
/// moves; at `decidingRate`, 5 Hz, while a change is being confirmed or
/// dwelt on, while readings are rejected as motion (so that the first
/// still reading after a fold comes soon, and the rough angles on its way
/// show where it goes: 5 Hz sees a fold of 250 degrees/s every 50
/// degrees, twice or more in the 120 between 180 and 300), and until the
/// first decision.
/// A change held still is thus decided within a second: its first reading
/// comes within 0.5 s at 2 Hz, two more at 5 Hz take 0.4 s; 4 Hz would just
/// make it, 5 leaves room for jitter.
///
/// Pure: no I/O, no clock, no allocation. Times are seconds on the
/// daemon's monotonic clock.
public struct HingePostureDetector: Equatable, Sendable {
    /// What one pair says about the posture held: the detector's events.
    enum Evidence: Equatable, Sendable, CustomStringConvertible {
        /// The reading fits the posture held (or lies between thresholds).
        case agrees
        /// A trusted angle of another posture.
        case pointsAt(HingePosture)
        /// Near closed or folded flat: another posture, if it lasts.
        case mayMean(HingePosture)
        /// Rejected as motion: shaken, or the halves moving against each other.
        case moving
        /// Rejected because the hinge is near vertical.
        case blind

        var name: String {
            switch self {
            case .agrees: "agrees"
            case .pointsAt: "points-at"
            case .mayMean: "may-mean"
            case .moving: "moving"
            case .blind: "blind"
            }
        }

        var description: String {
            switch self {
            case .pointsAt(let p), .mayMean(let p): "\(name)(\(p.name))"
            case .agrees, .moving, .blind: name
            }
        }
    }

    /// Tablet mode (a tent, a stand) from this angle on, leaving a laptop.
    public static let tabletModeFromDegrees = 200.0
    /// A laptop again up to this angle, from a tent, a stand or a tablet.
    public static let laptopUpToDegrees = 160.0
    /// Folded flat (a tablet) from this angle on.
    public static let foldedFromDegrees = 330.0
    /// A tent or stand again up to this angle, from a tablet.
    public static let unfoldedUpToDegrees = 310.0
    /// Agreeing readings in a row before a change...
    public static let agreementReadings = 3
    /// ...spanning at least this many seconds.
    public static let agreementSeconds = 0.3
    /// How long readings near closed or folded, with no approach known,
    /// must last before they make a laptop (or an undecided posture) a
    /// tablet.
    public static let dwellSeconds = 0.6
    /// Pairs further apart than this start every run afresh: what came
    /// before is old news (the base sensor was released, the clock jumped).
    public static let gapSeconds = 1.5
    /// The two readings of a pair must be this close in time, seconds: a
    /// device turned at 90 degrees/s moves 9 degrees in 0.1 s, and each
    /// half's reading turns with it. The daemon reads the base on the wake-up
    /// of a display sample.
    public static let pairingSeconds = 0.1
    /// Pairs per second while nothing is being decided.
    public static let watchingRate = 2.0
    /// Pairs per second while a change is being decided.
    public static let decidingRate = 5.0

    /// The posture decided so far.
    public private(set) var posture = HingePosture.undecided
    /// What the detector is doing with the readings.
    public private(set) var phase = HingePhase.settled
    /// The last pair's reading (ignored ones included), for the status and logs.
    public private(set) var lastReading = HingeReading.none
    /// Which way the lid went towards closed or folded flat, as far as the
    /// pairs since the last gap show.
    public private(set) var approach = HingeApproach.unknown
    /// The last change of posture, for logs.
    public private(set) var lastChange: HingePostureChange?
    /// The time of the last pair taken into account.
    private var lastTime: Double?

    public init() {}

    /// One pair: the display's reading taken at `displayTime` and the base's
    /// at `baseTime`, each in m/s^2 through its own mount matrix (the frames
    /// of `HingeReading`). Returns whether the posture changed.
    ///
    /// A pair whose times are not finite, are further apart than
    /// `pairingSeconds`, or go back before the last pair's (by up to
    /// `gapSeconds`; further is a new time base) is ignored, as is one with
    /// a component that is not finite; `lastReading` says why.
    @discardableResult
    public mutating func observe(display: Vector3, at displayTime: Double, base: Vector3, at baseTime: Double)
        -> Bool
    {
        guard displayTime.isFinite, baseTime.isFinite else {
            lastReading = .rejected(.timeNotFinite)
            return false
        }
        let apart = abs(displayTime - baseTime)
        guard apart <= Self.pairingSeconds else {
            lastReading = .rejected(.readingsApart(seconds: apart))
            return false
        }
        let time = max(displayTime, baseTime)
        if let last = lastTime {
            if time < last {
                guard last - time > Self.gapSeconds else {
                    lastReading = .rejected(.timeWentBackwards(by: last - time))
                    return false
                }
                startAfresh()
            } else if time - last > Self.gapSeconds {
                startAfresh()
            }
        }
        lastTime = time
        let reading = HingeReading.measure(display: display, base: base)
        lastReading = reading
        switch reading {
        case .open(let degrees):
            approach.follow(degrees)
        case .rejected(.notGravity), .rejected(.halvesDisagree):
            if let rough = HingeReading.roughDegrees(display: display, base: base) { approach.follow(rough) }
        case .closedOrFolded, .rejected, .none:
            break
        }
        guard let evidence = Self.evidence(of: reading, in: posture, approach: approach) else { return false }
        let (next, nextPhase) = Self.next(after: phase, in: posture, on: evidence, at: time)
        phase = nextPhase
        guard next != posture else { return false }
        lastChange = HingePostureChange(from: posture, to: next, time: time)
        posture = next
        return true
    }

    /// How often pairs are needed now (see the type's comment). The daemon
    /// reads the base (and the display) at least this fast while it needs
    /// the posture; faster only costs wake-ups.
    public var sampleDemand: HingeDemand {
        HingeDemand(rate: Self.rate(in: phase, posture: posture), phase: phase, posture: posture)
    }

    /// The angle of the last pair that showed one, trusted or near closed or
    /// folded; nil when the last pair showed none.
    public var angleDegrees: Double? { lastReading.degrees }

    /// Start over, undecided (the lid was opened again, the base sensor came
    /// back): nothing before counts.
    public mutating func forget() {
        self = HingePostureDetector()
    }

    /// After a gap in the pairs, or a new time base: the posture stays,
    /// what was under way and which way the lid was going are old news.
    private mutating func startAfresh() {
        phase = .settled
        approach = .unknown
    }

    // MARK: - The table

    static func rate(in phase: HingePhase, posture: HingePosture) -> Double {
        switch phase {
        case .confirming, .dwelling, .moving: decidingRate
        case .settled: posture == .undecided ? decidingRate : watchingRate
        case .blind: watchingRate
        }
    }

    /// What `reading` says about `posture`, the lid having come `approach`
    /// (the first table of the type's comment); nil for a pair that says
    /// nothing at all.
    static func evidence(of reading: HingeReading, in posture: HingePosture, approach: HingeApproach) -> Evidence? {
        switch reading {
        case .none:
            return nil
        case .rejected(let why):
            switch why {
            case .notGravity, .halvesDisagree: return .moving
            case .hingeNearVertical: return .blind
            case .notFinite, .timeNotFinite, .timeWentBackwards, .readingsApart: return nil
            }
        case .open(let degrees):
            let target = Self.posture(open: degrees, from: posture)
            return target == posture ? .agrees : .pointsAt(target)
        case .closedOrFolded:
            let target: HingePosture
            switch approach {
            case .closing: target = .laptop
            case .folding: target = .tablet
            case .unknown:
                switch posture {
                case .tablet: return .agrees
                case .tentOrStand: return .pointsAt(.tablet)
                case .laptop, .undecided: return .mayMean(.tablet)
                }
            }
            return target == posture ? .agrees : .pointsAt(target)
        }
    }

    /// The posture a trusted angle means, coming from `current`: the
    /// thresholds with their hysteresis.
    static func posture(open degrees: Double, from current: HingePosture) -> HingePosture {
        switch current {
        case .undecided:
            degrees < 180 ? .laptop : degrees < foldedFromDegrees ? .tentOrStand : .tablet
        case .laptop:
            degrees < tabletModeFromDegrees ? .laptop : degrees < foldedFromDegrees ? .tentOrStand : .tablet
        case .tentOrStand:
            degrees <= laptopUpToDegrees ? .laptop : degrees < foldedFromDegrees ? .tentOrStand : .tablet
        case .tablet:
            degrees <= laptopUpToDegrees ? .laptop : degrees <= unfoldedUpToDegrees ? .tentOrStand : .tablet
        }
    }

    /// The transitions (the second table of the type's comment): the
    /// posture and phase after `evidence` at `time`.
    static func next(after phase: HingePhase, in posture: HingePosture, on evidence: Evidence, at time: Double)
        -> (HingePosture, HingePhase)
    {
        switch evidence {
        case .agrees:
            return (posture, .settled)
        case .pointsAt(let target):
            var readings = 1
            var since = time
            if case .confirming(target, let n, let s) = phase {
                readings = n + 1
                since = s
            }
            if readings >= agreementReadings, time - since >= agreementSeconds { return (target, .settled) }
            return (posture, .confirming(target, readings: readings, since: since))
        case .mayMean(let target):
            var since = time
            if case .dwelling(target, let s) = phase { since = s }
            if time - since >= dwellSeconds { return (target, .settled) }
            return (posture, .dwelling(target, since: since))
        case .moving:
            if case .moving = phase { return (posture, phase) }
            return (posture, .moving(since: time))
        case .blind:
            if case .blind = phase { return (posture, phase) }
            return (posture, .blind(since: time))
        }
    }
}

/// Which way the lid went towards the ends, closed and folded flat, which
/// read the same near them (`HingeReading.ambiguousDegrees`): the lid
/// cannot get from one end to the other without crossing 180.
public enum HingeApproach: Equatable, Sendable, CustomStringConvertible {
    /// No decisive angle seen since the pairs began or resumed.
    case unknown
    /// The last decisive angle was below 180: towards closed.
    case closing
    /// The last decisive angle was 180 or more: towards folded flat.
    case folding

    /// The angles that show which way the lid is going: in the half of
    /// the circle below 180 it goes towards closed, above towards folded.
    /// Not nearer either end than 60 degrees: a rough angle may be off by
    /// twice 25 degrees there (`HingeReading.roughDegrees`), and a lid
    /// shaken near an end must not seem to come from the other side.
    public static let decisiveDegrees = 60.0...300.0

    /// The lid was seen at `degrees`.
    mutating func follow(_ degrees: Double) {
        guard Self.decisiveDegrees.contains(degrees) else { return }
        self = degrees < 180 ? .closing : .folding
    }

    /// `*_to_str` for logs.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .closing: "closing"
        case .folding: "folding"
        }
    }

    public var description: String { name }
}

/// A change of posture, for logs.
public struct HingePostureChange: Equatable, Sendable, CustomStringConvertible {
    public var from: HingePosture
    public var to: HingePosture
    /// When the pair that decided it was taken, seconds.
    public var time: Double

    public init(from: HingePosture, to: HingePosture, time: Double) {
        self.from = from
        self.to = to
        self.time = time
    }

    public var description: String { "\(from.name) -> \(to.name) at \(FixedPoint.format(time, decimals: 3)) s" }
}
