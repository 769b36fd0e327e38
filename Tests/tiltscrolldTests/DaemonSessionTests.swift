import Glibc
import ScrollPhysics
import SyntheticMotion
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

extension MotionScript {
    /// Held in a hand at a reading angle, tilted 12 degrees at 2 s (it
    /// scrolls from there on), and 12 degrees more at `second`: from a
    /// neutral taken in between, only that second tilt scrolls.
    static func tiltedTwice(second: Double) -> MotionScript {
        MotionScript([
            .init(0, pitch: 35), .init(2, pitch: 35), .init(2.5, pitch: 47), .init(second, pitch: 47),
            .init(second + 0.5, pitch: 59), .init(600, pitch: 59),
        ])
    }
}

/// The rig's helpers for the person's session: logind's views and what
/// the daemon did around them.
extension DaemonRig {
    var logind: FakeLogind { platform.bus!.logind }

    /// logind says `view` at `seconds`.
    func at(_ seconds: Double, logind view: LogindView) {
        platform.at(DaemonRig.start + seconds) { self.logind.say(view) }
    }

    /// The last frame written before `seconds`, in seconds from the start.
    func lastFrame(before seconds: Double) -> Double? {
        platform.outputs.flatMap(\.frames).last { $0.time < DaemonRig.start + seconds }.map {
            $0.time - DaemonRig.start
        }
    }

    /// Hi-res units every output wrote between two times (seconds from the start).
    func scrolled(from start: Double, to end: Double) -> Int {
        platform.outputs.reduce(0) { $0 + $1.hiRes(from: DaemonRig.start + start, to: DaemonRig.start + end) }
    }

    /// The daemon is paused for `reason`: released, no wheel, said so on the bus.
    func expectPaused(_ reason: PauseReason, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(state == "off", sourceLocation: sourceLocation)
        #expect(snapshot.stateName == .paused, sourceLocation: sourceLocation)
        #expect(snapshot.statusLine == "Scrolling paused: \(reason.sentence)", sourceLocation: sourceLocation)
        #expect(platform.bus?.published.last == snapshot, sourceLocation: sourceLocation)
        #expect(platform.captures.allSatisfy { $0.released }, "the sensor let go of", sourceLocation: sourceLocation)
        #expect(platform.outputs.allSatisfy { $0.closed }, "no wheel", sourceLocation: sourceLocation)
        #expect(daemon.nextDeadline(now: now) == nil, "asleep until an event", sourceLocation: sourceLocation)
    }
}

/// Issue 24: quiet while nobody can be reading, on the daemon's real loop.
/// A hand holds the sensor tilted so that it scrolls; logind (a scripted
/// `LogindSource`) and the lid switch say what the session does.
@Suite struct DaemonLoopSession {
    /// Pauses at `pauseAt` (logind says `paused`), resumes at `resumeAt`
    /// (it says `back`), with the hand tilting again at `resumeAt + 2`.
    private func pauseAndResume(_ paused: LogindView, back: LogindView, reason: PauseReason) throws -> DaemonRig {
        let rig = DaemonRig()
        rig.hold(.tiltedTwice(second: 10))
        #expect(rig.start())
        rig.at(0.5, logind: .session())
        rig.run(until: 4)
        #expect(abs(rig.scrolled(from: 3, to: 4)) > 120, "the hand's tilt scrolls")
        rig.at(4, logind: paused)
        rig.run(until: 6)
        rig.expectPaused(reason)
        #expect(try #require(rig.lastFrame(before: 6)) <= 4 + 1.0 / 60 + 1e-6, "no frame a frame after the pause")
        let wakeUps = rig.platform.wakeUps
        rig.run(until: 8)
        #expect(rig.platform.wakeUps - wakeUps == 1, "paused, only the test's own step woke it")
        rig.at(8, logind: back)
        rig.run(until: 9.5)
        #expect(rig.state == "active" && rig.platform.captures.count == 2 && rig.platform.outputs.count == 2)
        #expect(rig.scrolled(from: 8, to: 9.5) == 0, "nothing from before the pause scrolls; the pose held is neutral")
        rig.run(until: 12)
        #expect(abs(rig.scrolled(from: 11, to: 12)) > 120, "a tilt from the new neutral scrolls")
        return rig
    }

