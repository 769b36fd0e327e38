import ScrollPhysics
import TiltScrollCommon

/// Tablet mode from the hinge angle (issue 25), on a 360-degree convertible
/// with an accelerometer in the display and one in the keyboard base and
/// no `SW_TABLET_MODE` switch (the kernel turns the switch off on such
/// machines and leaves the mode to user space).
///
/// While the daemon needs the posture (`isNeeded`) the watch owns:
///
/// - a capture of the base's sensor, read one sample at a time on the
///   wake-up that brings a display sample, when a pair is due: at the
///   detector's demand, 2 pairs a second while nothing moves, 5 while a
///   change is decided (`HingePostureDetector.sampleDemand`). The two
///   readings of a pair are then taken within one round of the loop, well
///   within `HingePostureDetector.pairingSeconds`;
/// - while the lifecycle is off (no session, so no display samples), a
///   capture of the display's sensor of its own at the same demand. It is
///   closed before the lifecycle opens its session (a buffer is exclusive:
///   `closeOwnDisplay`), whose samples serve from then on, at least at the
///   pair rate (`demandRate`);
/// - the detector (pure), forgotten whenever the sensors are let go of:
///   what it knew is old news by the time they are read again;
/// - the published switch (`[Activation] PublishTabletMode=yes`), created at
///   the first decision, set at each change, destroyed on exit, before
///   sleep and when the hinge no longer tells the mode.
///
/// Its captures are opened through the platform and record what they
/// change in the settings journals (`DaemonInstance`): the display's
/// in the scrolling capture's file (the two are never open at once), the
/// base's in a file of its own.
///
/// A capture that fails makes the hinge unusable until udev announces a
/// change of an accelerometer (`discover`): `When=auto` then falls back to
/// always on, as on a machine with one sensor, rather than wait forever.
///
/// What it costs: nothing while not needed (no descriptor, no deadline).
/// Needed while scrolling is off: one wake-up per pair, both sensors read
/// in it. While scrolling: no wake-up of its own.
final class PostureWatch {
    /// The two accelerometers the hinge angle is read with.
    struct Sensors: Equatable {
        /// The display's, which scrolls; its mount matrix may be `[Device]
        /// MountMatrix=`.
        var display: AccelerometerDevice
        /// The base's, with its own mount matrix.
        var base: AccelerometerDevice
    }

    private let platform: DaemonPlatform
    /// Where the captures record what they change; nil keeps it in memory
    /// (`--dry-run`, which claims no journal).
    var journalFiles: (display: SettingsJournalFile?, base: SettingsJournalFile?) = (nil, nil)
    /// Whether the tablet mode may be published (not in `--dry-run`, which
    /// runs beside the real daemon).
    let mayPublish: Bool

    /// The machine's two accelerometers, while it has both.
    private(set) var sensors: Sensors?
    /// Why the hinge cannot be read since a capture failed; nil while it can.
    private(set) var failure: String?
    private(set) var detector = HingePostureDetector()
    private var base: SampleSource?
    /// The display's capture of the watch's own, while the lifecycle has no session.
    private var ownDisplay: SampleSource?
    /// The time of the last display sample seen, paired or not.
    private var lastDisplayTime: Double?
    /// When the next pair is due, on the samples' clock; nil: with the next sample.
    private var nextPairAt: Double?
    /// Pairs given to the detector since the daemon started.
    private(set) var pairs = 0
    private var published: TabletModeOutput?
    /// The state last written to `published`.
    private var publishedState: Bool?
    /// Creating the switch failed: not tried again until publishing is
    /// wanted afresh (a reload, a wake-up from sleep).
    private var publishFailed = false

    init(platform: DaemonPlatform, mayPublish: Bool) {
        self.platform = platform
        self.mayPublish = mayPublish
    }

    // MARK: - What it tells

    /// Whether the hinge can tell tablet mode: both sensors known, neither failing.
    var isAvailable: Bool { sensors != nil && failure == nil }

    /// Whether the base's sensor is captured: the posture is being watched.
    var isWatching: Bool { base != nil }

    /// Whether anything is held that sleep must wait for: a capture, the published switch.
    var holdsAnything: Bool { base != nil || ownDisplay != nil || published != nil }

    /// Nothing to follow, read, publish or forget: no second accelerometer
    /// known, nothing held, no failure remembered. Most machines, every round.
    var isIdle: Bool { sensors == nil && !holdsAnything && !publishFailed }

    /// Tablet mode (a tent, a stand, a tablet) or laptop mode, as the hinge
    /// tells it; nil while not decided, or not watched.
    var tabletMode: Bool? {
        detector.posture == .undecided ? nil : detector.posture.isTabletMode
    }

