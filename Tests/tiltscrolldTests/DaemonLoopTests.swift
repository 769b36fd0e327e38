import Glibc
import ScrollPhysics
import SyntheticMotion
import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

/// The daemon's real loop, driven on a fake machine at memory speed: a
/// person holding a sensor (sway and tremor), a recording uinput device, a
/// scripted bus, udev, switches, a touchscreen and signals.
@Suite struct DaemonLoopActivation {
    @Test func heldStillNothingScrollsTiltedItDoes() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 4))
        #expect(rig.start())
        rig.run(until: 10)
        let output = try #require(rig.platform.output)
        #expect(output.hiRes(to: DaemonRig.start + 4) == 0, "held still at the reading angle")
        #expect(abs(output.hiRes(from: DaemonRig.start + 5)) > 5 * 120, "12 degrees scroll for 5 s")
        guard case .active(.poll, _) = rig.snapshot.phase else {
            Issue.record("\(rig.snapshot.phase)")
            return
        }
        #expect(rig.snapshot.statusLine.hasPrefix("Scrolling with kxcj91008 (poll capture); "))
        #expect(
            rig.snapshot.sensor == SensorIdentity(name: "kxcj91008", path: "/sys/devices/fake/kxcj91008/iio:device0"))
        #expect(rig.platform.bus?.published.last == rig.snapshot, "the bus shows what the daemon does")
    }

    @Test func aDaemonWithNothingToDoHasNoDeadline() {
        let rig = DaemonRig()
        rig.hold(.held)
        rig.configuration.activation.when = .manual
        #expect(rig.start())
        rig.run(until: 1)
        #expect(rig.state == "off" && rig.platform.captures.isEmpty)
        #expect(rig.daemon.nextDeadline(now: rig.now) == nil, "off, it sleeps until an event")
    }

    @Test func withoutAnAccelerometerOrUinputItDoesNotStart() {
        let none = DaemonRig()
        #expect(!none.start())
        let noUinput = DaemonRig()
        noUinput.hold(.held)
        noUinput.platform.uinputFailure = .uinputMissing
        #expect(!noUinput.start())
        #expect(noUinput.platform.capture?.released == true, "the capture opened for it goes back")
    }

    @Test func theTabletModeSwitchDecidesWithWhenAuto() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        let hinge = FakeSwitch(tabletMode: false)
        rig.platform.switches = [hinge]
        #expect(rig.start())
        rig.run(until: 3)
        #expect(rig.state == "off" && rig.platform.captures.isEmpty)
        #expect(rig.snapshot.tabletMode == false)
        #expect(rig.snapshot.statusLine == "Scrolling off: not in tablet mode")
        rig.platform.at(DaemonRig.start + 3) { hinge.flip(to: true) }
        rig.run(until: 8)
        #expect(rig.state == "active" && rig.snapshot.tabletMode == true)
        rig.platform.at(DaemonRig.start + 8) { hinge.flip(to: false) }
        rig.run(until: 9)
        #expect(rig.state == "off" && rig.platform.output?.closed == true)
        #expect(rig.platform.capture?.released == true)
    }
}

@Suite struct DaemonLoopControls {
    @Test func switchedOffOverTheBusItLetsGoAndOnAgainItTakesThePoseHeldThen() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        #expect(rig.start())
        let bus = try #require(rig.platform.bus)
        rig.platform.at(DaemonRig.start + 5) { bus.ask(.change(.enabled(false), by: "test")) }
        rig.run(until: 7)
        let first = try #require(rig.platform.output)
        #expect(first.closed && rig.platform.captures[0].released)
        #expect(first.frames.allSatisfy { $0.time <= DaemonRig.start + 5 }, "no frame after the switch")
        #expect(rig.snapshot.controls.enabled == false && rig.snapshot.stateName == .off)
        #expect(bus.published.last?.controls.enabled == false)
        #expect(rig.directory.read("state/controls")?.contains("enabled=no") == true)

