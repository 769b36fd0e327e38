import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct ScanLayoutComputation {
    private func channel(_ name: String, _ index: Int, _ type: String) throws -> ScanChannel {
        ScanChannel(name: name, index: index, type: try ScanElementType.parse(type))
    }

    private func offsets(_ layout: ScanLayout) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: layout.elements.map { ($0.channel.name, $0.offset) })
    }

    @Test func placesHidSlotsAndAlignsTheTimestampToEightBytes() throws {
        let layout = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:s16/32>>0"), channel("in_accel_y", 1, "le:s16/32>>0"),
            channel("in_accel_z", 2, "le:s16/32>>0"), channel("in_timestamp", 3, "le:s64/64>>0"),
        ])
        #expect(offsets(layout) == ["in_accel_x": 0, "in_accel_y": 4, "in_accel_z": 8, "in_timestamp": 16])
        #expect(layout.scanBytes == 24)
    }

    @Test func packsSixteenBitAxesBeforeTheTimestamp() throws {
        let layout = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:s12/16>>4"), channel("in_accel_y", 1, "le:s12/16>>4"),
            channel("in_accel_z", 2, "le:s12/16>>4"), channel("in_timestamp", 3, "le:s64/64>>0"),
        ])
        #expect(offsets(layout) == ["in_accel_x": 0, "in_accel_y": 2, "in_accel_z": 4, "in_timestamp": 8])
        #expect(layout.scanBytes == 16)
    }

    @Test func padsTheScanToItsLargestElement() throws {
        let axes = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:s16/16>>0"), channel("in_accel_y", 1, "le:s16/16>>0"),
            channel("in_accel_z", 2, "le:s16/16>>0"),
        ])
        #expect(axes.scanBytes == 6)
        let mixed = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:s8/8>>0"), channel("in_accel_y", 1, "le:s32/32>>0"),
            channel("in_accel_z", 2, "le:s8/8>>0"),
        ])
        #expect(offsets(mixed) == ["in_accel_x": 0, "in_accel_y": 4, "in_accel_z": 8])
        #expect(mixed.scanBytes == 12)
    }

    @Test func alignsEachElementToItsOwnSize() throws {
        let layout = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:u8/8>>0"), channel("in_accel_y", 1, "le:s16/16>>0"),
            channel("in_accel_z", 2, "le:s32/32>>0"), channel("in_temp", 3, "le:u8/8>>0"),
            channel("in_timestamp", 4, "le:s64/64>>0"),
        ])
        #expect(
            offsets(layout) == [
                "in_accel_x": 0, "in_accel_y": 2, "in_accel_z": 4, "in_temp": 8, "in_timestamp": 16,
            ])
        #expect(layout.scanBytes == 24)
    }

    @Test func ordersByIndexNotByListing() throws {
        let layout = try ScanLayout.compute([
            channel("in_accel_z", 7, "le:s16/16>>0"), channel("in_accel_x", 2, "le:s16/16>>0"),
            channel("in_accel_y", 5, "le:s16/16>>0"),
        ])
        #expect(layout.elements.map(\.channel.name) == ["in_accel_x", "in_accel_y", "in_accel_z"])
        #expect(offsets(layout) == ["in_accel_x": 0, "in_accel_y": 2, "in_accel_z": 4])
    }

    @Test func putsTheTimestampLastWhateverItsIndex() throws {
        let layout = try ScanLayout.compute([
            channel("in_timestamp", 0, "le:s64/64>>0"), channel("in_accel_x", 1, "le:s16/16>>0"),
        ])
        #expect(layout.elements.map(\.channel.name) == ["in_accel_x", "in_timestamp"])
        #expect(offsets(layout) == ["in_accel_x": 0, "in_timestamp": 8])
        #expect(layout.scanBytes == 16)
    }

    @Test func alignsRepeatedElementsToTheirWholeSize() throws {
        let layout = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:s16/16>>0"), channel("in_rot_quaternion", 1, "le:s16/16X4>>0"),
        ])
        #expect(offsets(layout) == ["in_accel_x": 0, "in_rot_quaternion": 8])
        #expect(layout.scanBytes == 16)
    }

    @Test func keepsEveryElementInsideTheScanForOddRepeats() throws {
        // A 6-byte element: the kernel's ALIGN and roundup disagree here; the
        // decoder must still never read past a scan.
        let layout = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:u8/8>>0"), channel("in_accel_y", 1, "le:s16/16X3>>0"),
        ])
        for element in layout.elements {
            #expect(element.offset + element.channel.type.elementBytes <= layout.scanBytes)
        }
    }

    @Test func matchesTheKernelsAlignMacro() {
        #expect(ScanLayout.kernelAlign(5, 4) == 8)
        #expect(ScanLayout.kernelAlign(8, 8) == 8)
        #expect(ScanLayout.kernelAlign(0, 2) == 0)
        #expect(ScanLayout.roundUp(13, to: 8) == 16)
        #expect(ScanLayout.roundUp(1, to: 6) == 6)
    }

    @Test func rejectsChannelSetsTheKernelCannotProduce() throws {
        #expect(throws: ScanLayoutError.self) { try ScanLayout.compute([]) }
        #expect(throws: ScanLayoutError.self) {
            try ScanLayout.compute([
                self.channel("in_accel_x", 1, "le:s16/16>>0"), self.channel("in_accel_y", 1, "le:s16/16>>0"),
            ])
        }
        #expect(throws: ScanLayoutError.self) {
            try ScanLayout.compute([
                self.channel("in_timestamp", 3, "le:s64/64>>0"), self.channel("in_timestamp", 4, "le:s64/64>>0"),
            ])
        }
    }

    @Test func decodesAWholeHidScan() throws {
        let layout = try ScanLayout.compute([
            channel("in_accel_x", 0, "le:s16/32>>0"), channel("in_accel_y", 1, "le:s16/32>>0"),
            channel("in_accel_z", 2, "le:s16/32>>0"), channel("in_timestamp", 3, "le:s64/64>>0"),
        ])
        // The report holds x, y, z as consecutive 16-bit values; the driver
        // copies 32 bits per axis, so each slot's upper half is the next axis.
        let x: Int16 = -981
        let y: Int16 = 12
        let z: Int16 = 50
        func le(_ v: Int16) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        var scan = le(x) + le(y) + le(y) + le(z) + le(z) + [0xAA, 0x55] + [0, 0, 0, 0]
        scan += withUnsafeBytes(of: Int64(123_456_789).littleEndian) { Array($0) }
        #expect(scan.count == layout.scanBytes)
        let values = scan.withUnsafeBytes { bytes in
            layout.elements.map { $0.channel.type.value(in: bytes, at: $0.offset) }
        }
        #expect(values == [-981, 12, 50, 123_456_789])
    }
}