    /// Samples a second the display must deliver while the posture is
    /// watched, so that each pair comes when due; nil while it is not.
    var demandRate: Double? { isWatching ? detector.sampleDemand.rate : nil }

    /// Whether the posture is needed, given what decides scrolling and
    /// whether it is published; the hinge being usable aside.
    ///
    /// Never before sleep, nor while the lid is closed (a lid switch says
    /// what the angle would: closed is no tablet). Otherwise always while
    /// it is published: the keyboard and touchpad follow it whether or
    /// not anything scrolls, and a locked screen must get its keyboard
    /// back when the machine is unfolded to type the password. Unpublished,
    /// only while it decides scrolling (`When=auto`, `tablet-mode`) and
    /// scrolling is not off anyway (switched off, paused).
    static func isNeeded(_ activation: ActivationInputs, publishing: Bool) -> Bool {
        if activation.pause == .sleep || activation.pause == .lidClosed { return false }
        if publishing { return true }
        guard activation.mode == .auto || activation.mode == .tabletMode else { return false }
        return activation.enabled && activation.pause == nil
    }

    // MARK: - The sensors

    /// The machine's accelerometers as discovery found them now: a change
    /// (one came or went, a mount matrix changed) lets go of everything and
    /// starts afresh; so does any call after a failure, which udev's
    /// announcement of a change may have mended. Returns whether anything changed.
    @discardableResult
    func discover(display: AccelerometerDevice?, base: AccelerometerDevice?) -> Bool {
        let found = display.flatMap { display in base.map { Sensors(display: display, base: $0) } }
        guard found != sensors || failure != nil else { return false }
        letGo()
        failure = nil
        if let found {
            Log.info(
                "Two accelerometers: \(found.display.name) in the display, \(found.base.name) in the base "
                    + "(\(found.base.sysfsPath)): tablet mode can come from the hinge angle")
        } else if sensors != nil {
            Log.info("No accelerometer in the base any more: tablet mode cannot come from the hinge angle")
        }
        sensors = found
        return true
    }

    /// Opens what is `needed` and lets go of the rest: the base's capture
    /// while needed, the display's own while needed and `ownDisplay` (the
    /// lifecycle has no session). `settings` are `[Device]`'s, for the
    /// display's capture mode.
    func follow(needed: Bool, ownDisplay wantsOwnDisplay: Bool, settings: DeviceSettings, now: Double) {
        guard needed, let sensors, failure == nil else {
            letGo()
            return
        }
        if base == nil {
            // One sample at a time, when a pair is due; [Device]'s keys are the display's.
            var baseSettings = settings
            baseSettings.name = nil
            baseSettings.mountMatrix = nil
            baseSettings.mode = .poll
            baseSettings.sampleRate = HingePostureDetector.decidingRate
            guard let opened = open(sensors.base, baseSettings, journal: journalFiles.base) else { return }
            base = opened
            Log.debug("Watching the hinge: \(sensors.base.name) read on the display's wake-ups")
        }
        if wantsOwnDisplay, ownDisplay == nil {
            var displaySettings = settings
            displaySettings.sampleRate = HingePostureDetector.decidingRate
            guard let opened = open(sensors.display, displaySettings, journal: journalFiles.display) else { return }
            opened.follow(ownDemand, now: now)
            ownDisplay = opened
        } else if !wantsOwnDisplay {
            closeOwnDisplay()
        }
    }

    /// Closes the display's capture of its own, putting back what it
    /// changed: before the lifecycle opens the same sensor.
    func closeOwnDisplay() {
        ownDisplay?.release()
        ownDisplay = nil
    }

    /// Lets go of both captures and forgets the posture.
    func letGo() {
        // Asked every round while the hinge is not needed: with nothing
        // held there is nothing to forget (the detector is fed only while
        // the base is captured, and forgotten when it is let go of).
        guard base != nil || ownDisplay != nil else { return }
        closeOwnDisplay()
        base?.release()
        base = nil
        detector.forget()
        lastDisplayTime = nil
        nextPairAt = nil
    }

    /// Everything goes: the captures and the published switch (the daemon stops).
    func close() {
        letGo()
        unpublish()
    }

    private func open(_ device: AccelerometerDevice, _ settings: DeviceSettings, journal file: SettingsJournalFile?)
        -> SampleSource?
    {
        do {
            return try platform.openCapture(device, settings, journal: SettingsJournal(file: file))
        } catch {
            fail("\(device.name): \(error.message)")
            return nil
        }
    }

    private func fail(_ message: String) {
        Log.warning(
            "Cannot read the hinge angle (\(message)); tablet mode does not come from it until udev announces "
                + "a change of an accelerometer")
        letGo()
        failure = message
    }

    // MARK: - Pairs

