import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct AuthorizationOrder {
    let granted = AuthorizationVerdict.granted(BusCaller(sender: ":1.7", uid: 1000))
    let refused = AuthorizationVerdict.refused(BusError(name: BusError.accessDenied, message: "no"))

    @Test func aCallersChangesAreReleasedInTheOrderSentWhateverOrderTheyAreDecided() {
        var queue = AuthorizationQueue()
        let first = queue.admit(sender: ":1.7")!
        let second = queue.admit(sender: ":1.7")!
        let third = queue.admit(sender: ":1.7")!
        #expect(queue.decide(third, granted).isEmpty)
        #expect(queue.decide(second, refused).isEmpty)
        #expect(queue.decide(first, granted).map(\.id) == [first, second, third])
        #expect(queue.isEmpty)
    }

    @Test func anotherCallerIsNotHeldUp() {
        var queue = AuthorizationQueue()
        let slow = queue.admit(sender: ":1.7")!
        let fast = queue.admit(sender: ":1.9")!
        #expect(queue.decide(fast, granted).map(\.id) == [fast])
        #expect(queue.decide(slow, refused).map(\.verdict) == [refused])
    }

    @Test func aVerdictIsTakenOnceAndUnknownIdsAreIgnored() {
        var queue = AuthorizationQueue()
        let id = queue.admit(sender: ":1.7")!
        #expect(queue.decide(id + 1, granted).isEmpty)
        #expect(queue.decide(id, granted).count == 1)
        #expect(queue.decide(id, refused).isEmpty)
    }

    @Test func callersAndTheWholeQueueAreBounded() {
        var queue = AuthorizationQueue()
        for _ in 0..<AuthorizationQueue.perCallerLimit { #expect(queue.admit(sender: ":1.7") != nil) }
        #expect(queue.admit(sender: ":1.7") == nil)
        var others = 1
        while queue.admit(sender: ":2.\(others)") != nil { others += 1 }
        #expect(queue.entries.count == AuthorizationQueue.limit)
    }
}

@Suite struct PolkitVerdicts {
    let caller = BusCaller(sender: ":1.42", uid: 1000)

    @Test func authorizedIsGranted() {
        #expect(
            PolkitAnswer.verdict(authorized: true, challenge: false, action: .switchScrolling, caller: caller)
                == .granted(caller))
    }

    @Test func notAuthorizedIsAccessDeniedNamingTheActionAndTheCaller() {
        guard
            case .refused(let error) = PolkitAnswer.verdict(
                authorized: false, challenge: false, action: .setSensitivity, caller: caller)
        else {
            Issue.record("granted")
            return
        }
        #expect(error.name == BusError.accessDenied)
        #expect(error.message.contains("io.github.tiltscroll.set-sensitivity") && error.message.contains("uid 1000"))
    }

    @Test func aChallengeIsRefusedToo() {
        guard
            case .refused(let error) = PolkitAnswer.verdict(
                authorized: false, challenge: true, action: .calibrate, caller: caller)
        else {
            Issue.record("granted")
            return
        }
        #expect(error.name == BusError.accessDenied && error.message.contains("authentication"))
    }

    @Test func polkitMissingOrSilentIsItsOwnError() {
        for failure in [
            BusError(name: BusError.serviceUnknown, message: "The name org.freedesktop.PolicyKit1 was not provided"),
            BusError(name: "org.freedesktop.DBus.Error.NoReply", message: "Method call timed out"),
            BusError(name: "org.freedesktop.systemd1.UnitMasked", message: "Unit polkit.service is masked."),
        ] {
            guard
                case .refused(let error) = PolkitAnswer.verdict(callFailed: failure, action: .calibrate, caller: caller)
            else {
                Issue.record("granted")
                continue
            }
            #expect(error.name == BusError.polkitUnavailable)
            #expect(error.message.contains(failure.name) && error.message.contains("only root"))
        }
    }

    @Test func polkitsOwnErrorIsItsRefusal() {
        let failure = BusError(name: "org.freedesktop.PolicyKit1.Error.Failed", message: "no such subject")
        #expect(
            PolkitAnswer.verdict(callFailed: failure, action: .calibrate, caller: caller)
                == .refused(
                    BusError(
                        name: BusError.accessDenied,
                        message:
                            "Not authorized to re-centre tilt scrolling: polkit refused to check uid 1000 (:1.42): "
                            + "org.freedesktop.PolicyKit1.Error.Failed: no such subject")))
    }
}

