/// A recorded (or synthetic) accelerometer trace, replayed offline by
/// `tiltscrolld --replay FILE`, `--demo` and the golden tests.
///
/// The format, version 1, is plain text, one item per line:
///
///     # tiltscroll trace 1
///     # any other comment line is free text
///     # scale: 0.009582 0.009582 0.009582
///     # offset: 0 0 0
///     # mount-matrix: 1, 0, 0; 0, 1, 0; 0, 0, 1
///     0.000 12 -1020 40
///     0.020 11 -1019 44
///
/// - Line 1 is exactly `# tiltscroll trace 1`.
/// - A line starting with `#` is a comment. Three comments are directives and
///   must come before the first sample, each at most once:
///   `# scale: S` or `# scale: SX SY SZ` (default 1: values already in m/s^2),
///   `# offset: O` or `# offset: OX OY OZ` (default 0), and
///   `# mount-matrix: ...` in the hwdb form `MountMatrix(parsing:)` reads
///   (default identity). Blank lines are ignored; line ends may be CRLF.
/// - A sample is `time x y z`, separated by spaces or tabs: the time in
///   seconds on a monotonic clock (any origin, never decreasing), then the
///   raw readings (integers or decimals, as `in_accel_*_raw` or a buffer scan
///   gives them). Numbers are plain decimals ("nan", "inf" and hex are not).
/// - The acceleration fed to the engine is M * ((raw + offset) * scale),
///   exactly what the daemon computes from sysfs.
/// - `# touch: TIME begin` and `# touch: TIME end` say that the first
///   contact on a touchscreen or pen tablet began, or the last one lifted, at
///   TIME (`ScrollEngine.touch(_:at:)`). They may stand anywhere after the
///   header, in time order with the samples around them (a touch line's time
///   is not before the sample above it nor after the one below); at equal
///   times the touch comes first. Added within version 1: a reader that
///   does not know them reads a comment.
///
/// Errors name the line and what is wrong.
public struct Trace: Equatable, Sendable {
    public struct Sample: Equatable, Sendable {
        /// Seconds.
        public var time: Double
        /// As recorded.
        public var raw: Vector3
        /// After offset, scale and mount matrix: m/s^2 in display axes.
        public var acceleration: Vector3
    }

    /// A contact on the screen beginning (`touching`) or the last one ending.
    public struct Touch: Equatable, Sendable {
        public var time: Double
        public var touching: Bool

        public init(time: Double, touching: Bool) {
            self.time = time
            self.touching = touching
        }
    }

    public static let header = "# tiltscroll trace 1"

    public var scale: Vector3
    public var offset: Vector3
    public var mountMatrix: MountMatrix
    public private(set) var samples: [Sample]
    /// In time order.
    public private(set) var touches: [Touch]

    /// A trace from raw samples (and touches, in time order); computes each
    /// sample's acceleration.
    public init(
        scale: Vector3 = Vector3(1, 1, 1), offset: Vector3 = .zero, mountMatrix: MountMatrix = .identity,
        raw: [(time: Double, raw: Vector3)], touches: [Touch] = []
    ) {
        self.scale = scale
        self.offset = offset
        self.mountMatrix = mountMatrix
        self.touches = touches
        samples = []
        samples.reserveCapacity(raw.count)
        for (time, r) in raw {
            samples.append(Sample(time: time, raw: r, acceleration: Self.acceleration(r, scale, offset, mountMatrix)))
        }
    }

    static func acceleration(_ raw: Vector3, _ scale: Vector3, _ offset: Vector3, _ m: MountMatrix) -> Vector3 {
        let scaled = Vector3((raw.x + offset.x) * scale.x, (raw.y + offset.y) * scale.y, (raw.z + offset.z) * scale.z)
        return m.apply(scaled)
    }

    /// Seconds from the first sample to the last.
    public var duration: Double {
        guard let first = samples.first, let last = samples.last else { return 0 }
        return last.time - first.time
    }

