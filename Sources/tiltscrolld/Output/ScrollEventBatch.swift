import CEvdev
import ScrollPhysics
import TiltScrollCommon

/// The kernel input event records of one scroll frame, held in a fixed-size
/// inline buffer so that encoding and writing a frame never allocates.
///
/// A frame needs at most five records: vertical hi-res and detents, horizontal
/// hi-res and detents, and the closing `SYN_REPORT`.
struct ScrollEventBatch {
    /// Five records stored in place. A tuple whose elements all have one type
    /// is laid out as a C array is (element n at n times the stride; Swift
    /// imports C arrays as such tuples), so its bytes are the records in order.
    /// `InlineArray` would say this directly, but it is Swift 6.2 and Debian
    /// 13 builds with Swift 6.0.3.
    private typealias Records = (
        cevdev_input_event, cevdev_input_event, cevdev_input_event, cevdev_input_event, cevdev_input_event
    )
    private static var stride: Int { MemoryLayout<cevdev_input_event>.stride }

    /// How many records the tuple holds.
    static var capacity: Int { MemoryLayout<Records>.size / stride }

    private var records: Records
    /// How many leading records are in use.
    private(set) var count: Int

    /// An empty batch.
    init() {
        let empty = cevdev_input_event()
        records = (empty, empty, empty, empty, empty)
        count = 0
    }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> cevdev_input_event {
        precondition(index >= 0 && index < count, "event index \(index) out of 0..<\(count)")
        return Swift.withUnsafeBytes(of: records) {
            $0.load(fromByteOffset: index * ScrollEventBatch.stride, as: cevdev_input_event.self)
        }
    }

    /// Adds one record with a zero timestamp: uinput stamps events itself.
    mutating func append(type: Int32, code: Int32, value: Int32) {
        precondition(
            count < ScrollEventBatch.capacity, "a scroll frame has at most \(ScrollEventBatch.capacity) events")
        let record = cevdev_input_event(
            seconds: 0, microseconds: 0, type: UInt16(type), code: UInt16(code), value: value)
        let offset = count * ScrollEventBatch.stride
        Swift.withUnsafeMutableBytes(of: &records) {
            $0.storeBytes(of: record, toByteOffset: offset, as: cevdev_input_event.self)
        }
        count += 1
    }

    /// The records in use as raw bytes, exactly what one `write(2)` to uinput takes.
    func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try Swift.withUnsafeBytes(of: records) { (all) throws(E) in
            try body(UnsafeRawBufferPointer(rebasing: all[..<(count * ScrollEventBatch.stride)]))
        }
    }
}

extension ScrollEventBatch {
    /// Encodes one frame the way the kernel's own HID wheel code reports a
    /// high-resolution wheel: for each axis that moved, the hi-res delta
    /// (`REL_WHEEL_HI_RES`, 120 per detent) first, then the legacy whole-detent
    /// delta (`REL_WHEEL`) only in frames where the physics crossed a detent,
    /// and one `SYN_REPORT` closing the frame. Vertical comes before horizontal.
    ///
    /// Zero deltas are left out (the kernel would drop them anyway), so an
    /// empty frame encodes to no records at all and is not written. With
    /// `horizontal` false the device has no horizontal codes, so the frame's
    /// horizontal part is ignored.
    init(encoding frame: ScrollFrame, horizontal: Bool) {
        self.init()
        appendAxis(
            hiResCode: REL_WHEEL_HI_RES, detentCode: REL_WHEEL,
            hiRes: frame.verticalHiRes, detents: frame.verticalDetents)
        if horizontal {
            appendAxis(
                hiResCode: REL_HWHEEL_HI_RES, detentCode: REL_HWHEEL,
                hiRes: frame.horizontalHiRes, detents: frame.horizontalDetents)
        }
        if !isEmpty {
            append(type: EV_SYN, code: SYN_REPORT, value: 0)
        }
    }

    private mutating func appendAxis(hiResCode: Int32, detentCode: Int32, hiRes: Int32, detents: Int32) {
        if hiRes != 0 { append(type: EV_REL, code: hiResCode, value: hiRes) }
        if detents != 0 { append(type: EV_REL, code: detentCode, value: detents) }
    }
}
