import Glibc
import ScrollPhysics
import TiltScrollCommon

/// The monitor's view: a `MonitorRecord` redrawn in place, so a person can
/// tune the configuration by feel. `tiltscrollctl monitor` shows the running
/// daemon's records; `tiltscrollctl demo` its recorded trace's.
///
/// Plain ANSI escapes (cursor home, clear to end, hide/show cursor) work in
/// any terminal and over ssh; when stdout is not a terminal each picture is
/// printed as a block instead.
struct MonitorView {
    /// How often a picture is drawn: as often as the daemon sends them.
    static let redrawInterval = 0.1
    /// The first line's start: the command that shows the view.
    let title: String
    private let inPlace: Bool

    init(title: String) {
        self.title = title
        self.inPlace = FileDescriptor.standardOutput.isTerminal
        if inPlace { StandardOutput.write("\u{1B}[?25l\u{1B}[2J") }
    }

    /// Draws `record` now.
    func draw(_ record: MonitorRecord) {
        let body = MonitorView.render(record, title: title)
        StandardOutput.write(inPlace ? "\u{1B}[H" + body + "\u{1B}[J" : body + "\n")
    }

    /// Gives the terminal back: cursor visible, prompt on a fresh line.
    func finish() {
        if inPlace { StandardOutput.write("\u{1B}[?25h\n") }
    }

    /// One screenful, every line ending in "clear to end of line" so shorter
    /// values never leave old characters behind.
    static func render(_ s: MonitorRecord, title: String) -> String {
        var lines: [String] = []
        lines.append("\(title)    \(s.device)    Ctrl-C quits")
        lines.append("state        \(s.state)")
        if let r = s.reading {
            lines.append("intent       \(r.intent.name): \(r.intent.reason)")
        } else {
            lines.append("intent       no sensor captured")
        }
        lines.append(
            "raw          \(vector(s.raw)) m/s^2  |a| = \(FixedPoint.format(s.raw.length / standardGravity, decimals: 2)) g"
        )
        lines.append("corrected    \(vector(s.corrected)) m/s^2  (mount matrix \(s.matrix))")
        if let r = s.reading {
            lines.append(
                "orientation  \(r.orientation.rawValue)\(r.orientationPending ? " (changing)" : "")    neutral \(r.isNeutralSet ? "set" : "not set")    sample \(r.lastSample)\(r.isStale ? "    STALE" : "")"
            )
        }
        let tilt = s.reading?.tiltDegrees ?? 0
        lines.append(
            "tilt         \(gauge(tilt, deadZone: s.deadZoneDegrees, maxTilt: s.maxTiltDegrees)) \(signed(tilt))°")
        if s.horizontal {
            let sideways = s.reading?.horizontalTiltDegrees ?? 0
            lines.append(
                "sideways     \(gauge(sideways, deadZone: s.horizontalDeadZoneDegrees, maxTilt: s.maxTiltDegrees)) \(signed(sideways))°"
            )
        }
        let speed = s.reading?.speed ?? 0
        let horizontalSpeed = s.reading?.horizontalSpeed ?? 0
        lines.append(
            "speed        \(signed(speed)) detents/s (max \(FixedPoint.format(s.maxSpeed, decimals: 1)))\(s.horizontal ? "   horizontal \(signed(horizontalSpeed))" : "")"
        )
        lines.append(
            "scrolled     \(FixedPoint.format(s.scrolled, decimals: 2)) detents\(s.horizontal ? "   horizontal \(FixedPoint.format(s.horizontalScrolled, decimals: 2))" : "")"
        )
        lines.append(
            "dead zone ±\(FixedPoint.format(s.deadZoneDegrees, decimals: 1))°  max tilt ±\(FixedPoint.format(s.maxTiltDegrees, decimals: 1))°  curve \(FixedPoint.format(s.curve, decimals: 2))"
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
