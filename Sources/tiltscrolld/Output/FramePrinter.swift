import ScrollPhysics
import TiltScrollCommon

/// `tiltscrolld --dry-run`: frames go to standard output, one line each, in
/// the format of a replay (`ReplayPrinter`), with a line for each change of
/// the intent state and each touch, so that a run can be read or compared
/// with a replay of the same trace. Times are seconds since the daemon started.
final class FramePrinter: FrameOutput {
    private var printer = ReplayPrinter()
    private let startTime: Double

    init(startTime: Double) { self.startTime = startTime }

    var deviceNode: String? { nil }

    func emit(_ frame: ScrollFrame, at time: Double, readout: () -> ScrollReadout) throws(OutputError) {
        var line = ""
        printer.write(ReplayStep(time: time - startTime, event: .frame, frame: frame, readout: readout()), to: &line)
        StandardOutput.write(line)
    }

    func note(_ change: PhysicsChange, at time: Double, readout: () -> ScrollReadout) {
        var line = ""
        switch change {
        case .intent:
            printer.writeChanges(readout(), at: time - startTime, to: &line)
        case .touch(let touching):
            printer.write(
                ReplayStep(time: time - startTime, event: .touch(touching: touching), frame: nil, readout: readout()),
                to: &line)
        }
        StandardOutput.write(line)
    }

    func close() {}
}

extension ScrollDevice: FrameOutput {
    func emit(_ frame: ScrollFrame, at time: Double, readout: () -> ScrollReadout) throws(OutputError) {
        try emit(frame)
    }

    /// A wheel has nothing to show of the physics.
    func note(_ change: PhysicsChange, at time: Double, readout: () -> ScrollReadout) {}

    func close() { destroy() }
}