    /// Reads the text form described above.
    public static func parse(_ text: String) throws(TraceError) -> Trace {
        var scale: Vector3?
        var offset: Vector3?
        var matrix: MountMatrix?
        var raw: [(time: Double, raw: Vector3)] = []
        var touches: [Touch] = []
        var lineNumber = 0
        var sawHeader = false
        // "\r\n" is one Character in Swift: splitting on isNewline handles CRLF files.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }) {
            lineNumber += 1
            let line = DecimalNumber.trimmed(rawLine)
            if !sawHeader {
                if line.isEmpty, lineNumber == 1, text.allSatisfy({ $0.isWhitespace }) { break }
                try checkHeader(line, lineNumber)
                sawHeader = true
                continue
            }
            if line.isEmpty { continue }
            if line.first == "#" {
                let comment = DecimalNumber.trimmed(line.dropFirst())
                if comment.hasPrefix("touch:") {
                    let touch = try parseTouch(comment.dropFirst("touch:".count), lineNumber)
                    let previous = max(raw.last?.time ?? -Double.infinity, touches.last?.time ?? -Double.infinity)
                    if touch.time < previous {
                        throw TraceError(
                            line: lineNumber,
                            problem: "touch time \(touch.time) is earlier than the line before it (\(previous))")
                    }
                    touches.append(touch)
                    continue
                }
                guard let (key, value) = directive(comment) else { continue }
                guard raw.isEmpty else {
                    throw TraceError(line: lineNumber, problem: "'\(key):' must come before the first sample")
                }
                switch key {
                case "scale":
                    guard scale == nil else { throw TraceError(line: lineNumber, problem: "'scale:' given twice") }
                    scale = try axisValues(value, key, lineNumber)
                case "offset":
                    guard offset == nil else { throw TraceError(line: lineNumber, problem: "'offset:' given twice") }
                    offset = try axisValues(value, key, lineNumber)
                default:
                    guard matrix == nil else {
                        throw TraceError(line: lineNumber, problem: "'mount-matrix:' given twice")
                    }
                    do {
                        matrix = try MountMatrix(parsing: String(value))
                    } catch {
                        throw TraceError(line: lineNumber, problem: "mount-matrix: \(error.problem)")
                    }
                }
                continue
            }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 4 else {
                throw TraceError(
                    line: lineNumber, problem: "expected 4 fields 'time x y z', found \(fields.count)")
            }
            var numbers: (Double, Double, Double, Double) = (0, 0, 0, 0)
            for (i, field) in fields.enumerated() {
                guard let n = DecimalNumber.parse(field) else {
                    let name = ["time", "x", "y", "z"][i]
                    throw TraceError(line: lineNumber, problem: "\(name) '\(field)' is not a decimal number")
                }
                switch i {
                case 0: numbers.0 = n
                case 1: numbers.1 = n
                case 2: numbers.2 = n
                default: numbers.3 = n
                }
            }
            if let previous = raw.last?.time, numbers.0 < previous {
                throw TraceError(
                    line: lineNumber,
                    problem: "time \(fields[0]) is earlier than the previous sample's \(previous)")
            }
            if let touch = touches.last?.time, numbers.0 < touch {
                throw TraceError(
                    line: lineNumber, problem: "time \(fields[0]) is earlier than the touch line before it (\(touch))")
            }
            raw.append((numbers.0, Vector3(numbers.1, numbers.2, numbers.3)))
        }
        if !sawHeader { throw TraceError(line: 1, problem: "empty file; expected '\(header)'") }
        guard !raw.isEmpty else { throw TraceError(line: nil, problem: "the trace has no samples") }
        return Trace(
            scale: scale ?? Vector3(1, 1, 1), offset: offset ?? .zero, mountMatrix: matrix ?? .identity, raw: raw,
            touches: touches)
    }

    /// ` TIME begin` or ` TIME end` after `touch:`.
    private static func parseTouch(_ text: Substring, _ lineNumber: Int) throws(TraceError) -> Touch {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 2, let time = DecimalNumber.parse(fields[0]) else {
            throw TraceError(line: lineNumber, problem: "touch: expected 'TIME begin' or 'TIME end'")
        }
        switch fields[1] {
        case "begin": return Touch(time: time, touching: true)
        case "end": return Touch(time: time, touching: false)
        default:
            throw TraceError(line: lineNumber, problem: "touch: '\(fields[1])' is neither 'begin' nor 'end'")
        }
    }

    private static func checkHeader(_ line: Substring, _ lineNumber: Int) throws(TraceError) {
        if line == header { return }
        let prefix = "# tiltscroll trace "
        if line.hasPrefix(prefix) {
            let version = line.dropFirst(prefix.count)
            throw TraceError(line: lineNumber, problem: "unsupported trace version '\(version)'; this reader knows 1")
        }
        throw TraceError(line: lineNumber, problem: "expected '\(header)' as the first line")
    }

    private static func directive(_ comment: Substring) -> (key: String, value: Substring)? {
        for key in ["scale", "offset", "mount-matrix"] where comment.hasPrefix(key + ":") {
            return (key, comment.dropFirst(key.count + 1))
        }
        return nil
    }

    private static func axisValues(_ text: Substring, _ key: String, _ lineNumber: Int) throws(TraceError) -> Vector3 {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var values: [Double] = []
        for field in fields {
            guard let v = DecimalNumber.parse(field) else {
                throw TraceError(line: lineNumber, problem: "\(key): '\(field)' is not a decimal number")
            }
            values.append(v)
        }
        switch values.count {
        case 1: return Vector3(values[0], values[0], values[0])
        case 3: return Vector3(values[0], values[1], values[2])
        default:
            throw TraceError(line: lineNumber, problem: "\(key): expected 1 or 3 numbers, found \(values.count)")
        }
    }

    /// The text form: header, `comments` (one per line, "# " added), the
    /// directives that differ from their defaults, then one line per sample.
    public func text(comments: [String] = []) -> String {
        var out = Self.header + "\n"
        for c in comments { out += "# " + c + "\n" }
        if scale != Vector3(1, 1, 1) {
            out += "# scale: \(Self.number(scale.x)) \(Self.number(scale.y)) \(Self.number(scale.z))\n"
        }
        if offset != .zero {
            out += "# offset: \(Self.number(offset.x)) \(Self.number(offset.y)) \(Self.number(offset.z))\n"
        }
        if !mountMatrix.isIdentity { out += "# mount-matrix: \(mountMatrix)\n" }
        var touch = 0
        func writeTouches(through time: Double) {
            while touch < touches.count, touches[touch].time <= time {
                let t = touches[touch]
                out += "# touch: \(FixedPoint.format(t.time, decimals: 6)) \(t.touching ? "begin" : "end")\n"
                touch += 1
            }
        }
        for s in samples {
            writeTouches(through: s.time)
            out +=
                "\(FixedPoint.format(s.time, decimals: 6)) \(Self.number(s.raw.x)) \(Self.number(s.raw.y)) \(Self.number(s.raw.z))\n"
        }
        writeTouches(through: .infinity)
        return out
    }

    /// Integers without a fraction, other values in Swift's shortest round-trip form.
    private static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}

/// Why a trace could not be read.
public struct TraceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1-based line number, nil for a problem with the whole file.
    public var line: Int?
    public var problem: String

    public init(line: Int?, problem: String) {
        self.line = line
        self.problem = problem
    }

    public var description: String {
        if let line { return "line \(line): \(problem)" }
        return problem
    }
}
