import CEvdev
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// (type, code, value) of every record in the batch, in order.
func records(_ batch: ScrollEventBatch) -> [[Int32]] {
    (0..<batch.count).map { [Int32(batch[$0].type), Int32(batch[$0].code), batch[$0].value] }
}

@Suite struct OutputEncoding {
    /// The codes are the kernel's ABI; a wrong header would scroll with the wrong axis.
    @Test func usesTheKernelsWheelCodes() {
        #expect(EV_SYN == 0 && EV_REL == 2 && SYN_REPORT == 0)
        #expect(REL_HWHEEL == 6 && REL_WHEEL == 8 && REL_WHEEL_HI_RES == 11 && REL_HWHEEL_HI_RES == 12)
    }

    @Test func anEmptyFrameEncodesToNothing() {
        #expect(ScrollEventBatch(encoding: ScrollFrame(), horizontal: true).isEmpty)
        #expect(ScrollEventBatch(encoding: ScrollFrame(), horizontal: false).count == 0)
    }

    @Test func aSubDetentFrameCarriesOnlyHiResThenSyn() {
        let batch = ScrollEventBatch(encoding: ScrollFrame(verticalHiRes: -17), horizontal: false)
        #expect(records(batch) == [[EV_REL, REL_WHEEL_HI_RES, -17], [EV_SYN, SYN_REPORT, 0]])
    }

    @Test func aDetentFrameCarriesHiResThenTheLegacyWheelThenSyn() {
        let batch = ScrollEventBatch(encoding: ScrollFrame(verticalHiRes: 130, verticalDetents: 1), horizontal: false)
        #expect(
            records(batch) == [[EV_REL, REL_WHEEL_HI_RES, 130], [EV_REL, REL_WHEEL, 1], [EV_SYN, SYN_REPORT, 0]])
    }

    @Test func bothAxesFillTheBufferVerticalFirst() {
        let frame = ScrollFrame(verticalHiRes: -250, verticalDetents: -2, horizontalHiRes: 40, horizontalDetents: 1)
        let batch = ScrollEventBatch(encoding: frame, horizontal: true)
        #expect(batch.count == ScrollEventBatch.capacity)
        #expect(
            records(batch) == [
                [EV_REL, REL_WHEEL_HI_RES, -250], [EV_REL, REL_WHEEL, -2],
                [EV_REL, REL_HWHEEL_HI_RES, 40], [EV_REL, REL_HWHEEL, 1],
                [EV_SYN, SYN_REPORT, 0],
            ])
    }

    @Test func aHorizontalOnlyFrameLeavesTheVerticalWheelOut() {
        let batch = ScrollEventBatch(encoding: ScrollFrame(horizontalHiRes: -60), horizontal: true)
        #expect(records(batch) == [[EV_REL, REL_HWHEEL_HI_RES, -60], [EV_SYN, SYN_REPORT, 0]])
    }

    /// A device without the horizontal codes never gets them written.
    @Test func horizontalMotionIsDroppedWhenTheDeviceHasNoHorizontalWheel() {
        let frame = ScrollFrame(verticalHiRes: 5, horizontalHiRes: 300, horizontalDetents: 2)
        #expect(
            records(ScrollEventBatch(encoding: frame, horizontal: false)) == [
                [EV_REL, REL_WHEEL_HI_RES, 5], [EV_SYN, SYN_REPORT, 0],
            ])
        #expect(ScrollEventBatch(encoding: ScrollFrame(horizontalHiRes: 9), horizontal: false).isEmpty)
    }

    @Test func extremeValuesPassUnchanged() {
        let batch = ScrollEventBatch(
            encoding: ScrollFrame(verticalHiRes: .min, verticalDetents: .max), horizontal: false)
        #expect(
            records(batch) == [[EV_REL, REL_WHEEL_HI_RES, .min], [EV_REL, REL_WHEEL, .max], [EV_SYN, SYN_REPORT, 0]])
    }

    /// The bytes handed to write(2) are struct input_event records as the
    /// kernel reads them: zero timestamps, then type, code and value in host order.
    @Test func theBytesAreKernelInputEventRecords() {
        let batch = ScrollEventBatch(encoding: ScrollFrame(verticalHiRes: -130, verticalDetents: -1), horizontal: false)
        let recordSize = MemoryLayout<input_event>.size
        #expect(MemoryLayout<cevdev_input_event>.size == recordSize)
        #expect(MemoryLayout<cevdev_input_event>.stride == recordSize)
        let bytes = batch.withUnsafeBytes { Array($0) }
        #expect(bytes.count == 3 * recordSize)
        let timestampSize = 2 * MemoryLayout<UInt>.size
        func field<T: FixedWidthInteger>(_ record: Int, _ offset: Int, as: T.Type) -> T {
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: record * recordSize + offset, as: T.self) }
        }
        var decoded: [[Int32]] = []
        for record in 0..<3 {
            #expect(bytes[(record * recordSize)..<(record * recordSize + timestampSize)].allSatisfy { $0 == 0 })
            decoded.append([
                Int32(field(record, timestampSize, as: UInt16.self)),
                Int32(field(record, timestampSize + 2, as: UInt16.self)),
                field(record, timestampSize + 4, as: Int32.self),
            ])
        }
        #expect(decoded == [[EV_REL, REL_WHEEL_HI_RES, -130], [EV_REL, REL_WHEEL, -1], [EV_SYN, SYN_REPORT, 0]])
    }
}
