import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct ScanElementTypeParsing {
    @Test func readsTheKxcjkFormatWithShift() throws {
        let type = try ScanElementType.parse("le:s12/16>>4")
        #expect(
            type
                == ScanElementType(
                    endianness: .little, isSigned: true, realBits: 12, storageBits: 16, repeatCount: 1, shift: 4))
        #expect(type.elementBytes == 2)
    }

    @Test func readsTheHidSensorHubFormatAndTheTimestamp() throws {
        let hid = try ScanElementType.parse("le:s16/32>>0\n")
        #expect(hid.realBits == 16 && hid.storageBits == 32 && hid.shift == 0 && hid.isSigned)
        let timestamp = try ScanElementType.parse("le:s64/64>>0")
        #expect(timestamp.elementBytes == 8)
    }

    @Test func readsBigEndianUnsignedWithRepeat() throws {
        let type = try ScanElementType.parse("be:u14/16X4>>2")
        #expect(
            type
                == ScanElementType(
                    endianness: .big, isSigned: false, realBits: 14, storageBits: 16, repeatCount: 4, shift: 2))
        #expect(type.storageBytes == 2)
        #expect(type.elementBytes == 8)
    }

    @Test func acceptsEveryStorageSizeTheKernelUses() throws {
        for storage in [8, 16, 24, 32, 40, 48, 56, 64] {
            let type = try ScanElementType.parse("le:u\(storage)/\(storage)>>0")
            #expect(type.storageBytes == storage / 8)
        }
    }

    @Test(arguments: [
        "",
        "le:s12/16",
        "xe:s12/16>>4",
        "le-s12/16>>4",
        "le:f32/32>>0",
        "le:s0/16>>0",
        "le:s17/16>>0",
        "le:s12/12>>0",
        "le:s8/4>>0",
        "le:s64/72>>0",
        "le:s12/16>>5",
        "le:s16/16>>1",
        "le:s8/8X0>>0",
        "le:s8/8X256>>0",
        "le:s8/8X>>0",
        "le:s12/16>>4 extra",
        "le:s99999/16>>0",
        "le:s12/16>>-4",
        "LE:s12/16>>4",
    ])
    func rejectsWhatTheKernelNeverPrints(_ text: String) {
        #expect(throws: ScanFormatError.self) { try ScanElementType.parse(text) }
    }

    @Test func namesTheTextAndTheProblem() {
        guard let error = thrownError(ScanFormatError.self, try ScanElementType.parse("le:s12/16>>5")) else {
            Issue.record("accepted a shift beyond the storage")
            return
        }
        #expect(error.description == "scan element type 'le:s12/16>>5': shift plus real bits exceed the storage bits")
    }
}

@Suite struct ScanElementDecoding {
    private func decode(_ text: String, _ bytes: [UInt8], at offset: Int = 0, repetition: Int = 0) throws -> Int64 {
        let type = try ScanElementType.parse(text)
        return bytes.withUnsafeBytes { type.value(in: $0, at: offset, repetition: repetition) }
    }

    @Test func shiftsAndSignExtendsLeftJustifiedTwelveBitValues() throws {
        // -5 in 12 bits, left-justified in 16 (kxcjk-1013): 0xFFB0.
        #expect(try decode("le:s12/16>>4", [0xB0, 0xFF]) == -5)
        #expect(try decode("le:s12/16>>4", [0xF0, 0x7F]) == 2047)
        #expect(try decode("le:s12/16>>4", [0x00, 0x80]) == -2048)
        // The low four bits are not part of the value.
        #expect(try decode("le:s12/16>>4", [0x1F, 0x00]) == 1)
    }

    @Test func masksTheOtherFieldInTheUpperHalfOfHidSlots() throws {
        // x = -981 (0xFC2B); the slot's upper half holds y = 0x1234.
        #expect(try decode("le:s16/32>>0", [0x2B, 0xFC, 0x34, 0x12]) == -981)
        #expect(try decode("le:s16/32>>0", [0x34, 0x12, 0xFF, 0xFF]) == 0x1234)
    }

    @Test func readsBigEndianWords() throws {
        // mxc4005 style: 12 bits in a big-endian 16-bit word, shifted by 4.
        #expect(try decode("be:s12/16>>4", [0xFF, 0xB0]) == -5)
        #expect(try decode("be:u16/16>>0", [0x12, 0x34]) == 0x1234)
        #expect(try decode("be:s32/32>>0", [0xFF, 0xFF, 0xFF, 0xFE]) == -2)
    }

    @Test func keepsUnsignedValuesPositive() throws {
        #expect(try decode("le:u12/16>>4", [0xF0, 0xFF]) == 4095)
        #expect(try decode("le:u8/8>>0", [0xFF]) == 255)
        #expect(try decode("le:s8/8>>0", [0xFF]) == -1)
    }

    @Test func readsSixtyFourBitTimestampsWhole() throws {
        let nanoseconds: Int64 = 1_700_000_000_123_456_789
        let bytes = withUnsafeBytes(of: nanoseconds.littleEndian) { Array($0) }
        #expect(try decode("le:s64/64>>0", bytes) == nanoseconds)
        #expect(try decode("le:s64/64>>0", [UInt8](repeating: 0xFF, count: 8)) == -1)
        #expect(try decode("le:u64/64>>0", [UInt8](repeating: 0xFF, count: 8)) == -1)
    }

    @Test func readsOneBitSignedFields() throws {
        #expect(try decode("le:s1/8>>0", [0x01]) == -1)
        #expect(try decode("le:s1/8>>7", [0x80]) == -1)
        #expect(try decode("le:u1/8>>7", [0x80]) == 1)
    }

    @Test func readsEachRepetitionAtItsStorageOffset() throws {
        let bytes: [UInt8] = [0x01, 0x00, 0x02, 0x00, 0xFF, 0xFF, 0x04, 0x00]
        #expect(try decode("le:s16/16X4>>0", bytes, repetition: 0) == 1)
        #expect(try decode("le:s16/16X4>>0", bytes, repetition: 2) == -1)
        #expect(try decode("le:s16/16X4>>0", bytes, repetition: 3) == 4)
    }

    @Test func readsAtTheElementOffset() throws {
        #expect(try decode("le:s16/16>>0", [0x00, 0x00, 0x9C, 0xFF], at: 2) == -100)
        #expect(try decode("le:u24/24>>0", [0x00, 0x01, 0x02, 0x03], at: 1) == 0x030201)
    }

    /// The one-load words (1, 2, 4, 8 bytes) equal the byte-by-byte
    /// definition in both endiannesses, at every offset (unaligned too), for
    /// bytes that vary in every position.
    @Test(arguments: [8, 16, 24, 32, 40, 48, 56, 64])
    func everyStorageSizeReadsAsItsBytesSay(storageBits: Int) {
        // Each byte differs from its neighbours, and high bits are set in many.
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        for endianness in [ScanElementType.Endianness.little, .big] {
            let type = ScanElementType(
                endianness: endianness, isSigned: true, realBits: storageBits, storageBits: storageBits,
                repeatCount: 1, shift: 0)
            bytes.withUnsafeBytes { scan in
                for start in 0...(scan.count - type.storageBytes) {
                    #expect(
                        type.storedWord(in: scan, at: start) == type.storedWordByteByByte(in: scan, at: start),
                        "\(storageBits) bits, \(endianness), at \(start)")
                }
            }
        }
    }
}
