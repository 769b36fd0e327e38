import ScrollPhysics
import TiltScrollCommon

/// What the lifecycle's `active` state holds: the open capture, the output
/// frames go to, and what the per-sample path needs of the sensor. Opened
/// together and closed together (`close`), never one without the other.
final class SensorSession {
    let capture: SampleSource
    let output: FrameOutput
    /// The capture's mode, for the round's snapshot without a call through
    /// the capture's protocol.
    let mode: CaptureMode
    /// The capture's descriptor for poll(2) (buffered), nil for one read on
    /// a timer: fixed while the session is open (the capture is released
    /// only when the session is let go of), kept here for the round's poll
    /// without a call through the capture's protocol.
    let pollDescriptor: FileDescriptor?
    /// The sensor's mount matrix, applied to every sample; udev may change it.
    var mountMatrix: MountMatrix
    /// The latest sample before and after the mount matrix, for the monitor
    /// and the hinge angle (`PostureWatch`), and when it was taken (nil
    /// before the first).
    private(set) var lastRaw = Vector3.zero
    private(set) var lastCorrected = Vector3.zero
    private(set) var lastSampleTime: Double?
    /// Emission failures are said once per streak, not once per frame.
    private var emitFailing = false

    init(capture: SampleSource, output: FrameOutput, mountMatrix: MountMatrix) {
        self.capture = capture
        self.output = output
        mode = capture.mode
        pollDescriptor = capture.pollDescriptor
        self.mountMatrix = mountMatrix
    }

    /// Reads what the capture has and hands each sample, through the mount
    /// matrix, to the engine. Returns the capture's status and whether any
    /// sample came.
    func read(into engine: inout ScrollEngine, now: Double) throws(CaptureError) -> (CaptureStatus, delivered: Bool) {
        let matrix = mountMatrix
        var delivered = false
        let status = try capture.read(now: now) { sample in
            let corrected = matrix.apply(sample.acceleration)
            lastRaw = sample.acceleration
            lastCorrected = corrected
            lastSampleTime = sample.time
            engine.feed(corrected, at: sample.time)
            delivered = true
        }
        return (status, delivered)
    }

    /// The capture follows the demand (`SampleSource.follow`).
    func follow(_ demand: SampleDemand, now: Double) {
        capture.follow(demand, now: now)
    }

    /// Writes a frame; a failure is said when a streak of them starts and
    /// when frames flow again, never per frame. The saying is kept out of
    /// the way, so that a frame costs the output's call and a test.
    func emit(_ frame: ScrollFrame, at time: Double, readout: () -> ScrollReadout) {
        do {
            try output.emit(frame, at: time, readout: readout)
            if emitFailing { sayEmitting(failure: nil) }
        } catch {
            if !emitFailing { sayEmitting(failure: error) }
        }
    }

    /// A streak of failures begins (`failure`) or ends (nil).
    @inline(never)
    private func sayEmitting(failure: OutputError?) {
        emitFailing = failure != nil
        if let failure {
            Log.warning("Cannot emit scroll events: \(failure)")
        } else {
            Log.info("Scroll events flow again")
        }
    }

    /// Lets go of both: the capture restores what it changed (all of it, or
    /// all but the raised sampling frequency when `forRetry`, which then
    /// stays recorded in its journal), the uinput device disappears.
    func close(forRetry: Bool) {
        if forRetry {
            _ = capture.releaseForRetry()
        } else {
            capture.release()
        }
        output.close()
    }
}