        rig.platform.at(DaemonRig.start + 7) { bus.ask(.change(.enabled(true), by: "test")) }
        rig.run(until: 12)
        let second = try #require(rig.platform.output)
        #expect(second !== first && rig.state == "active")
        // Still held at the tilt: switched on there, that pose is neutral.
        #expect(second.hiRes() == 0)
    }

    @Test func signalsToggleRecalibrateAndStop() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        #expect(rig.start())
        rig.run(until: 5)
        #expect(abs(rig.platform.output!.hiRes()) > 0)
        rig.platform.at(DaemonRig.start + 5) { rig.signals.send(SIGUSR1) }
        rig.run(until: 8)
        let output = try #require(rig.platform.output)
        #expect(output.hiRes(from: DaemonRig.start + 5.5) == 0, "the tilted pose is neutral now")
        #expect(rig.directory.read("state/calibration") != nil, "and saved")
        rig.platform.at(DaemonRig.start + 8) { rig.signals.send(SIGUSR2) }
        rig.run(until: 9)
        #expect(rig.state == "off" && rig.snapshot.controls.enabled == false)
        rig.platform.at(DaemonRig.start + 9) {
            rig.signals.send(SIGUSR1)  // nothing to take while off: said, and nothing changes
            rig.signals.send(SIGTERM)
        }
        rig.run(until: 10)
        #expect(rig.daemon.isStopping)
        rig.daemon.shutDown()
        #expect(!FileSystem.exists(rig.directory.path + "/run/tiltscrolld.pid"))
    }

    @Test func calibrateOverTheBusIsAnsweredOnceItIsDone() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        #expect(rig.start())
        let bus = try #require(rig.platform.bus)
        let whileActive = FakeReply()
        rig.platform.at(DaemonRig.start + 4) { bus.ask(.calibrate(by: "test", reply: whileActive)) }
        rig.run(until: 5)
        #expect(whileActive.answer.map { (try? $0.get()) != nil } == true)
        rig.platform.at(DaemonRig.start + 5) { bus.ask(.change(.enabled(false), by: "test")) }
        let whileOff = FakeReply()
        rig.platform.at(DaemonRig.start + 6) { bus.ask(.calibrate(by: "test", reply: whileOff)) }
        rig.run(until: 7)
        guard case .failure(let error)? = whileOff.answer else {
            Issue.record("refused while off: \(String(describing: whileOff.answer))")
            return
        }
        #expect(error.name == BusError.notActive)
        #expect(error.message.contains("Scrolling off: switched off"))
    }

    @Test func sensitivityScalesTheSpeedAndASliderIsSavedOncePerSecond() throws {
        let rig = DaemonRig()
        // Beyond MaxTilt=25 the speed is the full speed whatever the hand's sway.
        rig.hold(.reading(tilt: 30, at: 1))
        #expect(rig.start())
        let bus = try #require(rig.platform.bus)
        rig.platform.at(DaemonRig.start + 6) {
            for step in 1...20 { bus.ask(.change(.sensitivity(1 + Double(step) * 0.05), by: "slider")) }
        }
        rig.run(until: 6.01)
        #expect(rig.directory.read("state/controls")?.contains("sensitivity=1.05") == true, "the first at once")
        rig.run(until: 12)
        #expect(rig.directory.read("state/controls")?.contains("sensitivity=2.0") == true, "the last within a second")
        #expect(rig.snapshot.controls.sensitivity == 2)
        let output = try #require(rig.platform.output)
        let before = Double(abs(output.hiRes(from: DaemonRig.start + 3, to: DaemonRig.start + 6)))
        let after = Double(abs(output.hiRes(from: DaemonRig.start + 8, to: DaemonRig.start + 11)))
        #expect(before > 0 && abs(after / before - 2) < 0.1, "\(after) / \(before)")
    }

    @Test func theSwitchOutlivesTheDaemon() {
        let first = DaemonRig()
        first.hold(.held)
        #expect(first.start())
        first.platform.bus?.ask(.change(.enabled(false), by: "test"))
        first.run(until: 1)
        first.daemon.shutDown()
        let text = first.directory.read("state/controls")
        #expect(text?.contains("enabled=no") == true)
        let second = DaemonRig()
        second.hold(.held)
        try? FileSystem.makeDirectory(second.directory.path + "/state", permissions: 0o700)
        try? second.directory.write("state/controls", text ?? "")
        #expect(second.start())
        second.run(until: 1)
        #expect(second.state == "off" && second.platform.captures.isEmpty)
    }
}

