import Glibc
import ScrollPhysics

/// `tiltscrolld --monitor`: the live state, redrawn in place ten times a
/// second, so a user can tune the configuration by feel. `--demo` plays its
/// recorded trace through the same view.
///
/// Plain ANSI escapes (cursor home, clear to end, hide/show cursor) work in
/// any terminal and over ssh; when stdout is not a terminal each refresh is
/// printed as a block instead.
struct MonitorView {
    var settings: ScrollSettings
    private(set) var nextRedraw: Double?
    /// The first line's start: the command that shows the view.
    let title: String
    private let inPlace: Bool
    private var hiResTotal = 0
    private var horizontalHiResTotal = 0
    static let redrawInterval = 0.1

    init(settings: ScrollSettings, now: Double, title: String = "tiltscrolld --monitor") {
        self.settings = settings
        self.nextRedraw = now
        self.title = title
        self.inPlace = FileDescriptor.standardOutput.isTerminal
        if inPlace { StandardOutput.write("\u{1B}[?25l\u{1B}[2J") }
    }

    mutating func record(_ frame: ScrollFrame) {
        hiResTotal += Int(frame.verticalHiRes)
        horizontalHiResTotal += Int(frame.horizontalHiRes)
    }

    mutating func redrawIfDue(now: Double, snapshot: MonitorSnapshot) {
        guard let due = nextRedraw, now >= due else { return }
        redraw(now: now, snapshot: snapshot)
    }

    /// Draws `snapshot` now, due or not (a last picture before `finish`).
    mutating func redraw(now: Double, snapshot: MonitorSnapshot) {
        nextRedraw = now + MonitorView.redrawInterval
        let body = MonitorView.render(
            snapshot, settings: settings, hiResTotal: hiResTotal, horizontalHiResTotal: horizontalHiResTotal,
            title: title)
        StandardOutput.write(inPlace ? "\u{1B}[H" + body + "\u{1B}[J" : body + "\n")
    }

    /// Gives the terminal back: cursor visible, prompt on a fresh line.
    func finish() {
        if inPlace { StandardOutput.write("\u{1B}[?25h\n") }
    }

    /// One screenful, every line ending in "clear to end of line" so shorter
    /// values never leave old characters behind.
    static func render(
        _ s: MonitorSnapshot, settings: ScrollSettings, hiResTotal: Int, horizontalHiResTotal: Int,
        title: String = "tiltscrolld --monitor"
    ) -> String {
        let r = s.readout
        var lines: [String] = []
        lines.append("\(title)    \(s.deviceLine)    Ctrl-C quits")
        lines.append("state        \(s.state)")
        lines.append("intent       \(r.intent.name): \(r.intent.reason)")
        lines.append(
            "raw          \(vector(s.raw)) m/s^2  |a| = \(FixedPoint.format(s.raw.length / standardGravity, decimals: 2)) g"
        )
        lines.append("corrected    \(vector(s.corrected)) m/s^2  (mount matrix \(s.matrix))")
        lines.append(
            "orientation  \(r.orientation.rawValue)\(r.orientationPending ? " (changing)" : "")    neutral \(r.isNeutralSet ? "set" : "not set")    sample \(r.lastSample)\(r.isStale ? "    STALE" : "")"
        )
        lines.append(
            "tilt         \(gauge(r.smoothedTiltDegrees, deadZone: settings.deadZoneDegrees, maxTilt: settings.maxTiltDegrees)) \(signed(r.smoothedTiltDegrees))°"
        )
        if settings.horizontal {
            lines.append(
                "sideways     \(gauge(r.smoothedHorizontalTiltDegrees, deadZone: settings.horizontalDeadZoneDegrees, maxTilt: settings.maxTiltDegrees)) \(signed(r.smoothedHorizontalTiltDegrees))°"
            )
        }
        lines.append(
            "speed        \(signed(r.speed)) detents/s (max \(FixedPoint.format(settings.speed, decimals: 1)))\(settings.horizontal ? "   horizontal \(signed(r.horizontalSpeed))" : "")"
        )
        lines.append(
            "scrolled     \(FixedPoint.format(Double(hiResTotal) / 120, decimals: 2)) detents\(settings.horizontal ? "   horizontal \(FixedPoint.format(Double(horizontalHiResTotal) / 120, decimals: 2))" : "")"
        )
        lines.append(
            "dead zone ±\(FixedPoint.format(settings.deadZoneDegrees, decimals: 1))°  max tilt ±\(FixedPoint.format(settings.maxTiltDegrees, decimals: 1))°  curve \(FixedPoint.format(settings.curve, decimals: 2))"
        )
        return lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n")
    }

    /// A bar from -maxTilt to +maxTilt: `|` marks the dead zone's edges, `#` the angle.
    static func gauge(_ angle: Double, deadZone: Double, maxTilt: Double, width: Int = 41) -> String {
        let half = width / 2
        func column(_ degrees: Double) -> Int {
            guard degrees.isFinite, maxTilt > 0 else { return half }
            let clamped = max(-maxTilt, min(maxTilt, degrees))
            return half + Int((clamped / maxTilt * Double(half)).rounded())
        }
        var cells = [Character](repeating: "-", count: width)
        cells[half] = "+"
        cells[column(-deadZone)] = "|"
        cells[column(deadZone)] = "|"
        cells[column(angle)] = "#"
        return "[" + String(cells) + "]"
    }

    static func vector(_ v: Vector3) -> String {
        "(\(signed(v.x)), \(signed(v.y)), \(signed(v.z)))"
    }

    static func signed(_ value: Double) -> String {
        let text = FixedPoint.format(value, decimals: 2)
        return value >= 0 ? "+" + text : text
    }
}

/// What the monitor shows besides the physics' own readout.
struct MonitorSnapshot {
    var readout: ScrollReadout
    var raw: Vector3
    var corrected: Vector3
    var matrix: MountMatrix
    var deviceLine: String
    var state: String
}
