import ScrollPhysics

/// `[Device] Mode=`: how samples are captured.
package enum CaptureModeSetting: String, CaseIterable, Equatable {
    /// Buffered when the device has a usable trigger and the buffer is free, else polling.
    case auto
    /// Re-read the `*_raw` attributes at the sample rate.
    case poll
    /// Read whole scans from `/dev/iio:deviceN`.
    case buffer
}

/// `[Activation] When=`: when tilt scrolling is on.
package enum ActivationMode: String, CaseIterable, Equatable {
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
package struct DeviceSettings: Equatable {
    /// IIO device name (`name` attribute) or sysfs path; nil picks the display sensor.
    package var name: String? = nil
    /// Overrides every other source of the mount matrix.
    package var mountMatrix: MountMatrix? = nil
    /// Samples per second wanted from the sensor.
    package var sampleRate: Double = 50
    package var mode: CaptureModeSetting = .auto
}

/// `[Activation]`.
package struct ActivationSettings: Equatable {
    package var when: ActivationMode = .auto
    /// Quiet while the active session's screen is locked (logind's `LockedHint`).
    package var pauseWhenLocked = true
    /// Quiet while the active session is idle (logind's `IdleHint`).
    package var pauseWhenIdle = true
    /// Quiet while a `SW_LID` switch reports the lid closed.
    package var pauseWhenLidClosed = true
    /// Quiet while seat0 has no active session, or a greeter's.
    package var pauseWithoutSession = true
    /// Let go of the sensor and the wheel before sleep, under a logind delay inhibitor.
    package var pauseForSleep = true
    /// Publish the tablet mode the hinge angle tells as a `SW_TABLET_MODE`
    /// switch (uinput) on machines without one.
    package var publishTabletMode = false

    /// Whether any of the keys asks what logind says.
    package var followsLogind: Bool { pauseWhenLocked || pauseWhenIdle || pauseWithoutSession || pauseForSleep }
}

/// The whole configuration: `/etc/tiltscroll.conf` or `--config PATH`.
package struct Configuration: Equatable {
    package var device = DeviceSettings()
    package var scroll = ScrollSettings()
    package var activation = ActivationSettings()

    /// Where the configuration is read from when `--config` is not given.
    package static let defaultPath = "/etc/tiltscroll.conf"
}