@Suite struct DaemonLoopReload {
    @Test func aReloadAppliesTheNewFileAndABadOneKeepsTheRunningOne() throws {
        let rig = DaemonRig()
        // Reopened by the first reload, the capture takes the pose of then
        // as neutral: a second tilt shows that it still scrolls after the bad one.
        rig.hold(
            MotionScript([
                .init(0, pitch: 35), .init(1, pitch: 35), .init(1.5, pitch: 65), .init(9, pitch: 65),
                .init(9.5, pitch: 95), .init(60, pitch: 95),
            ]))
        try rig.directory.write("tiltscroll.conf", "[Device]\nSampleRate=50\n")
        #expect(rig.start())
        rig.run(until: 4)
        try rig.directory.write("tiltscroll.conf", "[Device]\nSampleRate=25\n")
        rig.platform.at(DaemonRig.start + 4) { rig.signals.send(SIGHUP) }
        rig.run(until: 8)
        #expect(rig.platform.captures.count == 2 && rig.platform.captures[0].released)
        #expect(rig.platform.capture?.fullRate == 25, "reopened at the new rate")
        #expect(rig.snapshot.configurationProblem == nil)

        try rig.directory.write("tiltscroll.conf", "[Scroll]\nSpeed=fast\n")
        rig.platform.at(DaemonRig.start + 8) { rig.signals.send(SIGHUP) }
        rig.run(until: 12)
        #expect(rig.state == "active" && rig.platform.captures.count == 2)
        #expect(rig.snapshot.configurationProblem?.contains("Speed") == true)
        #expect(rig.snapshot.serviceStatus.contains("configuration error, running with the previous one"))
        #expect(abs(rig.platform.output!.hiRes(from: DaemonRig.start + 10)) > 0, "still scrolling")

        try rig.directory.write("tiltscroll.conf", "[Device]\nSampleRate=25\n")
        rig.platform.at(DaemonRig.start + 12) { rig.signals.send(SIGHUP) }
        rig.run(until: 13)
        #expect(rig.snapshot.configurationProblem == nil)
    }
}

@Suite struct DaemonLoopHotplug {
    @Test func theSensorGoneItWaitsAndBackItScrollsAgain() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 1))
        #expect(rig.start())
        let sensor = rig.platform.sensors[0]
        let path = sensor.device.sysfsPath
        rig.platform.at(DaemonRig.start + 4) {
            rig.platform.sensors = []
            rig.platform.hotplug.announce(
                DeviceEvent(action: .remove, subsystem: "iio", sysfsPath: path, deviceNode: nil))
        }
        rig.run(until: 6)
        #expect(rig.state == "waiting-for-sensor" && rig.platform.captures[0].released)
        #expect(rig.snapshot.stateName == .waitingForSensor && rig.snapshot.sensor == nil)
        #expect(rig.daemon.nextDeadline(now: rig.now) == nil, "udev announces it: nothing to poll")
        rig.platform.at(DaemonRig.start + 6) {
            rig.platform.sensors = [sensor]
            rig.platform.hotplug.announce(DeviceEvent(action: .add, subsystem: "iio", sysfsPath: path, deviceNode: nil))
        }
        rig.run(until: 8)
        #expect(rig.state == "active" && rig.platform.captures.count == 2)
    }

    @Test func lostUdevEventsAreMadeUpForByLooking() {
        let rig = DaemonRig()
        rig.hold(.held)
        #expect(rig.start())
        rig.platform.at(DaemonRig.start + 2) {
            rig.platform.sensors = []
            rig.platform.hotplug.losesEvents = true
            rig.platform.hotplug.announce(
                DeviceEvent(action: .other("lost"), subsystem: "other", sysfsPath: "/x", deviceNode: nil))
        }
        rig.run(until: 3)
        #expect(rig.state == "waiting-for-sensor")
    }

    @Test func withoutUdevItLooksAgainNowAndThen() {
        let rig = DaemonRig()
        rig.hold(.held)
        rig.platform.hasHotplug = false
        #expect(rig.start())
        let sensor = rig.platform.sensors[0]
        sensor.failsFrom = DaemonRig.start + 2
        rig.platform.at(DaemonRig.start + 2) { rig.platform.sensors = [] }
        rig.run(until: 3)
        #expect(rig.state == "waiting-for-sensor")
        rig.platform.at(DaemonRig.start + 4) {
            sensor.failsFrom = nil
            rig.platform.sensors = [sensor]
        }
        rig.run(until: 9)
        #expect(rig.state == "active", "found at the next rescan (5 s)")
    }
}