@Suite struct BusPropertyTable {
    func value(_ name: String, of snapshot: DaemonSnapshot) -> BusValue? {
        BusProperty.named(name)?.read(snapshot)
    }

    @Test func onlyWhatDiffersIsNamedInTheInterfacesOrder() {
        var changed = DaemonSnapshot.sample
        #expect(BusProperty.changes(from: .sample, to: changed).isEmpty)
        changed.orientation = .leftUp
        changed.controls.enabled = false
        changed.phase = .active(.poll, .resting)
        #expect(BusProperty.changes(from: .sample, to: changed).map(\.name) == ["Enabled", "State", "Orientation"])
    }

    @Test func noSensorReadsAsEmptyAndUndefined() {
        let none = DaemonSnapshot(phase: .waitingForSensor(nil), controls: UserControls(enabled: true, sensitivity: 1))
        #expect(value("Sensor", of: none) == .pair("", ""))
        #expect(value("Orientation", of: none) == .text("undefined"))
        #expect(value("Active", of: none) == .boolean(false))
        #expect(value("State", of: none) == .pair("waiting-for-sensor", "Waiting for an accelerometer"))
    }

    @Test func theSensorsStringsAreShownEscapedAndBounded() {
        let hostile = DeviceText("kx\u{1b}[2J\u{1b}]0;owned\u{07}\u{7f}\u{9b}" + String(repeating: "é", count: 5000))
        var shown = DaemonSnapshot.sample
        shown.sensor = SensorIdentity(name: hostile, path: "/sys/devices/iio:device0")
        guard case .pair(let name, let path)? = value("Sensor", of: shown) else {
            Issue.record("Sensor is a pair")
            return
        }
        #expect(name.hasPrefix("kx\\x1b[2J\\x1b]0;owned\\x07\\x7f\\xc2\\x9b"))
        #expect(!name.utf8.contains { $0 < 0x20 || $0 == 0x7f })
        #expect(name.hasSuffix("…") && name.utf8.count <= DisplayEscaping.fieldLimit)
        #expect(path == "/sys/devices/iio:device0")
    }

    @Test func aWriteBecomesAChangeOrTheCallersError() throws {
        let enabled = try #require(BusProperty.named("Enabled")?.writable)
        #expect(try enabled.change(.boolean(false)) == .enabled(false))
        #expect(enabled.action == .switchScrolling)
        let sensitivity = try #require(BusProperty.named("Sensitivity")?.writable)
        #expect(try sensitivity.change(.number(2)) == .sensitivity(2))
        for bad in [0.1, 9, .nan, .infinity, -1] {
            #expect(throws: BusError.self) { try sensitivity.change(.number(bad)) }
        }
        #expect(throws: BusError.self) { try sensitivity.change(.text("2")) }
    }

    @Test func theQuietStatesOfAnActiveDaemonHaveTheContractsNames() {
        let names = IntentState.allCases.map { ScrollingStateName(activeIn: $0).rawValue }
        #expect(
            zip(IntentState.allCases, names).map { "\($0.0)=\($0.1)" } == [
                "holding=active", "following=following", "jostled=active", "resting=resting",
                "lifting=resting", "touched=touched",
            ])
        #expect(ScrollingStateName(activeIn: nil) == .active)
        #expect(
            ScrollingStateName.allCases.map(\.rawValue) == [
                "off", "waiting-for-sensor", "active", "resting", "touched", "following", "paused",
            ])
    }

    @Test func tabletModeReadings() {
        #expect(
            TabletModeReading(true) == .tablet && TabletModeReading(false) == .laptop
                && TabletModeReading(nil) == .unknown)
        #expect(TabletModeSource.allCases.map(\.rawValue) == ["switch", "hinge", "none"])
    }

    @Test func theTabletModeSaysWhereItComesFromAndTheBaseSensorIsNamed() {
        var snapshot = DaemonSnapshot(
            phase: .off(ActivationInputs(mode: .auto, enabled: true)),
            controls: .init(
                enabled: true, sensitivity: 1))
        #expect(value("TabletModeSource", of: snapshot) == .text("none"))
        #expect(value("BaseSensor", of: snapshot) == .pair("", ""))
        snapshot.tabletMode = false
        #expect(value("TabletModeSource", of: snapshot) == .text("none"), "set apart from the mode")
        snapshot.tabletModeSource = .hinge
        snapshot.baseSensor = SensorIdentity(name: "bmc150_accel", path: "/sys/devices/i2c-0/0-0010/iio:device1")
        #expect(value("TabletMode", of: snapshot) == .text("laptop"))
        #expect(value("TabletModeSource", of: snapshot) == .text("hinge"))
        #expect(value("BaseSensor", of: snapshot) == .pair("bmc150_accel", "/sys/devices/i2c-0/0-0010/iio:device1"))
        #expect(
            BusProperty.changes(from: DaemonSnapshot(phase: snapshot.phase, controls: snapshot.controls), to: snapshot)
                .map(\.name) == ["TabletMode", "TabletModeSource", "BaseSensor"])
    }

    @Test func everyPropertyHasAMemberAndASignature() {
        #expect(
            BusProperty.all.map(\.name) == [
                "Enabled", "Sensitivity", "Active", "State", "TabletMode", "TabletModeSource", "Sensor", "BaseSensor",
                "Orientation", "Version",
            ])
        #expect(BusProperty.named("Sensitivity")?.name == "Sensitivity" && BusProperty.named("sensitivity") == nil)
        #expect(BusProperty.all.filter(\.isWritable).map(\.name) == ["Enabled", "Sensitivity"])
        #expect(BusProperty.all.filter(\.isConstant).map(\.name) == ["Version"])
    }
}

