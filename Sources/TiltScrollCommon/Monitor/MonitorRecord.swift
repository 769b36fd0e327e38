import ScrollPhysics

/// One picture of the monitor: what `tiltscrollctl monitor` shows of the
/// running daemon, and `tiltscrollctl demo` of its recorded trace. The
/// daemon writes one per line to each monitor's stream (`encoded`), ten
/// times a second while a sensor is captured and at every change of its
/// snapshot otherwise; the client reads them back (`init(parsing:)`).
///
/// The line is `key=value` fields separated by tabs, so that a newer daemon
/// may add fields an older client skips.
public struct MonitorRecord: Equatable {
    /// The physics as the last sample left it.
    public struct Reading: Equatable {
        public var intent: IntentState
        public var orientation: ScreenOrientation
        public var orientationPending: Bool
        public var isNeutralSet: Bool
        /// What became of the last sample (`SampleVerdict`, as its description).
        public var lastSample: String
        public var isStale: Bool
        public var tiltDegrees: Double
        public var horizontalTiltDegrees: Double
        /// Detents a second.
        public var speed: Double
        public var horizontalSpeed: Double
    }

    /// The daemon's status line (or the demo's progress).
    public var state: String
    /// The sensor and its capture, in words.
    public var device: String
    /// The physics; nil while no sensor is captured.
    public var reading: Reading?
    /// The latest sample in m/s², before and after the mount matrix.
    public var raw = Vector3.zero
    public var corrected = Vector3.zero
    public var matrix = MountMatrix.identity
    /// Detents scrolled since the monitor began.
    public var scrolled = 0.0
    public var horizontalScrolled = 0.0
    /// The settings the gauges are drawn with (the speed with the sensitivity applied).
    public var deadZoneDegrees: Double
    public var horizontalDeadZoneDegrees: Double
    public var maxTiltDegrees: Double
    public var curve: Double
    public var maxSpeed: Double
    public var horizontal: Bool

    /// A record with the gauges of `settings`.
    public init(state: String, device: String, settings: ScrollSettings) {
        self.state = state
        self.device = device
        deadZoneDegrees = settings.deadZoneDegrees
        horizontalDeadZoneDegrees = settings.horizontalDeadZoneDegrees
        maxTiltDegrees = settings.maxTiltDegrees
        curve = settings.curve
        maxSpeed = settings.speed
        horizontal = settings.horizontal
    }

    /// Takes what the readout says.
    public mutating func read(_ readout: ScrollReadout) {
        reading = Reading(
            intent: readout.intent, orientation: readout.orientation, orientationPending: readout.orientationPending,
            isNeutralSet: readout.isNeutralSet, lastSample: readout.lastSample.description,
            isStale: readout.isStale, tiltDegrees: readout.smoothedTiltDegrees,
            horizontalTiltDegrees: readout.smoothedHorizontalTiltDegrees, speed: readout.speed,
            horizontalSpeed: readout.horizontalSpeed)
    }

    // MARK: - The line

    /// One line, without its newline.
    public var encoded: String {
        var fields: [(String, String)] = [
            ("state", state), ("device", device), ("raw", Self.vector(raw)), ("corrected", Self.vector(corrected)),
            ("matrix", matrix.description), ("scrolled", "\(scrolled)"),
            ("horizontal-scrolled", "\(horizontalScrolled)"), ("dead-zone", "\(deadZoneDegrees)"),
            ("horizontal-dead-zone", "\(horizontalDeadZoneDegrees)"), ("max-tilt", "\(maxTiltDegrees)"),
            ("curve", "\(curve)"), ("max-speed", "\(maxSpeed)"), ("horizontal", horizontal ? "1" : "0"),
        ]
        if let r = reading {
            fields += [
                ("intent", r.intent.name), ("orientation", r.orientation.rawValue),
                ("orientation-pending", r.orientationPending ? "1" : "0"), ("neutral", r.isNeutralSet ? "1" : "0"),
                ("sample", r.lastSample), ("stale", r.isStale ? "1" : "0"), ("tilt", "\(r.tiltDegrees)"),
                ("horizontal-tilt", "\(r.horizontalTiltDegrees)"), ("speed", "\(r.speed)"),
                ("horizontal-speed", "\(r.horizontalSpeed)"),
            ]
        }
        return fields.map { "\($0.0)=\(Self.field($0.1))" }.joined(separator: "\t")
    }

    /// Why a line is not a record.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The record a line holds. Unknown fields are skipped; a missing or
    /// malformed field the view needs fails.
    public init(parsing line: Substring) throws(ParseError) {
        var values: [Substring: Substring] = [:]
        for field in line.split(separator: "\t") {
            guard let equals = field.firstIndex(of: "=") else { continue }
            values[field[..<equals]] = field[field.index(after: equals)...]
        }
        func text(_ key: Substring) throws(ParseError) -> String {
            guard let value = values[key] else { throw ParseError(description: "the line has no \(key)") }
            return String(value)
        }
        func number(_ key: Substring) throws(ParseError) -> Double {
            guard let value = Double(try text(key)), value.isFinite else {
                throw ParseError(description: "\(key) is not a number")
            }
            return value
        }
        func flag(_ key: Substring) throws(ParseError) -> Bool { try text(key) == "1" }
        func vector(_ key: Substring) throws(ParseError) -> Vector3 {
            let parts = try text(key).split(separator: ",").compactMap { Double($0) }
            guard parts.count == 3 else { throw ParseError(description: "\(key) is not three numbers") }
            return Vector3(parts[0], parts[1], parts[2])
        }

        state = try text("state")
        device = try text("device")
        raw = try vector("raw")
        corrected = try vector("corrected")
        let matrixText = try text("matrix")
        do {
            matrix = try MountMatrix(parsing: matrixText)
        } catch {
            throw ParseError(description: "\(error)")
        }
        scrolled = try number("scrolled")
        horizontalScrolled = try number("horizontal-scrolled")
        deadZoneDegrees = try number("dead-zone")
        horizontalDeadZoneDegrees = try number("horizontal-dead-zone")
        maxTiltDegrees = try number("max-tilt")
        curve = try number("curve")
        maxSpeed = try number("max-speed")
        horizontal = try flag("horizontal")
        guard values["intent"] != nil else {
            reading = nil
            return
        }
        let intentName = try text("intent")
        guard let intent = IntentState.allCases.first(where: { $0.name == intentName }) else {
            throw ParseError(description: "unknown intent \(intentName)")
        }
        guard let orientation = ScreenOrientation(rawValue: try text("orientation")) else {
            throw ParseError(description: "unknown orientation")
        }
        reading = Reading(
            intent: intent, orientation: orientation, orientationPending: try flag("orientation-pending"),
            isNeutralSet: try flag("neutral"), lastSample: try text("sample"), isStale: try flag("stale"),
            tiltDegrees: try number("tilt"), horizontalTiltDegrees: try number("horizontal-tilt"),
            speed: try number("speed"), horizontalSpeed: try number("horizontal-speed"))
    }

    private static func vector(_ v: Vector3) -> String { "\(v.x),\(v.y),\(v.z)" }

    /// A value as a field holds it: tabs and line breaks would end the
    /// field or the record, so they become spaces.
    private static func field(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return value }
        return String(
            String.UnicodeScalarView(value.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }
}