    @Test func lockedItLetsGoWithinAFrameAndUnlockedItStartsAfresh() throws {
        _ = try pauseAndResume(.session(locked: true), back: .session(), reason: .locked)
    }

    @Test func idleItLetsGoAndActiveAgainItStartsAfresh() throws {
        _ = try pauseAndResume(.session(idle: true), back: .session(), reason: .idle)
    }

    @Test func aSwitchToAnotherTerminalPausesAndBackItResumes() throws {
        _ = try pauseAndResume(.noSession, back: .session(), reason: .noSession)
    }

    @Test func aGreeterIsNobodyReadingAndAnotherPersonsSessionIsSomebody() throws {
        let rig = try pauseAndResume(
            .session("c1", sessionClass: "greeter"), back: .session("3"), reason: .noSession)
        // The second person locks theirs; the first comes back to an unlocked one.
        rig.at(12, logind: .session("3", locked: true))
        rig.run(until: 13)
        rig.expectPaused(.locked)
        rig.at(13, logind: .session("2"))
        rig.run(until: 14)
        #expect(rig.state == "active" && rig.platform.captures.count == 3)
        // A session in the background of the seat is not the active one.
        rig.at(14, logind: .session("2", active: false))
        rig.run(until: 15)
        rig.expectPaused(.noSession)
    }

    @Test func fromOnePersonsSessionToAnothersItScrollsOn() {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        #expect(rig.start())
        rig.at(0.5, logind: .session("2"))
        rig.at(4, logind: .session("3"))
        rig.run(until: 6)
        #expect(rig.state == "active" && rig.platform.captures.count == 1)
        #expect(abs(rig.scrolled(from: 4, to: 6)) > 120)
    }

