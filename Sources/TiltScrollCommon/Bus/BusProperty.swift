import Glibc
import ScrollPhysics

/// The value of one property, as the bus carries it.
public enum BusValue: Equatable {
    case boolean(Bool)
    case number(Double)
    case text(String)
    /// A `(ss)` structure.
    case pair(String, String)

    public func append(to message: BusMessage) throws(BusError) {
        switch self {
        case .boolean(let value): try message.append(value)
        case .number(let value): try message.append(value)
        case .text(let value): try message.append(value)
        case .pair(let first, let second):
            try message.open("r", "ss")
            try message.append(first)
            try message.append(second)
            try message.close()
        }
    }

    /// Reads a value of `signature` (one of the table's) where `message` stands.
    public static func read(_ signature: String, from message: BusMessage) throws(BusError) -> BusValue {
        switch signature {
        case "b": return .boolean(try message.readBool())
        case "d": return .number(try message.readDouble())
        case "s": return .text(try message.readString())
        case "(ss)":
            try message.enter("r", "ss")
            let first = try message.readString()
            let second = try message.readString()
            try message.exit()
            return .pair(first, second)
        default:
            throw BusError(name: BusError.invalidArguments, message: "no property has the signature \(signature)")
        }
    }

    /// The value in JSON: pairs as two-element arrays.
    public var json: String {
        switch self {
        case .boolean(let value): "\(value)"
        case .number(let value): value.isFinite ? "\(value)" : "null"
        case .text(let value): JSONText.string(value)
        case .pair(let first, let second): "[\(JSONText.string(first)), \(JSONText.string(second))]"
        }
    }
}

/// What a caller may change through a writable property.
public enum SettingChange: Equatable {
    case enabled(Bool)
    case sensitivity(Double)

    /// The polkit action that guards it.
    public var action: BusAction {
        switch self {
        case .enabled: .switchScrolling
        case .sensitivity: .setSensitivity
        }
    }
}

/// One property of io.github.tiltscroll.TiltScroll1, and the one place
/// that says everything about it: its name and type, how the daemon reads
/// it from its snapshot, whether and how a caller changes it, and how a
/// person sees it. The table (`all`) drives the daemon's vtable, getters,
/// setters and `PropertiesChanged`, and the client's parsing, its lines for
/// people and its JSON. A new property is a row here, with its
/// documentation in dbus/io.github.tiltscroll.TiltScroll1.xml.
public struct BusProperty: Sendable {
    /// How callers may change it: the polkit action, and the change a
    /// written value makes (or why it cannot).
    public struct Writable: Sendable {
        public var action: BusAction
        public var change: @Sendable (BusValue) throws(BusError) -> SettingChange
    }

    /// The member name; static storage, as the vtable keeps the pointer.
    public let member: StaticString
    public let signature: StaticString
    /// Never changes while the daemon runs (`SD_BUS_VTABLE_PROPERTY_CONST`);
    /// the others emit `PropertiesChanged`.
    public let isConstant: Bool
    /// Nil for read-only properties.
    public let writable: Writable?
    /// The daemon's value, from its snapshot.
    public let read: @Sendable (DaemonSnapshot) -> BusValue
    /// The label of the line a person sees (`tiltscrollctl status`).
    public let label: String
    /// The value as that line shows it.
    public let show: @Sendable (BusValue) -> String

    public var name: String { member.description }
    public var isWritable: Bool { writable != nil }

    /// The member name as C sees it (the vtable's, `strcmp`'s).
    public var cName: UnsafePointer<CChar> { UnsafeRawPointer(member.utf8Start).assumingMemoryBound(to: CChar.self) }

