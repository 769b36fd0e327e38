import Glibc
import ScrollPhysics
import SyntheticMotion
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

extension HingedMotion {
    /// The display held in a hand at a reading angle (35 degrees), tilted
    /// 12 degrees away at each of `tilts` for 3 s; the lid open as `folds` say.
    static func handling(folds: [Fold], tilts: [Double] = []) -> HingedMotion {
        var keys: [MotionScript.Keyframe] = [.init(0, pitch: 35)]
        for at in tilts {
            keys += [
                .init(at, pitch: 35), .init(at + 0.5, pitch: 47), .init(at + 3, pitch: 47), .init(at + 3.5, pitch: 35),
            ]
        }
        keys.append(.init(600, pitch: 35))
        return HingedMotion(display: MotionScript(keys), folds: folds)
    }

    /// A laptop (110 degrees) folded flat into a tablet (355, or `to`)
    /// over 1.5 s from each time of `foldAt`, and back over 1.5 s from each
    /// of `unfoldAt`.
    static func folds(at foldAt: [Double], to folded: Double = 355, unfoldAt: [Double] = []) -> [Fold] {
        var moves = foldAt.map { ($0, 110.0, folded) } + unfoldAt.map { ($0, folded, 110.0) }
        moves.sort { $0.0 < $1.0 }
        var folds = [Fold(0, degrees: 110)]
        for (at, from, to) in moves { folds += [Fold(at, degrees: from), Fold(at + 1.5, degrees: to)] }
        folds.append(Fold(600, degrees: folds.last!.degrees))
        return folds
    }
}

extension DaemonRig {
    /// Runs until the daemon's state is `name`, at most `seconds`; the
    /// seconds from `since` (from the start) it took, nil when it did not come.
    func secondsUntil(state name: String, since: Double, atMost seconds: Double) -> Double? {
        run(atMost: seconds) { state == name } ? self.seconds - since : nil
    }

    /// Rounds of the loop (wake-ups) from now to `seconds` from the start,
    /// the test's own step at the end included.
    func wakeUps(until seconds: Double) -> Int {
        let before = platform.wakeUps
        run(until: seconds)
        return platform.wakeUps - before
    }

    var tabletSwitch: FakeTabletSwitch? { platform.tabletSwitches.last }
}