@Suite struct BusDeadlines {
    @Test func aMonotonicDeadlineIsTheSameDistanceAwayOnTheDaemonsClock() {
        // Monotonic now 100 s, deadline at 102.5 s; the boot clock is 40 s ahead (suspended).
        let deadline = BusConnection.daemonDeadline(
            monotonicMicroseconds: 102_500_000, monotonicNow: 100_000_000_000, daemonNow: 140)
        #expect(abs(deadline - 142.5) < 1e-9)
        #expect(
            BusConnection.daemonDeadline(monotonicMicroseconds: 1, monotonicNow: 100_000_000_000, daemonNow: 140)
                == 140)
    }
}

@Suite struct UserControlsFile {
    @Test func formatThenParseGivesTheControlsBack() throws {
        for controls in [
            UserControls(enabled: true, sensitivity: 1), UserControls(enabled: false, sensitivity: 0.25),
            UserControls(enabled: true, sensitivity: 3.3333333333333335),
        ] {
            #expect(try UserControlsFormat.parse(UserControlsFormat.format(controls)) == controls)
        }
    }

    @Test func theFileReadsLikeTheManPageSays() {
        #expect(
            UserControlsFormat.format(UserControls(enabled: false, sensitivity: 1.5)) == """
                # tiltscroll controls (tiltscrolld(8), FILES); written by tiltscrolld
                version=1
                enabled=no
                sensitivity=1.5

                """)
    }

    @Test func aBadFileSaysWhereAndWhy() {
        let cases: [(String, RecordFormatError)] = [
            (
                "version=1\nenabled=maybe\nsensitivity=1\n",
                .init(line: 2, message: "enabled must be yes or no, got 'maybe'")
            ),
            (
                "version=1\nenabled=yes\nsensitivity=9\n",
                .init(line: 3, message: "Sensitivity must be a number from 0.25 to 4, got 9.0")
            ),
            (
                "version=1\nenabled=yes\nsensitivity=nan\n",
                .init(line: 3, message: "'nan' is not a finite decimal number")
            ),
            (
                "version=2\nenabled=yes\nsensitivity=1\n",
                .init(line: 1, message: "version '2' is not 1 (another tiltscroll wrote it)")
            ),
            ("version=1\nenabled=yes\n", .init(message: "'sensitivity' is missing")),
            (
                "version=1\nenabled=yes\nenabled=no\nsensitivity=1\n",
                .init(line: 3, message: "'enabled' given twice (first on line 2)")
            ),
            ("version=1\nenabled=yes\nsensitivity=1\nspeed=3\n", .init(line: 4, message: "unknown key 'speed'")),
            ("garbage\n", .init(line: 1, message: "expected key=value, got 'garbage'")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected) { try UserControlsFormat.parse(text) }
        }
    }

    @Test func aFirstStartFollowsWhen() {
        #expect(UserControls.initial(for: .manual) == UserControls(enabled: false, sensitivity: 1))
        #expect(UserControls.initial(for: .auto) == UserControls(enabled: true, sensitivity: 1))
    }

    @Test func theSensitivityScalesSpeed() {
        var settings = ScrollSettings()
        settings.speed = 12
        #expect(UserControls(enabled: true, sensitivity: 0.5).applied(to: settings).speed == 6)
    }
}
