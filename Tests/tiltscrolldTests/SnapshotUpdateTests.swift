import ScrollPhysics
import Testing

@testable import TiltScrollCommon

/// `DaemonSnapshot.update`, the loop's every-round question, compares the
/// parts where they stand instead of building a snapshot to compare: each
/// part must be one of its parameters and compared, or a change of it
/// would never reach the status, the bus or the monitor.
@Suite struct DaemonSnapshotUpdate {
    struct Parts {
        var phase = DaemonSnapshot.Phase.active(.poll, .holding)
        var sensor: SensorIdentity? = SensorIdentity(name: "kxcj91008", path: "/sys/devices/i2c-0/0-000f/iio:device0")
        var controls = UserControls(enabled: true, sensitivity: 1)
        var tabletMode: Bool? = true
        var tabletModeSource = TabletModeSource.hinge
        var baseSensor: SensorIdentity? = SensorIdentity(
            name: "bmc150_accel", path: "/sys/devices/i2c-0/0-0010/iio:device1")
        var orientation: ScreenOrientation? = .normal
        var configurationProblem: String? = nil

        func update(_ snapshot: inout DaemonSnapshot) -> DaemonSnapshot? {
            snapshot.update(
                phase: phase, sensor: sensor, controls: controls, tabletMode: tabletMode,
                tabletModeSource: tabletModeSource, baseSensor: baseSensor, orientation: orientation,
                configurationProblem: configurationProblem)
        }

        func plainlyMatches(_ snapshot: DaemonSnapshot) -> Bool {
            snapshot.plainlyMatches(
                phase: phase, sensor: sensor.map(ObjectIdentifier.init), controls: controls, tabletMode: tabletMode,
                tabletModeSource: tabletModeSource, baseSensor: baseSensor.map(ObjectIdentifier.init),
                orientation: orientation, hasConfigurationProblem: configurationProblem != nil)
        }
    }

    static let changes: [(String, @Sendable (inout Parts) -> Void)] = [
        ("phase", { $0.phase = .active(.poll, .resting) }),
        ("sensor", { $0.sensor = SensorIdentity(name: "lis3dh", path: "/sys/devices/i2c-0/0-0018/iio:device0") }),
        ("controls", { $0.controls.sensitivity = 1.5 }),
        ("tabletMode", { $0.tabletMode = false }),
        ("tabletModeSource", { $0.tabletModeSource = .switch }),
        ("baseSensor", { $0.baseSensor = nil }),
        ("orientation", { $0.orientation = .leftUp }),
        ("configurationProblem", { $0.configurationProblem = "line 3: unknown key" }),
    ]

    @Test func everyStoredPartIsAParameter() {
        let stored = Mirror(reflecting: DaemonSnapshot.sample).children.compactMap(\.label)
        #expect(stored.sorted() == Self.changes.map(\.0).sorted())
    }

    @Test func updatingEachPartIsNews() {
        for (name, change) in Self.changes {
            let parts = Parts()
            var snapshot = DaemonSnapshot.sample
            _ = parts.update(&snapshot)
            let before = snapshot
            var changed = parts
            change(&changed)
            let old = changed.update(&snapshot)
            #expect(old == before, "a change of \(name) returns the snapshot as it was")
            #expect(snapshot != before, "a change of \(name) is in the snapshot")
            #expect(changed.update(&snapshot) == nil, "\(name) given again is no news")
        }
    }

    @Test func theSamePartsAreNoNewsAndLeaveTheSnapshotAsItWas() {
        let parts = Parts()
        var snapshot = DaemonSnapshot.sample
        _ = parts.update(&snapshot)
        let before = snapshot
        #expect(parts.update(&snapshot) == nil)
        #expect(snapshot == before)
        // An equal identity that is another object is no news either.
        var copied = parts
        copied.sensor = SensorIdentity(name: "kxcj91008", path: "/sys/devices/i2c-0/0-000f/iio:device0")
        #expect(copied.update(&snapshot) == nil)
    }

    /// The loop's quick look before `update`: never yes when a part
    /// changed, yes when the very same parts are given again.
    @Test func theQuickLookNeverMissesAChange() {
        for (name, change) in Self.changes {
            let parts = Parts()
            var snapshot = DaemonSnapshot.sample
            _ = parts.update(&snapshot)
            #expect(parts.plainlyMatches(snapshot), "the same parts, before \(name) changes")
            var changed = parts
            change(&changed)
            #expect(!changed.plainlyMatches(snapshot), "a change of \(name) is not plainly the snapshot")
        }
    }

    /// What the quick look cannot tell (an equal sensor that is another
    /// object, a configuration problem's text) it leaves to `update`.
    @Test func theQuickLookLeavesWhatItCannotTellToUpdate() {
        let parts = Parts()
        var snapshot = DaemonSnapshot.sample
        _ = parts.update(&snapshot)
        var copied = parts
        copied.sensor = SensorIdentity(name: "kxcj91008", path: "/sys/devices/i2c-0/0-000f/iio:device0")
        #expect(!copied.plainlyMatches(snapshot))
        #expect(copied.update(&snapshot) == nil)
        var troubled = parts
        troubled.configurationProblem = "line 3: unknown key"
        _ = troubled.update(&snapshot)
        #expect(!troubled.plainlyMatches(snapshot))
        #expect(troubled.update(&snapshot) == nil)
    }
}
