/// Why an attempt to capture from the sensor failed, as the lifecycle sees
/// it: which step, the message a person can act on, and whether trying again
/// could ever mend it.
public struct CaptureFailure: Equatable, Sendable {
    public enum Step: String, Equatable, Sendable {
        /// Opening the capture: attributes, sampling frequency, buffer, trigger, scan elements.
        case capture
        /// Creating the uinput device.
        case scrollDevice = "scroll-device"
        /// Reading samples from an open capture.
        case read
    }

    public var step: Step
    /// What failed and why, naming the device and the attribute; no trailing period.
    public var message: String
    /// False when no retry can help (permission refused, uinput missing):
    /// fatal while the daemon starts, retried with back-off afterwards.
    public var retryMayMend = true

    /// The sentence for the log and the status line.
    public var sentence: String {
        switch step {
        case .capture: return "Cannot capture from \(message)"
        case .scrollDevice: return "Cannot create the scroll device: \(message)"
        case .read: return "Cannot read from \(message)"
        }
    }

    public init(step: Step, message: String, retryMayMend: Bool = true) {
        self.step = step
        self.message = message
        self.retryMayMend = retryMayMend
    }
}
