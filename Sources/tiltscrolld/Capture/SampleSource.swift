import ScrollPhysics
import TiltScrollCommon

/// One accelerometer reading.
struct AccelSample: Equatable {
    /// m/s^2 in the sensor's frame: (raw + offset) * scale; the mount matrix
    /// is not applied.
    var acceleration: Vector3
    /// When it was measured, seconds on the daemon's clock (`DaemonClock`,
    /// CLOCK_BOOTTIME).
    var time: Double
}

/// What a `SampleSource.read` that did not fail achieved.
enum CaptureStatus: Equatable {
    /// Read what there was (possibly nothing).
    case ok
    /// The device refuses reads for now (another process runs its buffer and
    /// the driver forbids raw reads meanwhile); call again at `until`, not before.
    case retryLater(until: Double)
}

/// One capture session on one device. Polling and buffered capture are the
/// two implementations (PollCapture.swift, BufferCapture.swift).
protocol SampleSource: AnyObject {
    var mode: CaptureMode { get }
    /// The scale and offset its samples are converted with.
    var calibration: AccelCalibration { get }
    /// The descriptor to poll(2) for POLLIN (buffered capture); nil for
    /// timer-driven polling.
    var pollDescriptor: FileDescriptor? { get }
    /// Timer-driven sources: when the loop should call `read` next (never
    /// before `now`); nil for descriptor-driven ones.
    func nextReadTime(now: Double) -> Double?
    /// Reads what is available now and hands each sample to `sink`, oldest
    /// first. No allocation per sample: buffers are allocated when opened.
    /// Throws when the capture cannot continue (device gone, unreadable):
    /// release it then.
    func read(now: Double, into sink: (AccelSample) -> Void) throws(CaptureError) -> CaptureStatus
    /// Runs the capture at `demand.rate` samples a second or faster from
    /// `now` on, as far as the device allows (`ScrollEngine.sampleDemand`;
    /// `demand.state` says why: resting, held still, scrolling). Call it on
    /// every wake-up; it does nothing while the demand stays the same. Never
    /// faster than the rate the capture was opened with.
    func follow(_ demand: SampleDemand, now: Double)
    /// Samples a second the capture runs at now (what `follow` made of the
    /// demand).
    var currentRate: Double { get }
    /// How many device settings `follow` has written since the capture was
    /// opened (sampling frequency, change sensitivity): each is a sysfs write,
    /// for a HID sensor hub a report round trip.
    var settingWrites: Int { get }
    /// Restores every setting the capture changed (sampling frequency,
    /// channels, trigger, buffer length and enable, change sensitivity) and
    /// closes its descriptors. Safe to call more than once.
    func release()
    /// Like `release`, for a capture that failed and will be tried again:
    /// the raised sampling frequency stays, and the journal that records it
    /// goes to the caller, who hands it to the next attempt's `open` or
    /// restores it (`restoreAll`) when it stops trying.
    func releaseForRetry() -> SettingsJournal
}