@Suite struct DaemonLoopTouch {
    @Test func aFingerPausesTiltAndItsLiftMakesThePoseNeutral() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 1))
        #expect(rig.start())
        let screen = rig.platform.touchscreen
        rig.platform.at(DaemonRig.start + 4) { screen.touch(true) }
        rig.platform.at(DaemonRig.start + 7) { screen.touch(false) }
        rig.run(until: 10)
        let output = try #require(rig.platform.output)
        #expect(abs(output.hiRes(to: DaemonRig.start + 4)) > 0)
        let lastFrame = output.frames.last { $0.time <= DaemonRig.start + 7 }?.time ?? 0
        #expect(lastFrame <= DaemonRig.start + 4.1, "paused within a frame of the touch")
        #expect(output.hiRes(from: DaemonRig.start + 7) == 0, "the pose held at the lift is neutral")
        #expect(screen.opened >= 0 && screen.closed == 0)
        rig.platform.bus?.ask(.change(.enabled(false), by: "test"))
        rig.run(until: 11)
        #expect(screen.closed == 1, "touch devices are followed only while scrolling")
    }
}

@Suite struct DaemonLoopFailingSensor {
    @Test func aBrokenSensorIsRetriedLessAndLessOftenAndWorksAgain() throws {
        let rig = DaemonRig()
        // Back, the capture takes the pose held then as neutral; tilted from there, it scrolls.
        rig.hold(
            MotionScript([
                .init(0, pitch: 35), .init(1, pitch: 35), .init(1.5, pitch: 47), .init(90, pitch: 47),
                .init(90.5, pitch: 59), .init(200, pitch: 59),
            ]))
        #expect(rig.start())
        let sensor = rig.platform.sensors[0]
        sensor.failsFrom = DaemonRig.start + 3
        rig.run(until: 3.5)
        #expect(rig.state == "retrying" && rig.platform.captures[0].releasedForRetry)
        guard case .waitingForSensor(let failure?) = rig.snapshot.phase else {
            Issue.record("\(rig.snapshot.phase)")
            return
        }
        #expect(failure.message.contains("garbage"))
        rig.run(until: 63)
        // Each attempt fails at once: delays of 1, 2, 4, 8, 16, 30 s.
        let opened = rig.platform.captures.count
        #expect(opened >= 6 && opened <= 8, "\(opened) attempts in a minute")
        sensor.failsFrom = nil
        rig.run(until: 100)
        #expect(rig.state == "active" && !rig.daemon.lifecycle.isProving)
        #expect(rig.snapshot.statusLine.hasPrefix("Scrolling with"))
        #expect(abs(rig.platform.output!.hiRes(from: DaemonRig.start + 92)) > 0)
    }

    @Test func aSensorThatFailsAndIsGoneIsLookedFor() {
        let rig = DaemonRig()
        rig.hold(.held)
        #expect(rig.start())
        rig.platform.sensors[0].failsFrom = DaemonRig.start + 2
        rig.platform.at(DaemonRig.start + 1.9) { rig.platform.sensors = [] }
        rig.run(until: 3)
        #expect(rig.state == "waiting-for-sensor")
        #expect(rig.platform.captures.count == 1)
    }
}

@Suite struct DaemonLoopMonitor {
    @Test func aMonitorGetsRecordsOfWhatTheDaemonDoes() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 1))
        #expect(rig.start())
        let reply = FakeReply()
        rig.platform.bus?.ask(.watch(by: "test", reply: reply))
        rig.run(until: 3)
        let stream = try #require(reply.stream)
        defer { stream.close() }
        var lines = LineBuffer()
        #expect(try lines.read(from: stream) == false)
        let last = lines.takeLast()
        let record = try MonitorRecord(parsing: try #require(last)[...])
        #expect(record.state.hasPrefix("Scrolling with kxcj91008"))
        #expect(record.reading != nil && record.scrolled != 0)
        #expect(record.device == "kxcj91008 (poll capture)")
    }
}