    @Test func startedWithNobodyThereItNeverOpensTheSensorUntilSomebodyIs() {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 4))
        #expect(rig.start())
        rig.at(0, logind: .noSession)
        rig.run(until: 0.01)
        let opened = rig.platform.captures.count
        rig.run(until: 3)
        rig.expectPaused(.noSession)
        #expect(rig.platform.captures.count == opened, "not opened again while nobody is there")
        rig.at(3, logind: .session())
        rig.run(until: 6)
        #expect(rig.state == "active")
        #expect(abs(rig.scrolled(from: 5, to: 6)) > 120)
    }

    @Test func beforeSleepTheSensorAndTheWheelGoThenTheInhibitorAndAfterItAllStartsAfresh() throws {
        let rig = DaemonRig()
        rig.hold(.tiltedTwice(second: 10))
        #expect(rig.start())
        #expect(rig.logind.holdsInhibitor, "a delay inhibitor from the start")
        rig.at(0.5, logind: .session())
        rig.run(until: 4)
        #expect(rig.platform.events.entries == ["inhibitor taken"])
        rig.at(4, logind: LogindView.session().sleeping(true))
        rig.run(until: 6)
        rig.expectPaused(.sleep)
        #expect(
            rig.platform.events.entries == [
                "inhibitor taken", "capture released", "output closed", "inhibitor closed",
            ],
            "the sensor let go of and the wheel gone before sleep may go on")
        #expect(try #require(rig.lastFrame(before: 6)) <= 4 + 1.0 / 60 + 1e-6)
        rig.at(8, logind: .session())
        rig.run(until: 9.5)
        #expect(rig.state == "active" && rig.platform.captures.count == 2)
        #expect(rig.logind.holdsInhibitor, "a new inhibitor for the next sleep")
        #expect(rig.scrolled(from: 8, to: 9.5) == 0, "no stale sample, no jump")
        rig.run(until: 12)
        #expect(abs(rig.scrolled(from: 11, to: 12)) > 120)
    }

    @Test func aSleepThatCameAndWentBetweenTwoRoundsStillStartsAfresh() throws {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        #expect(rig.start())
        rig.at(0.5, logind: .session())
        rig.platform.at(DaemonRig.start + 4) {
            rig.logind.say(LogindView.session().sleeping(true))
            rig.logind.say(.session())
        }
        rig.run(until: 6)
        #expect(rig.state == "active" && rig.platform.captures.count == 2 && rig.platform.captures[0].released)
        #expect(
            rig.platform.events.entries == [
                "inhibitor taken", "capture released", "output closed", "inhibitor closed", "inhibitor taken",
            ])
        #expect(rig.scrolled(from: 4.01, to: 6) == 0, "started afresh at the pose held")
    }

    @Test func asleepWhilePausedAlreadyTheInhibitorGoesAtOnce() {
        let rig = DaemonRig()
        rig.hold(.held)
        #expect(rig.start())
        rig.at(0.5, logind: .session(locked: true))
        rig.at(2, logind: LogindView.session(locked: true).sleeping(true))
        rig.run(until: 3)
        rig.expectPaused(.sleep)
        #expect(!rig.logind.holdsInhibitor)
        rig.at(3, logind: .session(locked: true))
        rig.run(until: 4)
        rig.expectPaused(.locked)
        #expect(rig.logind.holdsInhibitor)
    }

    @Test func withoutLogindOrWithoutABusItScrollsAsBefore() {
        // logind not on the bus: the watch never learns anything.
        let absent = DaemonRig()
        absent.hold(.reading(tilt: 12, at: 2))
        #expect(absent.start())
        absent.run(until: 5)
        #expect(absent.logind.watched == 1 && absent.state == "active")
        #expect(abs(absent.scrolled(from: 3, to: 5)) > 120)
        #expect(absent.snapshot.statusLine.hasPrefix("Scrolling with"))
        // No system bus at all.
        let noBus = DaemonRig()
        noBus.platform.bus = nil
        noBus.hold(.reading(tilt: 12, at: 2))
        #expect(noBus.start())
        noBus.run(until: 5)
        #expect(noBus.state == "active" && abs(noBus.scrolled(from: 3, to: 5)) > 120)
    }

    @Test func logindLeavingAndComingBackIsFollowed() {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        #expect(rig.start())
        rig.at(0.5, logind: .session(locked: true))
        rig.run(until: 3)
        rig.expectPaused(.locked)
        // Gone: nothing is known, so it works as without logind.
        rig.at(3, logind: .unknown)
        rig.run(until: 5)
        #expect(rig.state == "active" && !rig.logind.holdsInhibitor)
        #expect(abs(rig.scrolled(from: 4, to: 5)) == 0, "the pose of the moment is neutral")
        // Back, the screen still locked.
        rig.at(5, logind: .session(locked: true))
        rig.run(until: 6)
        rig.expectPaused(.locked)
        #expect(rig.logind.holdsInhibitor)
    }

    @Test func theLidClosedPausesAndOpenedItStartsAfresh() throws {
        let rig = DaemonRig()
        rig.hold(.tiltedTwice(second: 10))
        let lid = FakeSwitch(lidClosed: false)
        rig.platform.switches = [lid]
        #expect(rig.start())
        #expect(rig.platform.switchScans == [[.tabletMode, .lid]])
        rig.run(until: 4)
        #expect(abs(rig.scrolled(from: 3, to: 4)) > 120)
        rig.platform.at(DaemonRig.start + 4) { lid.flip(to: true) }
        rig.run(until: 6)
        rig.expectPaused(.lidClosed)
        #expect(try #require(rig.lastFrame(before: 6)) <= 4 + 1.0 / 60 + 1e-6)
        #expect(rig.snapshot.tabletMode == nil, "a lid switch is no tablet-mode switch")
        rig.platform.at(DaemonRig.start + 8) { lid.flip(to: false) }
        rig.run(until: 9.5)
        #expect(rig.state == "active" && rig.scrolled(from: 8, to: 9.5) == 0)
        rig.run(until: 12)
        #expect(abs(rig.scrolled(from: 11, to: 12)) > 120)
    }

    @Test func theFirstReasonIsTheOneSaidAndSwitchedOffIsOff() {
        let rig = DaemonRig()
        rig.hold(.held)
        let lid = FakeSwitch(lidClosed: false)
        rig.platform.switches = [lid]
        #expect(rig.start())
        let opened = rig.platform.captures.count
        rig.at(0.5, logind: .session(locked: true, idle: true))
        rig.run(until: 1)
        rig.expectPaused(.locked)
        rig.platform.at(DaemonRig.start + 1) { lid.flip(to: true) }
        rig.run(until: 2)
        rig.expectPaused(.lidClosed)
        rig.platform.bus?.ask(.change(.enabled(false), by: "test"))
        rig.run(until: 3)
        #expect(rig.snapshot.stateName == .off && rig.snapshot.statusLine.hasPrefix("Scrolling off: switched off"))
        rig.platform.at(DaemonRig.start + 3) { lid.flip(to: false) }
        rig.at(3, logind: .session())
        rig.run(until: 4)
        #expect(rig.state == "off" && rig.platform.captures.count == opened, "switched off, nobody's return opens it")
    }

    @Test func eachReasonCanBeTurnedOffAndAKioskScrollsWithoutASession() {
        let rig = DaemonRig()
        rig.hold(.reading(tilt: 12, at: 2))
        let lid = FakeSwitch(lidClosed: true)
        rig.platform.switches = [lid]
        rig.configuration.activation.pauseWhenLocked = false
        rig.configuration.activation.pauseWhenIdle = false
        rig.configuration.activation.pauseWhenLidClosed = false
        rig.configuration.activation.pauseWithoutSession = false
        rig.configuration.activation.pauseForSleep = false
        #expect(rig.start())
        #expect(rig.platform.switchScans == [.tabletMode], "the lid switch is not even opened")
        #expect(rig.logind.watched == 0, "nor is logind followed")
        rig.run(until: 5)
        #expect(rig.state == "active" && abs(rig.scrolled(from: 3, to: 5)) > 120)

        // Only the kiosk's one: the others still pause.
        let kiosk = DaemonRig()
        kiosk.hold(.reading(tilt: 12, at: 2))
        kiosk.configuration.activation.pauseWithoutSession = false
        kiosk.configuration.activation.pauseForSleep = false
        #expect(kiosk.start())
        #expect(!kiosk.logind.holdsInhibitor, "PauseForSleep=no holds no inhibitor")
        kiosk.at(0.5, logind: .noSession)
        kiosk.at(4, logind: LogindView.noSession.sleeping(true))
        kiosk.run(until: 5)
        #expect(kiosk.state == "active" && abs(kiosk.scrolled(from: 3, to: 5)) > 120)
        kiosk.at(5, logind: .session(locked: true))
        kiosk.run(until: 6)
        kiosk.expectPaused(.locked)
    }

    @Test func aReloadThatTurnsAReasonOffResumesAndOneThatTurnsItOnPauses() throws {
        let rig = DaemonRig()
        rig.hold(.held)
        let lid = FakeSwitch(lidClosed: false)
        rig.platform.switches = [lid]
        #expect(rig.start())
        rig.at(0.5, logind: .session(idle: true))
        rig.run(until: 2)
        rig.expectPaused(.idle)
        try rig.directory.write("tiltscroll.conf", "[Activation]\nPauseWhenIdle=no\n")
        rig.platform.at(DaemonRig.start + 2) { rig.signals.send(SIGHUP) }
        rig.run(until: 3)
        #expect(rig.state == "active")
        try rig.directory.write("tiltscroll.conf", "[Activation]\nPauseWhenIdle=yes\nPauseForSleep=no\n")
        rig.platform.at(DaemonRig.start + 3) { rig.signals.send(SIGHUP) }
        rig.run(until: 4)
        rig.expectPaused(.idle)
        #expect(!rig.logind.holdsInhibitor, "PauseForSleep=no lets the inhibitor go")
        rig.platform.at(DaemonRig.start + 4) { lid.flip(to: true) }
        try rig.directory.write(
            "tiltscroll.conf", "[Activation]\nPauseWhenLocked=no\nPauseWhenIdle=no\nPauseWithoutSession=no\n")
        rig.platform.at(DaemonRig.start + 4) { rig.signals.send(SIGHUP) }
        rig.run(until: 5)
        rig.expectPaused(.lidClosed)
        #expect(rig.logind.holdsInhibitor, "PauseForSleep=yes again")
        try rig.directory.write(
            "tiltscroll.conf",
            "[Activation]\nPauseWhenLocked=no\nPauseWhenIdle=no\nPauseWithoutSession=no\nPauseForSleep=no\n"
                + "PauseWhenLidClosed=no\n")
        rig.platform.at(DaemonRig.start + 5) { rig.signals.send(SIGHUP) }
        rig.run(until: 6)
        #expect(rig.state == "active" && rig.logind.closed, "no key asks: logind is not followed")
        #expect(rig.platform.switchScans.last == .tabletMode, "nor the lid")
    }

    @Test func theBusLostLogindIsForgottenWithIt() {
        let rig = DaemonRig()
        rig.hold(.held)
        #expect(rig.start())
        rig.at(0.5, logind: .session(locked: true))
        rig.run(until: 2)
        rig.expectPaused(.locked)
        rig.platform.bus?.fails = true
        rig.platform.at(DaemonRig.start + 2) { rig.platform.bus?.ask(.reload) }
        rig.run(until: 3)
        #expect(rig.state == "active" && rig.logind.closed)
    }
}

