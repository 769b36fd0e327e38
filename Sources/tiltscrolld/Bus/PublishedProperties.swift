import Glibc
import ScrollPhysics

/// The `State` property's name: what clients switch on. The quiet states of
/// an active daemon that the physics names map onto the contract's names in
/// `init(activeIn:)`; clients treat names they do not know like `active`.
enum ScrollingStateName: String, CaseIterable, Equatable {
    /// Not enabled, or not wanted by `[Activation]`.
    case off
    /// Wanted, but no sensor can be captured (none yet, or it keeps failing).
    case waitingForSensor = "waiting-for-sensor"
    /// Scrolling: in a hand (also while carried, when only a deliberate
    /// tilt scrolls).
    case active
    /// Active, lying still on something (or just picked up from it):
    /// nothing scrolls until it is held in a hand again.
    case resting
    /// Active, a finger or pen on a touchscreen: tilt paused.
    case touched
    /// Active, held still: the neutral pose follows a slow drift.
    case following

    /// The name of an active daemon whose intent guard is in `intent`
    /// (nil: not known yet, as before the first sample).
    init(activeIn intent: IntentState?) {
        switch intent {
        case .resting?, .lifting?: self = .resting
        case .touched?: self = .touched
        case .following?: self = .following
        case .holding?, .jostled?, nil: self = .active
        }
    }
}

/// The `TabletMode` property.
enum TabletModeReading: String, Equatable {
    case tablet
    case laptop
    /// No `SW_TABLET_MODE` switch (or `When=` does not read it).
    case unknown

    init(_ switchState: Bool?) {
        switch switchState {
        case true?: self = .tablet
        case false?: self = .laptop
        case nil: self = .unknown
        }
    }
}

/// The values of the interface's properties, as published on the bus. The
/// daemon rebuilds it only when something it is made of changed, and the
/// bus service emits `PropertiesChanged` for the members that differ from
/// the last published value: once per change, never per sample.
struct PublishedProperties: Equatable {
    var enabled: Bool
    var sensitivity: Double
    var active: Bool
    var state: ScrollingStateName
    /// The state's reason, in words for people.
    var stateReason: String
    var tabletMode: TabletModeReading
    /// The accelerometer in use, escaped as everywhere (`DisplayEscaping`);
    /// empty when none.
    var sensorName: String
    var sensorPath: String
    /// The edge of the display that is up, or "undefined" without a sensor.
    var orientation: String

    static let version = Commands.version
    static let undefinedOrientation = "undefined"

    /// The members whose values differ from `old`, in the interface's order.
    func changes(since old: PublishedProperties) -> [BusProperty] {
        BusProperty.allCases.filter { property in
            switch property {
            case .enabled: return enabled != old.enabled
            case .sensitivity: return sensitivity != old.sensitivity
            case .active: return active != old.active
            case .state: return state != old.state || stateReason != old.stateReason
            case .tabletMode: return tabletMode != old.tabletMode
            case .sensor: return sensorName != old.sensorName || sensorPath != old.sensorPath
            case .orientation: return orientation != old.orientation
            case .version: return false
            }
        }
    }

}

extension PublishedProperties {
    /// The values the daemon publishes; device strings are escaped here.
    init(
        enabled: Bool, sensitivity: Double, active: Bool, state: ScrollingStateName, stateReason: String,
        tabletMode: TabletModeReading, sensor: (name: DeviceText, path: DeviceText)?, orientation: ScreenOrientation?
    ) {
        self.enabled = enabled
        self.sensitivity = sensitivity
        self.active = active
        self.state = state
        self.stateReason = stateReason
        self.tabletMode = tabletMode
        self.sensorName = sensor.map { $0.name.description } ?? ""
        self.sensorPath = sensor.map { $0.path.description } ?? ""
        self.orientation = orientation?.rawValue ?? PublishedProperties.undefinedOrientation
    }
}

/// The properties of io.github.tiltscroll.TiltScroll1, in the order of the
/// interface (dbus/io.github.tiltscroll.TiltScroll1.xml).
enum BusProperty: CaseIterable, Equatable {
    case enabled, sensitivity, active, state, tabletMode, sensor, orientation, version

    /// The member name; static storage, as the vtable keeps the pointer.
    var member: StaticString {
        switch self {
        case .enabled: return "Enabled"
        case .sensitivity: return "Sensitivity"
        case .active: return "Active"
        case .state: return "State"
        case .tabletMode: return "TabletMode"
        case .sensor: return "Sensor"
        case .orientation: return "Orientation"
        case .version: return "Version"
        }
    }

    var signature: StaticString {
        switch self {
        case .enabled, .active: return "b"
        case .sensitivity: return "d"
        case .state, .sensor: return "(ss)"
        case .tabletMode, .orientation, .version: return "s"
        }
    }

    /// Whether callers may write it (after the polkit check).
    var isWritable: Bool { self == .enabled || self == .sensitivity }

    /// The member name as C sees it (the vtable's, `strcmp`'s).
    var cName: UnsafePointer<CChar> { UnsafeRawPointer(member.utf8Start).assumingMemoryBound(to: CChar.self) }

    /// The property named `name`, if the interface has one.
    static func named(_ name: String) -> BusProperty? {
        allCases.first { $0.member.description == name }
    }

    /// The same for a name where sd-bus holds it, without copying it.
    static func named(cString name: UnsafePointer<CChar>) -> BusProperty? {
        allCases.first { strcmp($0.cName, name) == 0 }
    }
}
