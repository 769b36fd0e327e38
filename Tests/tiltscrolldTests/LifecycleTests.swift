import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A sensor as the lifecycle sees it.
struct TestSensor: LifecycleSensor {
    var name: DeviceText = "kxcjk1013"
    var sysfsPath: DeviceText = "/sys/devices/i2c-0/0-000f/iio:device0"
    var unusableReason: String? = nil
    var identity: SensorIdentity { SensorIdentity(name: name, path: sysfsPath) }
}

/// What the lifecycle's active state holds, standing in for the capture and
/// the uinput device: knows whether, and how, the daemon was told to let go.
final class TestSession {
    /// Let go of; true when for a retry (the raised frequency kept).
    var closedForRetry: Bool?
}

/// What a failed capture kept raised for its retries.
final class TestKept {
    var restored = false
}

/// The daemon's side of the lifecycle, scripted: it performs what each state
/// asks for with the outcomes a test chooses, carries out what the machine
/// hands back, and keeps every report.
struct LifecycleRig {
    typealias Machine = SensorLifecycle<TestSensor, TestSession, TestKept>
    var machine: Machine
    var now = 0.0
    var reports: [Machine.Report] = []
    var transitions: [String] = []
    var unexpected: [String] = []
    /// When each attempt to open was made, and the sessions opened.
    var openTimes: [Double] = []
    var sessions: [TestSession] = []

    init(mode: ActivationMode = .always, enabled: Bool = true, tabletMode: Bool? = nil, hasDeviceMonitor: Bool = true) {
        machine = Machine(
            activation: ActivationInputs(mode: mode, tabletMode: tabletMode, enabled: enabled),
            hasDeviceMonitor: hasDeviceMonitor)
    }

    /// The state's name, as the log says it.
    var state: String { machine.state.name }

    mutating func send(_ event: Machine.Event) {
        let outcome = machine.handle(event, at: now)
        if let transition = outcome.transition { transitions.append(transition) }
        if let said = outcome.unexpected { unexpected.append(said) }
        if let (session, forRetry) = outcome.released {
            #expect(session.closedForRetry == nil, "a session is let go of once")
            session.closedForRetry = forRetry
        }
        outcome.restore?.restored = true
        if let report = outcome.report { reports.append(report) }
    }

    /// A read failure of the open capture.
    mutating func readFails(_ failure: CaptureFailure, sensorStillExists: Bool = true, kept: TestKept? = nil) {
        send(.readFailed(failure, sensorStillExists: sensorStillExists, kept: kept))
    }

    /// Performs what the state asks for until it asks for nothing: discovery
    /// finds `sensor` (nil: none), opening succeeds when `opens`.
    mutating func settle(sensor: TestSensor? = TestSensor(), opens: Bool = true, failure: CaptureFailure = .brokenRead)
    {
        for _ in 0..<8 {
            switch machine.state {
            case .lookingForSensor: send(sensor.map { .sensorFound($0) } ?? .sensorNotFound)
            case .opening:
                openTimes.append(now)
                if opens {
                    let session = TestSession()
                    sessions.append(session)
                    send(.opened(session))
                } else {
                    send(.openFailed(failure, kept: nil))
                }
            default: return
            }
        }
        Issue.record("the lifecycle did not settle: \(transitions.suffix(8))")
    }

    /// Advances the clock to the machine's next deadline and ticks.
    mutating func advanceToDeadline() {
        guard let deadline = machine.nextDeadline else {
            Issue.record("no deadline in \(state)")
            return
        }
        now = max(now, deadline)
        send(.tick)
    }

    /// Reports of failed attempts that were said (not counted silently).
    var failureReports: [RetryBackoff.Report] {
        reports.compactMap { if case .failure(let said) = $0 { return said } else { return nil } }
    }
}

extension CaptureFailure {
    /// `in_accel_x_raw` holding a word: the capture opens, the first read fails.
    static let brokenRead = CaptureFailure(step: .read, message: "in_accel_x_raw: 'word' is not a number")
    static let busyBuffer = CaptureFailure(step: .capture, message: "/dev/iio:device0 is busy")
}