/// The rules that make a pause out of what logind and the lid say.
@Suite struct PauseRulesTests {
    let all = ActivationSettings()

    @Test func nothingKnownPausesNothing() {
        #expect(all.pauseReason(logind: .unknown, lidClosed: nil) == nil)
        #expect(all.pauseReason(logind: .unknown, lidClosed: false) == nil)
        #expect(all.pauseReason(logind: .session(), lidClosed: false) == nil)
    }

    @Test func eachReasonInItsOrder() {
        #expect(all.pauseReason(logind: .session(idle: true), lidClosed: nil) == .idle)
        #expect(all.pauseReason(logind: .session(locked: true, idle: true), lidClosed: nil) == .locked)
        #expect(all.pauseReason(logind: .session(sessionClass: "lock-screen"), lidClosed: nil) == .locked)
        #expect(all.pauseReason(logind: .session(sessionClass: "greeter"), lidClosed: nil) == .noSession)
        #expect(all.pauseReason(logind: .session(active: false), lidClosed: nil) == .noSession)
        #expect(all.pauseReason(logind: .noSession, lidClosed: nil) == .noSession)
        #expect(all.pauseReason(logind: .session(locked: true), lidClosed: true) == .lidClosed)
        #expect(all.pauseReason(logind: LogindView.unknown.sleeping(true), lidClosed: true) == .sleep)
        #expect(all.pauseReason(logind: .unknown, lidClosed: true) == .lidClosed)
        #expect(PauseReason.allCases.map(\.rawValue) == ["sleep", "lid-closed", "no-session", "locked", "idle"])
    }