/// Issue 25 on the daemon's real loop: a person handles a convertible with
/// an accelerometer in the display and one in the base and no tablet-mode
/// switch; the hinge angle tells tablet mode (`PostureWatch`).
@Suite struct DaemonHinge {
    @Test func foldedPastTheThresholdItScrollsAndUnfoldedItStops() throws {
        let rig = DaemonRig()
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [4], unfoldAt: [14]), tilts: [8]))
        #expect(rig.start())
        rig.run(until: 1.5)
        #expect(rig.state == "off" && rig.platform.outputs.isEmpty, "a laptop does not scroll")
        #expect(rig.snapshot.tabletMode == false && rig.snapshot.tabletModeSource == .hinge)
        #expect(rig.snapshot.statusLine == "Scrolling off: not in tablet mode (the hinge angle says laptop)")
        #expect(
            rig.snapshot.baseSensor
                == SensorIdentity(name: "bmc150_accel", path: "/sys/devices/fake/i2c-0/0-0010/iio:device1"))
        #expect(rig.snapshot.sensor?.name == "kxcj91008", "the display's scrolls")
        #expect(rig.baseSensor?.isCaptured == true && rig.displaySensor.isCaptured, "both read, at the pair rate")
        #expect(rig.platform.capture?.fullRate == HingePostureDetector.decidingRate)

        // Folded over 4-5.5 s: scrolling within a second of the fold's end.
        rig.run(until: 5.5)
        #expect(rig.platform.outputs.isEmpty, "not before the fold is done")
        let on = try #require(rig.secondsUntil(state: "active", since: 5.5, atMost: 3))
        #expect(on <= 1.0, "decided \(on) s after the fold")
        #expect(rig.snapshot.tabletMode == true && rig.snapshot.tabletModeSource == .hinge)
        #expect(rig.platform.bus?.published.last?.tabletMode == true)
        let session = try #require(rig.platform.capture)
        #expect(session.fullRate == 50, "the scrolling capture at the configured rate")
        #expect(rig.platform.captures.dropLast().allSatisfy { $0.released || $0.sensor.readsOnDemand })

        // Held still, nothing; tilted 12 degrees at 8 s, it scrolls.
        rig.run(until: 12)
        #expect(rig.scrolled(from: 0, to: 8) == 0, "the fold itself scrolls nothing")
        #expect(abs(rig.scrolled(from: 9, to: 11)) > 2 * 120)

        // Unfolded over 14-15.5 s: off within a second, the wheel gone.
        rig.run(until: 15.5)
        let off = try #require(rig.secondsUntil(state: "off", since: 15.5, atMost: 3))
        #expect(off <= 1.0, "decided \(off) s after the unfold")
        #expect(rig.platform.outputs.count == 1 && rig.platform.output?.closed == true)
        #expect(session.released && rig.displaySensor.isCaptured, "the watch's own capture took over")
        #expect(rig.snapshot.tabletMode == false)
    }

    @Test func withWhenTabletModeItScrollsOnlyFolded() throws {
        let rig = DaemonRig()
        rig.configuration.activation.when = .tabletMode
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [3], unfoldAt: [8])))
        #expect(rig.start())
        rig.run(until: 2)
        #expect(rig.state == "off" && rig.snapshot.tabletModeSource == .hinge)
        rig.run(until: 4.5)
        #expect(try #require(rig.secondsUntil(state: "active", since: 4.5, atMost: 3)) <= 1.0)
        rig.run(until: 9.5)
        #expect(try #require(rig.secondsUntil(state: "off", since: 9.5, atMost: 3)) <= 1.0)
    }

    /// Until the hinge first tells, `When=auto` keeps scrolling off: a
    /// laptop never scrolls for the moment it takes to tell.
    @Test func nothingOpensBeforeTheFirstDecision() {
        let rig = DaemonRig()
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [])))
        #expect(rig.start())
        #expect(rig.snapshot.tabletMode == nil && rig.snapshot.tabletModeSource == .hinge)
        #expect(rig.snapshot.statusLine == "Scrolling off: telling tablet mode from the hinge angle")
        #expect(rig.run(atMost: 1) { rig.snapshot.tabletMode == false }, "laptop within a second of the start")
        rig.run(until: 3)
        #expect(rig.platform.outputs.isEmpty && rig.platform.captures.allSatisfy { $0.fullRate <= 5 })
    }

    /// The hinge held near vertical (the display turned on its side, 2-3
    /// s) shows no angle: folded meanwhile (4-5.5 s) into a stand, nothing
    /// changes until it is turned back level (12-13 s). (Folded flat, the
    /// angle near 360 would not show which way the lid went, unseen: it
    /// would read as closed.)
    @Test func aHingeHeldVerticalChangesNothing() throws {
        let rig = DaemonRig()
        let display = MotionScript([
            .init(0, pitch: 35), .init(2, pitch: 35), .init(3, pitch: 35, roll: 80), .init(12, pitch: 35, roll: 80),
            .init(13, pitch: 35), .init(600, pitch: 35),
        ])
        rig.hold(HingedMotion(display: display, folds: HingedMotion.folds(at: [4], to: 290)))
        #expect(rig.start())
        rig.run(until: 2)
        #expect(rig.snapshot.tabletMode == false)
        let published = rig.platform.bus?.published.count ?? 0
        rig.run(until: 12)
        #expect(rig.state == "off" && rig.platform.outputs.isEmpty, "folded while vertical: still a laptop")
        #expect(rig.snapshot.tabletMode == false && rig.daemon.posture.detector.phase.name == "blind")
        #expect(rig.platform.bus?.published.count == published, "nothing changed on the bus")
        #expect(try #require(rig.secondsUntil(state: "active", since: 13, atMost: 4)) <= 1.0, "level, the fold shows")
    }

    @Test func aTabletModeSwitchTakesPrecedenceAndTheBaseIsNeverRead() throws {
        let rig = DaemonRig()
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [2])))
        let hinge = FakeSwitch(tabletMode: false)
        rig.platform.switches = [hinge]
        #expect(rig.start())
        rig.run(until: 6)
        #expect(rig.state == "off" && rig.platform.captures.isEmpty, "folded, but the switch says laptop")
        #expect(rig.snapshot.tabletModeSource == .switch && rig.snapshot.baseSensor == nil)
        rig.platform.at(DaemonRig.start + 6) { hinge.flip(to: true) }
        rig.run(until: 7)
        #expect(rig.state == "active" && rig.baseSensor?.opened == 0)
    }

    @Test func switchedOffTheBaseIsLetGoOfAndNothingWakesTheDaemon() throws {
        let rig = DaemonRig()
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [6])))
        #expect(rig.start())
        let bus = try #require(rig.platform.bus)
        rig.run(until: 2)
        #expect(rig.baseSensor?.isCaptured == true)
        rig.platform.at(DaemonRig.start + 2) { bus.ask(.change(.enabled(false), by: "test")) }
        rig.run(until: 2.5)
        #expect(rig.baseSensor?.isCaptured == false && !rig.displaySensor.isCaptured, "both let go of")
        #expect(rig.snapshot.tabletMode == nil && rig.snapshot.tabletModeSource == .hinge)
        #expect(rig.daemon.nextDeadline(now: rig.now) == nil)
        #expect(rig.wakeUps(until: 10) == 1, "folded meanwhile, nothing woke it but the test's own step")
        // On again, folded: it tells tablet mode afresh, and scrolls.
        rig.platform.at(DaemonRig.start + 10) { bus.ask(.change(.enabled(true), by: "test")) }
        rig.run(until: 10.01)
        #expect(try #require(rig.secondsUntil(state: "active", since: 10, atMost: 3)) <= 1.0)
    }

    @Test func withWhenAlwaysTheBaseIsNeverRead() {
        let rig = DaemonRig()
        rig.configuration.activation.when = .always
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [2])))
        #expect(rig.start())
        rig.run(until: 5)
        #expect(rig.state == "active" && rig.baseSensor?.opened == 0)
        #expect(rig.snapshot.tabletModeSource == TabletModeSource.none && rig.snapshot.baseSensor == nil)
    }

    @Test func lockedAndAsleepBothSensorsGoAndComeBackAfresh() throws {
        let rig = DaemonRig()
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [1])))
        #expect(rig.start())
        rig.at(0.5, logind: .session())
        rig.run(until: 4)
        #expect(rig.state == "active")
        rig.at(4, logind: .session(locked: true))
        rig.run(until: 5)
        rig.expectPaused(.locked)
        #expect(rig.baseSensor?.isCaptured == false && !rig.displaySensor.isCaptured)
        #expect(rig.snapshot.tabletMode == nil)
        rig.at(6, logind: .session())
        rig.run(until: 6.01)
        #expect(try #require(rig.secondsUntil(state: "active", since: 6, atMost: 3)) <= 1.0, "folded still")

        let released = rig.platform.events.entries.count
        rig.at(9, logind: LogindView.session().sleeping(true))
        rig.run(until: 10)
        rig.expectPaused(.sleep)
        let entries = Array(rig.platform.events.entries.dropFirst(released))
        #expect(
            entries == ["capture released", "output closed", "capture released", "inhibitor closed"],
            "both sensors let go of, and the wheel, before sleep may go on")
        rig.at(12, logind: .session())
        rig.run(until: 12.01)
        #expect(try #require(rig.secondsUntil(state: "active", since: 12, atMost: 3)) <= 1.0)
    }

    @Test func thePublishedSwitchFollowsTheHinge() throws {
        let rig = DaemonRig()
        rig.configuration.activation.publishTabletMode = true
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [3, 12], unfoldAt: [7])))
        #expect(rig.start())
        #expect(rig.platform.switchScans == [[.tabletMode, .lid]])
        #expect(rig.platform.tabletSwitches.isEmpty, "nothing said before the first decision")
        rig.run(until: 1)
        let first = try #require(rig.tabletSwitch)
        #expect(first.states == [false], "created at the first decision: laptop")
        rig.run(until: 6)
        #expect(first.states == [false, true])
        rig.run(until: 10)
        #expect(first.states == [false, true, false])

        // Switched off, it is still published: the keyboard follows the hinge.
        let bus = try #require(rig.platform.bus)
        rig.platform.at(DaemonRig.start + 10) { bus.ask(.change(.enabled(false), by: "test")) }
        rig.run(until: 15)
        #expect(rig.state == "off" && first.states == [false, true, false, true])
        #expect(rig.snapshot.tabletMode == true && rig.baseSensor?.isCaptured == true)

        // Before sleep it goes, before the inhibitor; after, it is back at the first decision.
        rig.at(15, logind: LogindView.session().sleeping(true))
        rig.run(until: 16)
        #expect(first.destroyed && rig.baseSensor?.isCaptured == false)
        let entries = rig.platform.events.entries
        let destroyed = try #require(entries.firstIndex(of: "tablet switch destroyed"))
        #expect(entries.firstIndex(of: "inhibitor closed").map { $0 > destroyed } == true)
        rig.at(18, logind: .session())
        rig.run(until: 19.5)
        #expect(rig.platform.tabletSwitches.count == 2 && rig.tabletSwitch?.states == [true])
        rig.daemon.shutDown()
        #expect(rig.tabletSwitch?.destroyed == true, "gone when the daemon stops")
    }

    @Test func aClosedLidIsPublishedAsLaptopModeAndNotRead() throws {
        let rig = DaemonRig()
        rig.configuration.activation.publishTabletMode = true
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [1])))
        let lid = FakeSwitch(lidClosed: false)
        rig.platform.switches = [lid]
        #expect(rig.start())
        rig.run(until: 4)
        #expect(rig.tabletSwitch?.isTabletMode == true)
        rig.platform.at(DaemonRig.start + 4) { lid.flip(to: true) }
        rig.run(until: 5)
        #expect(rig.tabletSwitch?.isTabletMode == false && rig.baseSensor?.isCaptured == false)
    }

    @Test func aMachineWithItsOwnSwitchGetsNoSecond() {
        let rig = DaemonRig()
        rig.configuration.activation.publishTabletMode = true
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [1])))
        rig.platform.switches = [FakeSwitch(tabletMode: false)]
        #expect(rig.start())
        rig.run(until: 4)
        #expect(rig.platform.tabletSwitches.isEmpty && rig.baseSensor?.opened == 0)
    }

    @Test func aFailingBaseSensorLeavesTheHingeOutUntilUdevSaysSomethingChanged() throws {
        let rig = DaemonRig()
        rig.hold(HingedMotion.handling(folds: HingedMotion.folds(at: [])))
        #expect(rig.start())
        rig.run(until: 1)
        let base = try #require(rig.baseSensor)
        base.failsFrom = DaemonRig.start + 1
        rig.run(until: 2)
        #expect(rig.snapshot.tabletModeSource == TabletModeSource.none, "When=auto: always on, as with one sensor")
        #expect(rig.state == "active" && !base.isCaptured)
        base.failsFrom = nil
        rig.platform.at(DaemonRig.start + 3) {
            rig.platform.hotplug.announce(
                DeviceEvent(action: .change, subsystem: "iio", sysfsPath: base.device.sysfsPath, deviceNode: nil))
        }
        rig.run(until: 3.01)
        #expect(rig.snapshot.tabletModeSource == .hinge && base.isCaptured && rig.state == "off")
        #expect(rig.run(atMost: 1) { rig.snapshot.tabletMode == false }, "a laptop again within a second")
    }

    /// What each state costs in wake-ups of the loop (Benchmarks/README.md,
    /// "Tablet mode from the hinge"), counted on the fake clock with the
    /// test's own step at each window's end taken off: a laptop (nothing
    /// moving), switched off, the fold being decided; and while scrolling,
    /// held still, tilted and lying on a table, against the same hand on a
    /// machine with one accelerometer: the hinge adds nothing there.
    @Test func wakeUpsPerState() throws {
        let display = MotionScript([
            .init(0, pitch: 35), .init(30, pitch: 35), .init(30.5, pitch: 47), .init(33, pitch: 47),
            .init(33.5, pitch: 35), .init(35, pitch: 35), .init(36, pitch: 0, .surface), .init(600, pitch: 0, .surface),
        ])
        let rig = DaemonRig()
        rig.hold(HingedMotion(display: display, folds: HingedMotion.folds(at: [22])))
        let reference = DaemonRig()
        reference.configuration.activation.when = .always
        reference.hold(display)
        #expect(rig.start() && reference.start())
        func window(_ rig: DaemonRig, _ from: Double, _ to: Double) -> Int {
            rig.run(until: from)
            return rig.wakeUps(until: to) - 1
        }
        let laptop = window(rig, 2, 12)
        #expect(rig.state == "off" && laptop == 20, "a laptop: 2 pairs a second, each one wake-up")
        let bus = try #require(rig.platform.bus)
        rig.platform.at(DaemonRig.start + 12) { bus.ask(.change(.enabled(false), by: "test")) }
        let switchedOff = window(rig, 12.01, 21.9)
        #expect(switchedOff == 0, "switched off: nothing")
        rig.platform.at(DaemonRig.start + 21.9) { bus.ask(.change(.enabled(true), by: "test")) }
        let fold = window(rig, 22, 23.5)
        #expect(rig.state == "off" && fold <= 8, "the fold decided at 5 pairs a second")
        var costs: [(String, Int, Int)] = []
        for (name, from, to) in [("held still", 25.0, 30.0), ("tilted", 30.5, 33.0), ("lying still", 40.0, 50.0)] {
            let hinged = window(rig, from, to)
            let single = window(reference, from, to)
            #expect(rig.state == "active" && hinged <= single + 2, "\(name): \(hinged) against \(single)")
            costs.append((name, hinged, single))
        }
        print(
            "Wake-ups, hinge: laptop \(laptop) in 10 s, switched off \(switchedOff) in 9.9 s, fold \(fold) in 1.5 s; "
                + costs.map { "\($0.0) \($0.1) (one sensor \($0.2))" }.joined(separator: ", "))
    }
}

