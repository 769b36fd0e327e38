import ScrollPhysics

/// Every key of `tiltscroll.conf`, section by section, in the order the
/// effective configuration is written. Each maps onto one field of
/// `Configuration`; the defaults are those of the value types.
extension ConfigKey {
    public static let all: [ConfigKey] = device + scroll + activation

    public static func named(_ name: String, in section: ConfigSection) -> ConfigKey? {
        all.first { $0.section == section && $0.name == name }
    }

    public static func keys(in section: ConfigSection) -> [ConfigKey] { all.filter { $0.section == section } }

    private static let device: [ConfigKey] = [
        ConfigKey(
            section: .device, name: "Name",
            help: "the accelerometer to use: its IIO name (the 'name' attribute) or its sysfs path",
            values: "a name or a path; empty picks the display sensor",
            assign: { configuration, text in configuration.device.name = text.isEmpty ? nil : text },
            render: { $0.device.name ?? "" }),
        ConfigKey(
            section: .device, name: "MountMatrix",
            help: "overrides the sensor's mount matrix from udev (hwdb) or sysfs",
            values: "three rows in the hwdb form, like 0, -1, 0; -1, 0, 0; 0, 0, 1; empty keeps the sensor's own",
            assign: { (configuration, text) throws(InvalidValue) in
                if text.isEmpty {
                    configuration.device.mountMatrix = nil
                    return
                }
                do throws(MountMatrixError) {
                    configuration.device.mountMatrix = try MountMatrix(parsing: text)
                } catch {
                    throw InvalidValue(
                        message: "MountMatrix is not valid: \(error.problem) in '\(ConfigFileSyntax.shown(text))'; "
                            + "expected three rows of three numbers like '0, -1, 0; -1, 0, 0; 0, 0, 1'")
                }
            },
            render: { $0.device.mountMatrix?.description ?? "" }),
        .number(
            .device, "SampleRate", \.device.sampleRate, range: .closed(ScrollSettings.sampleRateRange),
            help: "samples per second wanted from the sensor, Hz"),
        .choice(
            .device, "Mode", \.device.mode, words: words(of: CaptureModeSetting.self),
            help:
                "how samples are read: auto polls where the driver allows (leaving the buffer to iio-sensor-proxy), buffer prefers the buffer"
        ),
    ]

    private static let scroll: [ConfigKey] = [
        .number(
            .scroll, "Speed", \.scroll.speed, range: .above(0, through: ScrollSettings.speedRange.upperBound),
            help: "scroll speed at full tilt, detents per second"),
        .number(
            .scroll, "DeadZone", \.scroll.deadZoneDegrees, range: .closed(ScrollSettings.deadZoneRange),
            help: "tilt around the neutral pose that never scrolls, degrees; must be below MaxTilt"),
        .number(
            .scroll, "MaxTilt", \.scroll.maxTiltDegrees, range: .closed(ScrollSettings.maxTiltRange),
            help: "tilt from neutral at which the speed reaches Speed, degrees"),
        .number(
            .scroll, "Curve", \.scroll.curve, range: .closed(ScrollSettings.curveRange),
            help: "exponent of the response between DeadZone and MaxTilt; 1 is linear, higher is gentler near neutral"),
        .boolean(.scroll, "Invert", \.scroll.invert, help: "reverse the vertical scroll direction"),
        .boolean(.scroll, "Horizontal", \.scroll.horizontal, help: "also scroll sideways from sideways tilt"),
        .number(
            .scroll, "HorizontalDeadZone", \.scroll.horizontalDeadZoneDegrees,
            range: .closed(ScrollSettings.horizontalDeadZoneRange),
            help: "dead zone of the sideways tilt, degrees; must be below MaxTilt"),
        .choice(
            .scroll, "Orientation", \.scroll.orientation,
            words: [("auto", OrientationSetting.auto)]
                + ScreenOrientation.allCases.map { ($0.rawValue, OrientationSetting.fixed($0)) },
            help: "which screen edge is up: follow the rotation (auto), or pin one"),
        .number(
            .scroll, "SmoothingCutoff", \.scroll.smoothingMinCutoff,
            range: .closed(ScrollSettings.smoothingMinCutoffRange),
            help:
                "smoothing filter cutoff at rest, Hz; lower is smoother but lags more; must be below half of SampleRate"
        ),
        .number(
            .scroll, "SmoothingBeta", \.scroll.smoothingBeta, range: .closed(ScrollSettings.smoothingBetaRange),
            help: "how fast the smoothing lets go when tilting quickly; higher lags less"),
        .number(
            .scroll, "Inertia", \.scroll.inertiaMilliseconds, range: .closed(ScrollSettings.inertiaRange),
            help: "milliseconds scrolling takes to coast to a stop after returning to neutral; 0 is off"),
        .number(
            .scroll, "Acceleration", \.scroll.maxAcceleration, range: .closed(ScrollSettings.maxAccelerationRange),
            help: "largest change of speed, detents per second squared, so scrolling starts and stops smoothly"),
        .number(
            .scroll, "OutputRate", \.scroll.outputRate, range: .closed(ScrollSettings.outputRateRange),
            help: "scroll events per second while scrolling, Hz"),
        .number(
            .scroll, "GravityTolerance", \.scroll.gravityTolerance,
            range: .closed(ScrollSettings.gravityToleranceRange),
            help: "samples whose magnitude differs from 1 g by more than this fraction are ignored"),
        .boolean(
            .scroll, "PauseOnTouch", \.scroll.pauseOnTouch,
            help: "pause tilt scrolling while a finger or pen touches a touchscreen or pen tablet "
                + "(no: those devices are not even opened)"),
        .boolean(
            .scroll, "ZeroOnTouch", \.scroll.zeroOnTouch,
            help: "when the last finger or pen lifts, the pose held becomes the neutral one "
                + "(only with PauseOnTouch=yes)"),
    ]

    private static let activation: [ConfigKey] = [
        .choice(
            .activation, "When", \.activation.when, words: words(of: ActivationMode.self),
            help: "when tilt scrolling is on: auto follows a tablet-mode switch where one exists, else the "
                + "hinge angle where the display and the base each have an accelerometer, else always; "
                + "manual toggles with tiltscrollctl toggle"),
        .boolean(
            .activation, "PauseWhenLocked", \.activation.pauseWhenLocked,
            help: "pause while the screen of the active session is locked (logind's LockedHint)"),
        .boolean(
            .activation, "PauseWhenIdle", \.activation.pauseWhenIdle,
            help: "pause while the active session is idle (logind's IdleHint, set when the desktop blanks the screen)"),
        .boolean(
            .activation, "PauseWhenLidClosed", \.activation.pauseWhenLidClosed,
            help: "pause while a lid switch (SW_LID) reports the lid closed (no: lid switches are not even opened)"),
        .boolean(
            .activation, "PauseWithoutSession", \.activation.pauseWithoutSession,
            help: "pause while no session is active on seat0: a login screen, another virtual terminal "
                + "(no: for a kiosk without sessions)"),
        .boolean(
            .activation, "PauseForSleep", \.activation.pauseForSleep,
            help: "let go of the sensor and the virtual wheel before the machine sleeps, holding sleep back "
                + "meanwhile (a logind delay inhibitor), and start afresh after it"),
        .boolean(
            .activation, "PublishTabletMode", \.activation.publishTabletMode,
            help: "on a machine without a tablet-mode switch, publish the tablet mode the hinge angle tells as "
                + "one (a uinput SW_TABLET_MODE switch): libinput then turns the keyboard and touchpad off in "
                + "tablet mode, and the desktop offers its on-screen keyboard"),
    ]
}