@Suite struct LifecycleBackoff {
    /// The sensor of issue 15: opens, fails on the first read, every time.
    static func failsOnEveryFirstRead(for seconds: Double, hasDeviceMonitor: Bool = true) -> LifecycleRig {
        var rig = LifecycleRig(hasDeviceMonitor: hasDeviceMonitor)
        rig.settle()
        rig.send(.started)
        while rig.now < seconds {
            #expect(rig.state == "active")
            rig.now += 0.02
            rig.readFails(.brokenRead, sensorStillExists: true)
            #expect(rig.state == "retrying")
            rig.advanceToDeadline()
            rig.settle()
        }
        return rig
    }

    @Test func aReadFailingRightAfterEachReopeningDoublesTheDelayUpTo30Seconds() {
        let rig = Self.failsOnEveryFirstRead(for: 200)
        let gaps = zip(rig.openTimes.dropFirst(), rig.openTimes).map { (($0 - $1) * 100).rounded() / 100 }
        // Each gap: the delay plus the 0.02 s the attempt took to fail.
        #expect(Array(gaps.prefix(8)) == [1.02, 2.02, 4.02, 8.02, 16.02, 30.02, 30.02, 30.02])
        #expect(gaps.allSatisfy { $0 <= RetryBackoff.longestDelay + 0.02 })
    }

    @Test func issue15sTwelveSecondsMakeFourAttemptsNotTwelve() {
        let rig = Self.failsOnEveryFirstRead(for: 12)
        #expect(rig.openTimes.filter { $0 < 12 }.count == 4)
    }

    @Test func theFailureIsSaidOnceThenSummedUpNowAndThen() {
        let rig = Self.failsOnEveryFirstRead(for: 1800)
        let said = rig.failureReports
        guard case .failing(let failure, let retryIn) = said.first else {
            Issue.record("first report: \(String(describing: said.first))")
            return
        }
        #expect(failure == .brokenRead && retryIn == 1)
        // 30 minutes, 65 attempts: the first line, a summary after a minute,
        // then one every ten minutes.
        #expect(rig.openTimes.count > 60)
        #expect(said.count == 4)
        let summaries = said.dropFirst().compactMap { report -> (Int, Double)? in
            if case .stillFailing(_, let attempts, let since, _) = report { return (attempts, since) }
            return nil
        }
        #expect(summaries.count == 3)
        #expect(summaries.allSatisfy { $0.1 == 0.02 })
        #expect(summaries.map(\.0) == summaries.map(\.0).sorted())
        // No "scrolling with" line for each reopening in the streak.
        #expect(rig.reports.filter { $0 == .started }.count == 1)
    }

