import TiltScrollCommon

/// A change asked of the running daemon, by a signal or over the bus.
///
/// Requests are queued where they arrive (the signal handler, the bus's
/// callbacks inside `sd_bus_process`) and applied by the loop once the
/// round's events are read, with the round's time: nothing that opens a
/// sensor or publishes runs from inside a callback.
enum ControlRequest {
    /// A writable property written (`Enabled`, `Sensitivity`), the value
    /// already checked.
    case change(SettingChange, by: String)
    /// SIGUSR2: switch on when off, off when on.
    case toggle(by: String)
    /// Make the current pose neutral (SIGUSR1, the bus's `Calibrate`);
    /// `reply` answers the caller once it is done or refused.
    case calibrate(by: String, reply: CalibrationReply?)
    /// Attach a monitor: `reply` gets the stream's read end.
    case watch(by: String, reply: MonitorReply)
    /// SIGHUP: read the configuration again.
    case reload
    /// SIGTERM or SIGINT: the signal's name.
    case stop(String)
}

/// The answer a `Calibrate` caller waits for.
protocol CalibrationReply: AnyObject {
    func succeeded()
    func refused(_ error: BusError)
}

/// The answer a `Monitor` caller waits for: the read end of its stream.
protocol MonitorReply: AnyObject {
    /// Sends `descriptor` to the caller; the daemon closes its copy after.
    func attached(_ descriptor: FileDescriptor)
    func refused(_ error: BusError)
}
