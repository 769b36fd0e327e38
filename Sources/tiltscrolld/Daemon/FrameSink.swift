/// Where scroll frames go, and everything that decides about the rest of the
/// daemon: the one place the run mode (`tiltscrolld`, `--dry-run`,
/// `--monitor`) is turned into behaviour, so the loop asks what it needs to
/// know ("does the sink need a uinput device?") instead of which mode it is in.
struct FrameSink: Equatable {
    enum Destination: Equatable {
        /// The uinput device: the daemon's purpose.
        case uinput
        /// `--dry-run`: one printed line per frame.
        case standardOutput
        /// `--monitor`: no frames leave; the terminal view shows the state.
        case monitorView
    }

    let destination: Destination
    /// Frames need a uinput device, created with the capture and destroyed with it.
    let needsScrollDevice: Bool
    /// The switch, `[Activation] When=` and the tablet-mode switch decide
    /// whether it scrolls. The monitor shows the sensor whatever they say.
    let followsActivation: Bool
    /// The neutral pose and the desktop's controls (Enabled, Sensitivity)
    /// are loaded at start and saved when they change.
    let persistsState: Bool
    /// The one daemon of the machine: holds the PID file, and with it the
    /// settings journal that lets the next one restore what a killed one left.
    let holdsPidFile: Bool
    /// Serves the D-Bus API, so that it can be tried and tested without uinput.
    let servesBus: Bool

    /// `tiltscrolld`.
    static let uinput = FrameSink(
        destination: .uinput, needsScrollDevice: true, followsActivation: true, persistsState: true,
        holdsPidFile: true, servesBus: true)
    /// `tiltscrolld --dry-run`.
    static let dryRun = FrameSink(
        destination: .standardOutput, needsScrollDevice: false, followsActivation: true, persistsState: true,
        holdsPidFile: false, servesBus: true)
    /// `tiltscrolld --monitor`.
    static let monitor = FrameSink(
        destination: .monitorView, needsScrollDevice: false, followsActivation: false, persistsState: false,
        holdsPidFile: false, servesBus: false)
}