    @Test func theSameHoldsForAFailureToOpen() {
        var rig = LifecycleRig()
        rig.settle(opens: false, failure: .busyBuffer)
        rig.send(.started)
        for _ in 0..<6 {
            rig.advanceToDeadline()
            rig.settle(opens: false, failure: .busyBuffer)
        }
        let gaps = zip(rig.openTimes.dropFirst(), rig.openTimes).map { $0 - $1 }
        #expect(gaps == [1, 2, 4, 8, 16, 30])
        // Said once; the seventh attempt, a minute later, sums up.
        #expect(
            rig.failureReports == [
                .failing(.busyBuffer, retryIn: 1), .stillFailing(.busyBuffer, attempts: 7, since: 0, retryIn: 30),
            ])
        #expect(rig.machine.failure == .busyBuffer)
    }

    @Test func aFailureWithinTheProvingTimeCountsEvenAfterGoodSamples() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.started)
        rig.now = 1
        rig.readFails(.brokenRead, sensorStillExists: true)
        rig.advanceToDeadline()  // 2 s
        rig.settle()
        rig.now += 1  // samples for a second, less than the proving time
        rig.send(.samplesRead)
        #expect(rig.machine.isProving)
        rig.readFails(.brokenRead, sensorStillExists: true)
        #expect(rig.machine.nextDeadline == rig.now + 2)
        #expect(rig.failureReports.count == 1)
    }

    @Test func aProvenCaptureEndsTheStreakAndTheNextFailureStartsAfresh() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.started)
        for _ in 0..<3 {
            rig.now += 0.1
            rig.readFails(.brokenRead, sensorStillExists: true)
            rig.advanceToDeadline()
            rig.settle()
        }
        #expect(rig.machine.backoff.failedAttempts == 3)
        rig.now += LifecycleRig.Machine.provingTime
        rig.send(.samplesRead)
        #expect(!rig.machine.isProving)
        #expect(rig.reports.last == .recovered(attempts: 3))
        #expect(rig.machine.failure == nil)
        rig.now += 100
        rig.readFails(.brokenRead, sensorStillExists: true)
        #expect(rig.machine.nextDeadline == rig.now + 1)
        #expect(rig.failureReports.last == .failing(.brokenRead, retryIn: 1))
    }

    @Test func aDifferentFailureIsSaidWhenItFirstAppears() {
        var rig = LifecycleRig()
        rig.settle(opens: false, failure: .busyBuffer)
        rig.send(.started)
        rig.advanceToDeadline()
        rig.settle(opens: false, failure: .busyBuffer)
        rig.advanceToDeadline()
        rig.settle()
        rig.readFails(.brokenRead, sensorStillExists: true)
        #expect(rig.failureReports == [.failing(.busyBuffer, retryIn: 1), .failing(.brokenRead, retryIn: 4)])
    }

    @Test func readsRefusedHoldReadingWithoutLeavingActive() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.readsRefused(until: 1))
        #expect(rig.state == "active")
        #expect(!rig.machine.readsAllowed(at: 0.5))
        #expect(rig.machine.nextDeadline == 1)
        rig.advanceToDeadline()
        #expect(rig.machine.readsAllowed(at: 1) && rig.machine.nextDeadline == nil)
    }
}

@Suite struct LifecycleStartup {
    @Test func aFailureNoRetryMendsIsFatalWhileStarting() {
        var rig = LifecycleRig()
        let noUinput = CaptureFailure(step: .scrollDevice, message: "/dev/uinput does not exist", retryMayMend: false)
        rig.settle(opens: false, failure: noUinput)
        #expect(rig.state == "failed")
        #expect(rig.reports == [.fatal(noUinput)])
        // Nothing brings a failed start back.
        rig.send(.enabledChanged(false))
        rig.send(.enabledChanged(true))
        rig.send(.sensorAppeared)
        #expect(rig.state == "failed")
    }

    @Test func theSameFailureLaterIsRetried() {
        var rig = LifecycleRig(enabled: false)
        rig.send(.sensorFound(TestSensor()))
        rig.send(.started)
        #expect(rig.state == "off" && rig.machine.sensor != nil)
        rig.send(.enabledChanged(true))
        #expect(rig.state == "opening")
        let noUinput = CaptureFailure(step: .scrollDevice, message: "/dev/uinput does not exist", retryMayMend: false)
        rig.settle(opens: false, failure: noUinput)
        #expect(rig.state == "retrying")
    }

    @Test func anUnusableSensorWaitsAndIsSaidOnce() {
        var rig = LifecycleRig(hasDeviceMonitor: false)
        let broken = TestSensor(unusableReason: "mount matrix has 8 numbers, not 9")
        rig.settle(sensor: broken)
        #expect(rig.state == "waiting-for-sensor")
        for _ in 0..<5 {
            rig.advanceToDeadline()
            rig.settle(sensor: broken)
        }
        #expect(rig.reports == [.unusable(broken.name, "mount matrix has 8 numbers, not 9")])
        rig.send(.sensorChanged(TestSensor()))
        #expect(rig.state == "opening")
    }
}

