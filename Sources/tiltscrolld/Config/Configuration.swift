import ScrollPhysics

/// `[Device] Mode=`: how samples are captured.
enum CaptureModeSetting: String, CaseIterable, Equatable {
    /// Buffered when the device has a usable trigger and the buffer is free, else polling.
    case auto
    /// Re-read the `*_raw` attributes at the sample rate.
    case poll
    /// Read whole scans from `/dev/iio:deviceN`.
    case buffer
}

/// `[Activation] When=`: when tilt scrolling is on.
enum ActivationMode: String, CaseIterable, Equatable {
    /// Follow a `SW_TABLET_MODE` switch where one exists; always on where none does.
    case auto
    case always
    /// Only while a tablet-mode switch reports tablet mode.
    case tabletMode = "tablet-mode"
    /// Toggled by SIGUSR2 (`tiltscrolld --toggle`); starts off.
    case manual
}

/// `[Device]`.
struct DeviceSettings: Equatable {
    /// IIO device name (`name` attribute) or sysfs path; nil picks the display sensor.
    var name: String? = nil
    /// Overrides every other source of the mount matrix.
    var mountMatrix: MountMatrix? = nil
    /// Samples per second wanted from the sensor.
    var sampleRate: Double = 50
    var mode: CaptureModeSetting = .auto
}

/// `[Activation]`.
struct ActivationSettings: Equatable {
    var when: ActivationMode = .auto
}

/// The whole configuration: `/etc/tiltscroll.conf` or `--config PATH`.
struct Configuration: Equatable {
    var device = DeviceSettings()
    var scroll = ScrollSettings()
    var activation = ActivationSettings()

    /// Where the configuration is read from when `--config` is not given.
    static let defaultPath = "/etc/tiltscroll.conf"
}
