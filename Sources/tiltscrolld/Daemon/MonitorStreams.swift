import Glibc
import ScrollPhysics
import TiltScrollCommon

/// The monitors watching the daemon (`tiltscrollctl monitor`, through the
/// bus's `Monitor()`): each a pipe whose read end went to its caller. The
/// daemon writes a `MonitorRecord` line to each, ten times a second while a
/// sensor is captured and at every change of its snapshot otherwise.
///
/// Costs nothing while none watches: no deadline, no descriptor. A write
/// never blocks the loop: a monitor that does not keep up misses pictures;
/// one whose reader closed (the write fails, or poll reports an error on
/// its end) is let go.
///
/// A class: the loop asks it something every round (its deadline, whether
/// any watches), and each question put to a value stored in the daemon's
/// class copied it first (about 75 instructions a round,
/// Benchmarks/daemon-bench).
final class MonitorStreams {
    /// At most this many at once; the next caller is refused.
    static let limit = 4
    static let interval = 0.1

    private struct Stream {
        let descriptor: FileDescriptor
        /// The totals when it began, so that it shows what scrolled since.
        let startHiRes: Int
        let startHorizontalHiRes: Int
    }

    private var streams: [Stream] = []
    /// Hi-res wheel units emitted since the daemon started.
    private var hiResTotal = 0
    private var horizontalHiResTotal = 0
    /// When the next picture is due while a sensor is captured.
    private var nextWrite: Double?

    var isEmpty: Bool { streams.isEmpty }

    /// The next write, while pictures are due by time.
    var deadline: Double? { streams.isEmpty ? nil : nextWrite }

    /// Counts what a frame scrolled (for the pictures' totals).
    func count(_ frame: ScrollFrame) {
        hiResTotal &+= Int(frame.verticalHiRes)
        horizontalHiResTotal &+= Int(frame.horizontalHiRes)
    }

    /// A caller asked for a stream: a pipe, its read end sent, its first
    /// picture at once.
    func attach(_ reply: MonitorReply, by who: String, now: Double) {
        guard streams.count < MonitorStreams.limit else {
            reply.refused(
                BusError(
                    name: BusError.limitsExceeded,
                    message: "\(MonitorStreams.limit) monitors watch already; close one first"))
            return
        }
        let ends: (read: FileDescriptor, write: FileDescriptor)
        do {
            ends = try FileDescriptor.pipe()
            try ends.write.makeNonBlocking()
        } catch {
            reply.refused(BusError.system(-error.code.rawValue, "make the monitor's pipe"))
            return
        }
        reply.attached(ends.read)
        ends.read.close()
        streams.append(
            Stream(descriptor: ends.write, startHiRes: hiResTotal, startHorizontalHiRes: horizontalHiResTotal))
        nextWrite = now
        Log.debug("Monitor attached (\(who)); \(streams.count) watching")
    }

    /// Watches the write ends for an error: the reader went away.
    func watch(into poller: Poller) {
        for stream in streams { poller.watch(stream.descriptor, events: 0) }
    }

    /// Lets go of the streams whose reader closed (poll found them ready).
    func dropClosed(_ isReady: (FileDescriptor) -> Bool) {
        for index in streams.indices.reversed() where isReady(streams[index].descriptor) {
            drop(at: index)
        }
    }

    /// Writes a picture when one is due: by time while `active`, else when
    /// `changed`. `record` is made only then.
    func writeIfDue(now: Double, active: Bool, changed: Bool, record: () -> MonitorRecord) {
        guard !streams.isEmpty else { return }
        let due = nextWrite.map { now >= $0 } ?? false
        guard due || changed else { return }
        nextWrite = active ? now + MonitorStreams.interval : nil
        var picture = record()
        for index in streams.indices.reversed() {
            let stream = streams[index]
            picture.scrolled = Double(hiResTotal &- stream.startHiRes) / 120
            picture.horizontalScrolled = Double(horizontalHiResTotal &- stream.startHorizontalHiRes) / 120
            do {
                try stream.descriptor.writeAll(Array((picture.encoded + "\n").utf8))
            } catch  where error.code == .tryAgain {
                // The reader does not keep up: it misses this picture.
            } catch {
                drop(at: index)
            }
        }
    }

    func closeAll() {
        for stream in streams { stream.descriptor.close() }
        streams.removeAll()
    }

    private func drop(at index: Int) {
        streams.remove(at: index).descriptor.close()
        Log.debug("Monitor detached; \(streams.count) watching")
    }
}