    @Test func aKeyTurnedOffLetsTheNextReasonSpeak() {
        var settings = ActivationSettings()
        settings.pauseWhenLocked = false
        #expect(settings.pauseReason(logind: .session(locked: true, idle: true), lidClosed: nil) == .idle)
        settings.pauseWithoutSession = false
        #expect(settings.pauseReason(logind: .noSession, lidClosed: nil) == nil)
        #expect(
            settings.pauseReason(logind: .session(idle: true, sessionClass: "greeter"), lidClosed: nil) == nil,
            "a greeter's idleness says nothing of a reader")
        settings.pauseWhenLidClosed = false
        settings.pauseForSleep = false
        #expect(settings.pauseReason(logind: LogindView.noSession.sleeping(true), lidClosed: true) == nil)
        #expect(settings.followsLogind, "PauseWhenIdle= still asks logind")
        settings.pauseWhenIdle = false
        #expect(!settings.followsLogind)
    }

    @Test func pausedIsSaidOnlyWhenWantedOtherwise() {
        var inputs = ActivationInputs(mode: .auto, enabled: true, pause: .locked)
        #expect(!inputs.isWanted && inputs.pausedBy == .locked && inputs.offReason == "the screen is locked")
        inputs.tabletMode = false
        inputs.tabletModeSource = .switch
        #expect(inputs.pausedBy == nil && inputs.offReason == "not in tablet mode")
        inputs.tabletMode = true
        inputs.enabled = false
        #expect(inputs.pausedBy == nil && inputs.offReason?.hasPrefix("switched off") == true)
    }
}