    /// The properties in the interface's order.
    public static let all: [BusProperty] = [
        BusProperty(
            member: "Enabled", signature: "b", isConstant: false,
            writable: Writable(action: .switchScrolling) { (value) throws(BusError) in
                guard case .boolean(let on) = value else { throw wrongType("Enabled", "a boolean") }
                return .enabled(on)
            },
            read: { .boolean($0.controls.enabled) }, label: "Enabled", show: yesNo),
        BusProperty(
            member: "Sensitivity", signature: "d", isConstant: false,
            writable: Writable(action: .setSensitivity) { (value) throws(BusError) in
                guard case .number(let factor) = value else { throw wrongType("Sensitivity", "a number") }
                if let problem = UserControls.problem(withSensitivity: factor) {
                    throw BusError(name: BusError.invalidArguments, message: problem)
                }
                return .sensitivity(factor)
            },
            read: { .number($0.controls.sensitivity) }, label: "Sensitivity",
            show: { value in
                guard case .number(let factor) = value else { return "\(value)" }
                return "\(factor) (a factor on [Scroll] Speed=)"
            }),
        BusProperty(
            member: "Active", signature: "b", isConstant: false, writable: nil, read: { .boolean($0.isActive) },
            label: "Active", show: yesNo),
        BusProperty(
            member: "State", signature: "(ss)", isConstant: false, writable: nil,
            read: { .pair($0.stateName.rawValue, $0.statusLine) }, label: "State",
            show: { value in
                guard case .pair(let name, let reason) = value else { return "\(value)" }
                return "\(name) (\(reason))"
            }),
        BusProperty(
            member: "TabletMode", signature: "s", isConstant: false, writable: nil,
            read: { .text(TabletModeReading($0.tabletMode).rawValue) }, label: "Tablet mode", show: plain),
        BusProperty(
            member: "TabletModeSource", signature: "s", isConstant: false, writable: nil,
            read: { .text($0.tabletModeSource.rawValue) }, label: "Mode source",
            show: { value in
                guard case .text(let source) = value else { return "\(value)" }
                switch TabletModeSource(rawValue: source) {
                case .switch?: return "the tablet-mode switch"
                case .hinge?: return "the hinge angle (the display's and the base's accelerometers)"
                case .none?: return "nothing (no tablet-mode switch, or When= does not ask)"
                case nil: return source
                }
            }),
        BusProperty(
            member: "Sensor", signature: "(ss)", isConstant: false, writable: nil,
            read: { sensorPair($0.sensor) }, label: "Sensor", show: sensorLine),
        BusProperty(
            member: "BaseSensor", signature: "(ss)", isConstant: false, writable: nil,
            read: { sensorPair($0.baseSensor) }, label: "Base sensor", show: sensorLine),
        BusProperty(
            member: "Orientation", signature: "s", isConstant: false, writable: nil,
            read: { .text($0.orientation?.rawValue ?? undefinedOrientation) }, label: "Orientation", show: plain),
        BusProperty(
            member: "Version", signature: "s", isConstant: true, writable: nil, read: { _ in .text(version) },
            label: "Version", show: plain),
    ]

    public static let version = DaemonVersion.string
    public static let undefinedOrientation = "undefined"

    /// The property named `name`, if the interface has one.
    public static func named(_ name: String) -> BusProperty? {
        all.first { $0.name == name }
    }

    /// The same for a name where sd-bus holds it, without copying it.
    public static func named(cString name: UnsafePointer<CChar>) -> BusProperty? {
        all.first { strcmp($0.cName, name) == 0 }
    }

    /// The members whose values differ between two snapshots, in the
    /// interface's order.
    public static func changes(from old: DaemonSnapshot, to new: DaemonSnapshot) -> [BusProperty] {
        all.filter { !$0.isConstant && $0.read(old) != $0.read(new) }
    }

    private static func wrongType(_ member: String, _ kind: String) -> BusError {
        BusError(name: BusError.invalidArguments, message: "\(member) takes \(kind)")
    }

    private static func yesNo(_ value: BusValue) -> String {
        guard case .boolean(let on) = value else { return "\(value)" }
        return on ? "yes" : "no"
    }

    /// A sensor as `(ss)`: its name and sysfs path; ("", "") for none.
    private static func sensorPair(_ sensor: SensorIdentity?) -> BusValue {
        .pair(sensor?.name.description ?? "", sensor?.path.description ?? "")
    }

    private static func sensorLine(_ value: BusValue) -> String {
        guard case .pair(let name, let path) = value else { return "\(value)" }
        return name.isEmpty ? "none" : "\(name) (\(path))"
    }

    private static func plain(_ value: BusValue) -> String {
        guard case .text(let text) = value else { return "\(value)" }
        return text
    }
}

/// The `TabletMode` property; `TabletModeSource` says where it comes from.
public enum TabletModeReading: String, Equatable {
    case tablet
    case laptop
    /// Nothing tells it: no `SW_TABLET_MODE` switch and no hinge angle (or
    /// `When=` does not ask), or the hinge angle not decided yet or not
    /// read (scrolling is off anyway).
    case unknown

    public init(_ state: Bool?) {
        switch state {
        case true?: self = .tablet
        case false?: self = .laptop
        case nil: self = .unknown
        }
    }
}

/// Text as a JSON string: quotes, backslashes and control characters escaped.
public enum JSONText {
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