    /// What the watch's own display capture asks of the device.
    private var ownDemand: SampleDemand {
        // Every reading matters to the hinge: no resting (a hub's raised change sensitivity).
        SampleDemand(rate: detector.sampleDemand.rate, state: .holding)
    }

    /// The display's own capture: the descriptor to poll (buffered), when
    /// to read it next (polled); nil without one.
    var pollDescriptor: FileDescriptor? { ownDisplay?.pollDescriptor }

    func nextReadTime(now: Double) -> Double? {
        guard let ownDisplay, ownDisplay.pollDescriptor == nil else { return nil }
        return ownDisplay.nextReadTime(now: now)
    }

    /// Reads the display's own capture when it is due (or its descriptor
    /// was readable), and pairs its latest sample.
    func readOwnDisplay(now: Double, descriptorReady: Bool) {
        guard let capture = ownDisplay, let sensors else { return }
        if capture.pollDescriptor != nil {
            guard descriptorReady else { return }
        } else {
            guard let due = capture.nextReadTime(now: now), due <= now else { return }
        }
        var latest: AccelSample?
        do {
            _ = try capture.read(now: now) { latest = $0 }
        } catch {
            fail("\(sensors.display.name): \(error.message)")
            return
        }
        // It runs at the pair rate: each of its samples is a pair's.
        if let latest {
            takeDisplay(sensors.display.mountMatrix.apply(latest.acceleration), at: latest.time, rate: nil, now: now)
        }
        // The pair may have changed the demand; a failed base read let go of it.
        ownDisplay?.follow(ownDemand, now: now)
    }

    /// The session's latest display sample, if it brought a new one.
    func takeSession(_ session: SensorSession, now: Double) {
        // Asked every round: nothing is read from the session while no base is watched.
        guard base != nil, let time = session.lastSampleTime else { return }
        takeDisplay(session.lastCorrected, at: time, rate: session.capture.currentRate, now: now)
    }

    /// A display sample, through its mount matrix, taken at `time` by a
    /// capture running at `rate` (nil: at the pair rate, every sample due):
    /// when a pair is due (this is the sample nearest the time it is due,
    /// so half a period early counts), the base is read now and the two go
    /// to the detector.
    private func takeDisplay(_ display: Vector3, at time: Double, rate: Double?, now: Double) {
        guard let base, let sensors, time != lastDisplayTime else { return }
        lastDisplayTime = time
        if let rate, let due = nextPairAt, rate > 0, time + 0.5 / rate < due { return }
        var reading: AccelSample?
        do {
            _ = try base.read(now: now) { reading = $0 }
        } catch {
            fail("\(sensors.base.name): \(error.message)")
            return
        }
        // Refused for now (another reader runs its buffer): the next pair tries again.
        guard let reading else { return }
        pairs += 1
        let was = detector.posture
        if detector.observe(
            display: display, at: time, base: sensors.base.mountMatrix.apply(reading.acceleration), at: reading.time)
        {
            let angle = detector.angleDegrees.map { ", \(FixedPoint.format($0, decimals: 0)) degrees" } ?? ""
            Log.info("Hinge: \(was.name) -> \(detector.posture.name)\(angle)")
        }
        nextPairAt = time + 1 / detector.sampleDemand.rate
        base.follow(ownDemand, now: now)
    }

    // MARK: - The published switch

    /// Publishes the tablet mode while `wanted`, as laptop mode while
    /// `asLaptop` (the lid closed); destroys the switch otherwise. Created
    /// at the first decision: undecided, nothing is said (and what was
    /// said stays).
    func publish(wanted: Bool, asLaptop: Bool) {
        guard wanted, mayPublish else {
            unpublish()
            publishFailed = false
            return
        }
        guard let state = asLaptop ? false : tabletMode, state != publishedState else { return }
        if let published {
            do {
                try published.set(tabletMode: state)
                publishedState = state
                Log.info("Published tablet mode: \(state ? "tablet" : "laptop")")
            } catch {
                Log.warning("Cannot set the published tablet-mode switch: \(error); it goes")
                unpublish()
                publishFailed = true
            }
            return
        }
        guard !publishFailed else { return }
        do {
            let created = try platform.openTabletSwitch(tabletMode: state)
            published = created
            publishedState = state
            Log.info(
                "Publishing tablet mode as a switch\(created.deviceNode.map { " (\($0))" } ?? ""): "
                    + (state ? "tablet" : "laptop"))
        } catch {
            Log.warning("Cannot publish tablet mode (PublishTabletMode=yes): \(error)")
            publishFailed = true
        }
    }

    private func unpublish() {
        guard let published else { return }
        published.destroy()
        self.published = nil
        publishedState = nil
        Log.info("Tablet-mode switch removed")
    }
}
