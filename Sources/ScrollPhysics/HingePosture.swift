/// How a 360-degree convertible is folded, as far as its hinge angle tells:
/// the verdict of the `HingePostureDetector`, in logs and the status by
/// `name`.
public enum HingePosture: Equatable, Sendable, CaseIterable, CustomStringConvertible {
    /// Nothing decided yet: no pair of readings so far, or not enough.
    case undecided
    /// Opened up to about 180 degrees: the keyboard is in front of the
    /// display, in reach.
    case laptop
    /// Folded back beyond about 200 degrees, the halves still apart: the
    /// keyboard faces away or down (a tent, a stand). The angle alone does
    /// not tell a tent from a stand: their angles overlap.
    case tentOrStand
    /// Folded back flat, or nearly: a tablet with the keyboard behind it.
    case tablet

    /// `*_to_str` for logs.
    public var name: String {
        switch self {
        case .undecided: "undecided"
        case .laptop: "laptop"
        case .tentOrStand: "tent-or-stand"
        case .tablet: "tablet"
        }
    }

    public var description: String { name }

    /// What a `SW_TABLET_MODE` switch reports for it: the keyboard is out
    /// of use (a tent and a stand too, as Windows and ChromeOS have it);
    /// false while undecided.
    public var isTabletMode: Bool {
        switch self {
        case .tentOrStand, .tablet: true
        case .undecided, .laptop: false
        }
    }
}

/// What the `HingePostureDetector` is doing with the readings, each phase
/// with its data; by `name` in logs. It decides how often readings are
/// needed (`HingeDemand`).
public enum HingePhase: Equatable, Sendable, CustomStringConvertible {
    /// The readings agree with the posture (or none came yet).
    case settled
    /// `readings` trusted readings in a row, the first at `since`, point
    /// at another posture; enough of them over long enough change it.
    case confirming(HingePosture, readings: Int, since: Double)
    /// Readings near closed or folded flat since `since` may mean
    /// `posture`: they change it only after `HingePostureDetector.dwellSeconds`.
    case dwelling(HingePosture, since: Double)
    /// Readings are rejected as motion (a shake, the halves moving against
    /// each other, a fold in progress) since `since`.
    case moving(since: Double)
    /// The hinge is near vertical since `since`: no angle, though nothing moves.
    case blind(since: Double)

    /// `*_to_str` for logs.
    public var name: String {
        switch self {
        case .settled: "settled"
        case .confirming: "confirming"
        case .dwelling: "dwelling"
        case .moving: "moving"
        case .blind: "blind"
        }
    }

    public var description: String {
        switch self {
        case .confirming(let posture, let readings, _): "confirming(\(posture.name), \(readings))"
        case .dwelling(let posture, _): "dwelling(\(posture.name))"
        case .settled, .moving, .blind: name
        }
    }
}

/// How often the hinge needs a pair of readings now, and the phase that
/// decides it (`HingePostureDetector.sampleDemand`).
public struct HingeDemand: Equatable, Sendable, CustomStringConvertible {
    /// Pairs (one reading of each sensor) per second.
    public var rate: Double
    /// The detector's phase it follows from.
    public var phase: HingePhase
    /// The posture decided so far.
    public var posture: HingePosture

    public init(rate: Double, phase: HingePhase, posture: HingePosture) {
        self.rate = rate
        self.phase = phase
        self.posture = posture
    }

    public var description: String {
        "\(FixedPoint.format(rate, decimals: 2)) Hz (\(posture.name), \(phase.name))"
    }
}
