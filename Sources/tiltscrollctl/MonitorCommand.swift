import Glibc
import TiltScrollCommon

/// `tiltscrollctl monitor`: the running daemon's monitor records, drawn in
/// place as they come (`MonitorView`), until Ctrl-C or the daemon stops.
enum MonitorCommand {
    static func run() -> Int32 {
        let stream: FileDescriptor
        do throws(ClientError) {
            stream = try BusClient.connect().monitor()
        } catch {
            Log.error("tiltscrollctl: \(error)")
            return 1
        }
        defer { stream.close() }
        let signals: SignalChannel
        do {
            signals = try SignalChannel.open([SIGINT, SIGTERM])
        } catch {
            Log.error("tiltscrollctl: cannot receive signals: \(error)")
            return 1
        }
        defer { signals.close() }
        let view = MonitorView(title: "tiltscrollctl monitor")
        defer { view.finish() }
        var lines = LineBuffer()
        let poller = Poller()
        while true {
            poller.reset()
            let signalSlot = poller.watch(signals.descriptor)
            let streamSlot = poller.watch(stream)
            do {
                try poller.wait(until: nil, now: 0)
            } catch {
                Log.error("tiltscrollctl: \(error)")
                return 1
            }
            if poller.isReadable(signalSlot) { return 0 }
            guard poller.isReadable(streamSlot) else { continue }
            let ended: Bool
            do {
                ended = try lines.read(from: stream)
            } catch {
                Log.error("tiltscrollctl: reading the monitor's stream: \(error)")
                return 1
            }
            // Only the newest picture matters; older ones waiting are skipped.
            if let line = lines.takeLast() {
                do {
                    view.draw(try MonitorRecord(parsing: line[...]))
                } catch {
                    Log.debug("Skipping a monitor record: \(error)")
                }
            }
            if ended {
                view.finish()
                Log.error("tiltscrollctl: tiltscrolld stopped")
                return 1
            }
        }
    }
}

/// Complete lines from a stream, a read at a time.
struct LineBuffer {
    /// Longer lines are not records: dropped, so that the buffer stays bounded.
    static let lineLimit = 64 * 1024
    private var pending: [UInt8] = []
    private var complete: [String] = []

    /// Reads what the stream has; true at its end.
    mutating func read(from descriptor: FileDescriptor) throws(SystemError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = try descriptor.readStream(into: &chunk)
        if count == 0 { return true }
        for byte in chunk[..<count] {
            if byte == 0x0A {
                complete.append(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < LineBuffer.lineLimit {
                pending.append(byte)
            }
        }
        return false
    }

    /// The newest complete line, forgetting the others.
    mutating func takeLast() -> String? {
        defer { complete.removeAll() }
        return complete.last
    }
}