@Suite struct LifecycleHotplug {
    @Test func theSensorRemovedStopsScrollingAndLooksForAnother() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.sensorRemoved)
        #expect(rig.state == "looking-for-sensor" && rig.machine.sensor == nil)
        #expect(rig.reports.last == .gone("kxcjk1013", nil))
        rig.settle(sensor: nil)
        #expect(rig.state == "waiting-for-sensor")
        // With a udev monitor there is nothing to wake up for.
        #expect(rig.machine.nextDeadline == nil)
        rig.send(.sensorAppeared)
        rig.settle()
        #expect(rig.state == "active")
    }

    @Test func withoutAUdevMonitorAWaitingDaemonRescans() {
        var rig = LifecycleRig(hasDeviceMonitor: false)
        rig.settle(sensor: nil)
        #expect(rig.machine.nextDeadline == LifecycleRig.Machine.rescanInterval)
        rig.advanceToDeadline()
        #expect(rig.state == "looking-for-sensor")
    }

    @Test func aReadFailureOfASensorThatIsGoneIsNotRetried() {
        var rig = LifecycleRig()
        rig.settle()
        let unbound = CaptureFailure(step: .read, message: "in_accel_x_raw: No such device")
        rig.readFails(unbound, sensorStillExists: false)
        #expect(rig.state == "looking-for-sensor" && rig.machine.nextDeadline == nil)
        #expect(rig.reports.last == .gone("kxcjk1013", unbound))
    }

    @Test func anAppearingSensorEndsARetryStreakButNotACapture() {
        var rig = LifecycleRig()
        rig.settle(opens: false, failure: .busyBuffer)
        rig.send(.started)
        rig.send(.sensorAppeared)
        #expect(rig.state == "looking-for-sensor" && !rig.machine.backoff.isFailing)
        rig.settle()
        rig.send(.sensorAppeared)
        #expect(rig.state == "active")
    }

    @Test func aChangeOfTheSensorInUseKeepsScrolling() {
        var rig = LifecycleRig()
        rig.settle()
        var moved = TestSensor()
        moved.name = "kxcjk1013-renamed"
        rig.send(.sensorChanged(moved))
        #expect(rig.state == "active" && rig.machine.sensor == moved)
    }
}

@Suite struct LifecycleReload {
    @Test func changedDeviceSettingsChooseAndOpenAfresh() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.deviceSettingsChanged)
        #expect(rig.state == "looking-for-sensor" && rig.machine.sensor == nil)
        rig.settle()
        #expect(rig.state == "active")
    }

    @Test func changedDeviceSettingsEndARetryStreak() {
        var rig = LifecycleRig()
        rig.settle(opens: false, failure: .busyBuffer)
        rig.send(.started)
        rig.send(.deviceSettingsChanged)
        #expect(rig.state == "looking-for-sensor" && rig.machine.nextDeadline == nil && !rig.machine.backoff.isFailing)
    }

    @Test func changedOutputSettingsReopenWithTheSameSensor() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.outputSettingsChanged)
        #expect(rig.state == "opening" && rig.machine.sensor == TestSensor())
    }

    @Test func aModeChangeReevaluatesTheWish() {
        var rig = LifecycleRig(mode: .always, tabletMode: false)
        rig.settle()
        rig.send(.modeChanged(.tabletMode))
        #expect(rig.state == "off")
        #expect(rig.reports.last == .stopped("not in tablet mode"))
    }
}