@Suite struct PostureWatchRules {
    @Test func neededWhileItDecidesScrollingOrIsPublished() {
        func needed(_ mode: ActivationMode, enabled: Bool = true, pause: PauseReason? = nil, publishing: Bool = false)
            -> Bool
        {
            PostureWatch.isNeeded(ActivationInputs(mode: mode, enabled: enabled, pause: pause), publishing: publishing)
        }
        #expect(needed(.auto) && needed(.tabletMode))
        #expect(!needed(.always) && !needed(.manual))
        #expect(!needed(.auto, enabled: false) && !needed(.auto, pause: .locked) && !needed(.auto, pause: .idle))
        #expect(needed(.manual, enabled: false, publishing: true) && needed(.auto, pause: .locked, publishing: true))
        #expect(!needed(.auto, pause: .sleep, publishing: true) && !needed(.auto, pause: .lidClosed, publishing: true))
    }

    @Test func theHingeDecidesWhenAutoAndTabletModeOnlyOnceItTells() {
        func wanted(_ mode: ActivationMode, _ tablet: Bool?) -> Bool {
            ActivationInputs(mode: mode, tabletMode: tablet, tabletModeSource: .hinge, enabled: true).isWanted
        }
        #expect(!wanted(.auto, nil) && !wanted(.auto, false) && wanted(.auto, true))
        #expect(!wanted(.tabletMode, nil) && !wanted(.tabletMode, false) && wanted(.tabletMode, true))
        #expect(wanted(.always, false) && wanted(.manual, nil))
        #expect(
            ActivationInputs(mode: .tabletMode, enabled: true).offReason
                == "When=tablet-mode, but there is no tablet-mode switch, nor an accelerometer in the base to tell "
                + "it from the hinge angle")
    }

    @Test func theBaseIsTheFirstUsableOneLocatedThereWithRawAttributes() {
        func device(_ name: DeviceText, _ location: SensorLocation, modes: CaptureModes = .poll, broken: Bool = false)
            -> AccelerometerDevice
        {
            var d = FakeSensor.device(
                named: name, sysfsPath: DeviceText("/sys/devices/\(name)/iio:device0"), location: location)
            d.captureModes = modes
            if broken { d.problem = CaptureError(kind: .invalidValue, message: "in_accel_scale holds 'x'") }
            return d
        }
        let display = device("display", .display)
        let devices = [
            display, device("buffered", .base, modes: .buffer), device("broken", .base, broken: true),
            device("base", .base), device("other", .base),
        ]
        #expect(DeviceDiscovery.hingeBaseIndex(among: devices, display: display) == 3)
        #expect(DeviceDiscovery.hingeBaseIndex(among: devices, display: devices[3]) == nil, "not the display's")
        #expect(DeviceDiscovery.hingeBaseIndex(among: [display], display: display) == nil)
    }
}
