/// One enabled channel of a buffered device, as `scan_elements` describes it.
struct ScanChannel: Equatable, Sendable {
    /// The attribute prefix, e.g. `in_accel_x` or `in_timestamp`.
    var name: String
    /// `*_index`: the channel's place in the scan.
    var index: Int
    var type: ScanElementType

    /// The kernel always stores the timestamp last, whatever its index
    /// (iio_compute_scan_bytes handles it after the other channels).
    var isTimestamp: Bool { name == "in_timestamp" }
}

/// Where each enabled channel sits in a scan and how long a scan is,
/// computed exactly as the kernel does (drivers/iio/industrialio-buffer.c,
/// iio_compute_scan_bytes and the demux): channels in `index` order, the
/// timestamp last; each element aligned to its own size (storage bytes times
/// repeat); the scan padded to a multiple of its largest element.
struct ScanLayout: Equatable, Sendable {
    struct Element: Equatable, Sendable {
        var channel: ScanChannel
        /// Byte offset of the element from the start of the scan.
        var offset: Int
    }

    /// Elements in the order they appear in a scan.
    var elements: [Element]
    /// Bytes per scan: what one `read()` returns per sample.
    var scanBytes: Int

    /// The layout for the enabled `channels` (any order).
    static func compute(_ channels: [ScanChannel]) throws(ScanLayoutError) -> ScanLayout {
        guard !channels.isEmpty else { throw ScanLayoutError(problem: "no channel is enabled") }
        let timestamps = channels.filter(\.isTimestamp)
        guard timestamps.count <= 1 else {
            throw ScanLayoutError(problem: "more than one timestamp channel")
        }
        let ordered = channels.filter { !$0.isTimestamp }.sorted { $0.index < $1.index } + timestamps
        for (first, second) in zip(ordered, ordered.dropFirst()) where first.index == second.index {
            throw ScanLayoutError(problem: "\(first.name) and \(second.name) have the same index \(first.index)")
        }

        // Offsets follow the demux (roundup); the size follows
        // iio_compute_scan_bytes (ALIGN at every step). The two agree for
        // every power-of-two element size.
        var elements: [Element] = []
        var offset = 0
        var kernelBytes = 0
        var largest = 0
        for channel in ordered {
            let length = channel.type.elementBytes
            offset = roundUp(offset, to: length)
            elements.append(Element(channel: channel, offset: offset))
            offset += length
            kernelBytes = kernelAlign(kernelBytes, length) + length
            largest = max(largest, length)
        }
        let scanBytes = max(kernelAlign(kernelBytes, largest), offset)
        return ScanLayout(elements: elements, scanBytes: scanBytes)
    }

    /// The element of the channel named `name`, if enabled.
    func element(named name: String) -> Element? {
        elements.first { $0.channel.name == name }
    }

    /// The next multiple of `alignment` at or above `value`: the kernel's
    /// `roundup`, used by its demux to place elements.
    static func roundUp(_ value: Int, to alignment: Int) -> Int {
        (value + alignment - 1) / alignment * alignment
    }

    /// The kernel's `ALIGN(value, alignment)` used for the scan size. Equal to
    /// `roundUp` for the power-of-two sizes every driver uses; reproduced
    /// bit for bit so an odd `X` repeat still frames scans as the kernel does.
    static func kernelAlign(_ value: Int, _ alignment: Int) -> Int {
        let mask = alignment - 1
        return (value + mask) & ~mask
    }
}

/// Enabled channels that cannot form a scan.
struct ScanLayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    var problem: String
    var description: String { "scan layout: \(problem)" }
}
