import ScrollPhysics

/// `[Device] Mode=`: how samples are captured.
public enum CaptureModeSetting: String, CaseIterable, Equatable, Sendable {
    /// Buffered when the device has a usable trigger and the buffer is free, else polling.
    case auto
    /// Re-read the `*_raw` attributes at the sample rate.
    case poll
    /// Read whole scans from `/dev/iio:deviceN`.
    case buffer
}

/// `[Activation] When=`: when tilt scrolling is on.
public enum ActivationMode: String, CaseIterable, Equatable, Sendable {
    /// Follow a `SW_TABLET_MODE` switch where one exists, else the hinge
    /// angle where the display and the base each have an accelerometer;
    /// always on where neither tells tablet mode.
    case auto
    case always
    /// Only in tablet mode, as the switch or the hinge angle tells it.
    case tabletMode = "tablet-mode"
    /// Toggled by SIGUSR2 (`tiltscrolld --toggle`); starts off.
    case manual
}

/// `[Device]`.
public struct DeviceSettings: Equatable, Sendable {
    /// IIO device name (`name` attribute) or sysfs path; nil picks the display sensor.
    public var name: String? = nil
    /// Overrides every other source of the mount matrix.
    public var mountMatrix: MountMatrix? = nil
    /// Samples per second wanted from the sensor.
    public var sampleRate: Double = 50
    public var mode: CaptureModeSetting = .auto
}

/// `[Activation]`.
public struct ActivationSettings: Equatable, Sendable {
    public var when: ActivationMode = .auto
    /// Quiet while the active session's screen is locked (logind's `LockedHint`).
    public var pauseWhenLocked = true
    /// Quiet while the active session is idle (logind's `IdleHint`).
    public var pauseWhenIdle = true
    /// Quiet while a `SW_LID` switch reports the lid closed.
    public var pauseWhenLidClosed = true
    /// Quiet while seat0 has no active session, or a greeter's.
    public var pauseWithoutSession = true
    /// Let go of the sensor and the wheel before sleep, under a logind delay inhibitor.
    public var pauseForSleep = true
    /// Publish the tablet mode the hinge angle tells as a `SW_TABLET_MODE`
    /// switch (uinput) on machines without one.
    public var publishTabletMode = false

    /// Whether any of the keys asks what logind says.
    public var followsLogind: Bool { pauseWhenLocked || pauseWhenIdle || pauseWithoutSession || pauseForSleep }
}

/// The whole configuration: `/etc/tiltscroll.conf` or `--config PATH`.
public struct Configuration: Equatable, Sendable {
    public var device = DeviceSettings()
    public var scroll = ScrollSettings()
    public var activation = ActivationSettings()

    /// Where the configuration is read from when `--config` is not given.
    public static let defaultPath = "/etc/tiltscroll.conf"
}