@Suite struct LifecycleEnabledSwitch {
    @Test func switchingOffReleasesAndSwitchingOnReopensTheSameSensor() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.started)
        rig.send(.enabledChanged(false))
        #expect(rig.state == "off" && rig.machine.sensor != nil)
        guard case .stopped(let reason) = rig.reports.last else {
            Issue.record("no stop report: \(rig.reports)")
            return
        }
        #expect(reason.hasPrefix("switched off"))
        rig.send(.enabledChanged(true))
        #expect(rig.state == "opening")
        rig.settle()
        #expect(rig.state == "active")
    }

    @Test func switchingOffDuringARetryStopsTheRetries() {
        var rig = LifecycleRig()
        rig.settle(opens: false, failure: .busyBuffer)
        rig.send(.started)
        rig.send(.enabledChanged(false))
        #expect(rig.state == "off" && rig.machine.nextDeadline == nil)
    }

    @Test func theSwitchSitsOnTopOfTheTabletModeSwitch() {
        var rig = LifecycleRig(mode: .auto, tabletMode: true)
        rig.settle()
        rig.send(.enabledChanged(false))
        rig.send(.tabletModeChanged(false, from: .switch))
        rig.send(.tabletModeChanged(true, from: .switch))
        #expect(rig.state == "off")
        rig.send(.enabledChanged(true))
        rig.settle()
        #expect(rig.state == "active")
        rig.send(.tabletModeChanged(false, from: .switch))
        #expect(rig.state == "off")
    }

    @Test func manualStartsSwitchedOffOnAFirstStartOnlyByDefault() {
        #expect(!ActivationInputs.initialEnabled(for: .manual))
        for mode in [ActivationMode.auto, .always, .tabletMode] { #expect(ActivationInputs.initialEnabled(for: mode)) }
        var rig = LifecycleRig(mode: .manual, enabled: false)
        #expect(rig.state == "off")
        rig.send(.enabledChanged(true))
        rig.settle()
        #expect(rig.state == "active")
    }

    @Test func anEventTheStateDoesNotExpectIsSaidAndChangesNothing() {
        var rig = LifecycleRig(enabled: false)
        let stray = TestSession()
        rig.send(.opened(stray))
        rig.send(.samplesRead)
        rig.send(.readsRefused(until: 3))
        #expect(rig.state == "off" && rig.transitions.isEmpty)
        #expect(
            rig.unexpected == [
                "opened is not expected in off; ignored", "samples-read is not expected in off; ignored",
                "reads-refused is not expected in off; ignored",
            ])
        #expect(stray.closedForRetry == nil)
    }

    @Test func theSessionIsLetGoOfOnceWithWhatARetryKeeps() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.started)
        let kept = TestKept()
        rig.readFails(.brokenRead, kept: kept)
        #expect(rig.sessions[0].closedForRetry == true)
        guard case .retrying(_, _, let held?) = rig.machine.state else {
            Issue.record("retrying keeps what the capture raised: \(rig.state)")
            return
        }
        #expect(held === kept && !kept.restored)
        // Switched off while retrying: no retry will come, so it goes back.
        rig.send(.enabledChanged(false))
        #expect(rig.state == "off" && kept.restored)
        rig.send(.enabledChanged(true))
        rig.settle()
        rig.send(.deviceSettingsChanged)
        #expect(rig.sessions[1].closedForRetry == false)
    }

    @Test func everyTransitionHasNamesForTheLog() {
        var rig = LifecycleRig()
        rig.settle()
        rig.send(.enabledChanged(false))
        #expect(
            rig.transitions == [
                "looking-for-sensor -> opening (sensor-found)", "opening -> active (opened)",
                "active -> off (disabled)",
            ])
    }
}

@Suite struct ActivationInputsWish {
    @Test func whenAndTheTabletSwitch() {
        func wanted(_ mode: ActivationMode, _ tablet: Bool?) -> Bool {
            ActivationInputs(mode: mode, tabletMode: tablet, enabled: true).isWanted
        }
        #expect(wanted(.always, false) && wanted(.manual, false))
        #expect(wanted(.auto, nil) && wanted(.auto, true) && !wanted(.auto, false))
        #expect(!wanted(.tabletMode, nil) && wanted(.tabletMode, true) && !wanted(.tabletMode, false))
        #expect(!ActivationInputs(mode: .always, tabletMode: nil, enabled: false).isWanted)
    }

    @Test func theReasonSaysWhatToDo() {
        #expect(ActivationInputs(mode: .always, tabletMode: nil, enabled: true).offReason == nil)
        #expect(
            ActivationInputs(mode: .tabletMode, tabletMode: nil, enabled: true).offReason?.contains(
                "no tablet-mode switch") == true)
        #expect(
            ActivationInputs(mode: .manual, tabletMode: nil, enabled: false).offReason?.contains("tiltscrollctl enable")
                == true)
    }
}
