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
    /// Follow a `SW_TABLET_MODE` switch where one exists; always on where none does.
    case auto
    case always
    /// Only while a tablet-mode switch reports tablet mode.
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
}

/// The whole configuration: `/etc/tiltscroll.conf` or `--config PATH`.
package struct Configuration: Equatable {
    package var device = DeviceSettings()
    package var scroll = ScrollSettings()
    package var activation = ActivationSettings()

    /// Where the configuration is read from when `--config` is not given.
    package static let defaultPath = "/etc/tiltscroll.conf"
}
