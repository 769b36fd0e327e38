/// The storage format of one element of a buffered scan, as the kernel
/// prints it in `scan_elements/*_type` (Documentation/ABI/testing/sysfs-bus-iio):
///
///     [be|le]:[s|u]realbits/storagebits[Xrepeat]>>shift
///
/// e.g. `le:s12/16>>4` (kxcjk-1013), `le:s16/32>>0` (HID sensor hub),
/// `le:s64/64>>0` (timestamp), `be:u14/16X4>>2`.
///
/// This file and ScanLayout.swift depend on nothing but the standard library,
/// so the fuzz target in Tests/fuzz compiles them on their own.
struct ScanElementType: Equatable, Sendable {
    enum Endianness: Equatable, Sendable {
        case little
        case big
    }

    var endianness: Endianness
    var isSigned: Bool
    /// Bits that carry the value.
    var realBits: Int
    /// Bits the value is stored in (a whole number of bytes, at most 64).
    var storageBits: Int
    /// How many values of this format follow each other (1 when no `X` part).
    var repeatCount: Int
    /// Right shift to apply to the stored word before masking to `realBits`.
    var shift: Int

    /// The largest `X` repeat accepted; the kernel's is a u8.
    static let maximumRepeat = 255

    var storageBytes: Int { storageBits / 8 }

    /// Bytes the element occupies in a scan, and its alignment there (the
    /// kernel's iio_storage_bytes_for_si: storage bytes times repeat).
    var elementBytes: Int { storageBytes * repeatCount }

    /// Parses the `_type` text; surrounding whitespace and a final newline are
    /// ignored, anything else that differs from the grammar is an error.
    static func parse(_ text: String) throws(ScanFormatError) -> ScanElementType {
        var scanner = TypeScanner(Array(text.utf8))
        scanner.skipWhitespace()
        let endianness: Endianness
        if scanner.take("le") {
            endianness = .little
        } else if scanner.take("be") {
            endianness = .big
        } else {
            throw ScanFormatError(text: text, problem: "it does not start with 'le:' or 'be:'")
        }
        guard scanner.take(":") else {
            throw ScanFormatError(text: text, problem: "expected ':' after the endianness")
        }
        let isSigned: Bool
        if scanner.take("s") {
            isSigned = true
        } else if scanner.take("u") {
            isSigned = false
        } else {
            throw ScanFormatError(text: text, problem: "the sign is not 's' or 'u'")
        }
        guard let realBits = scanner.number() else {
            throw ScanFormatError(text: text, problem: "expected the number of real bits")
        }
        guard scanner.take("/"), let storageBits = scanner.number() else {
            throw ScanFormatError(text: text, problem: "expected '/' and the number of storage bits")
        }
        var repeatCount = 1
        if scanner.take("X") {
            guard let count = scanner.number() else {
                throw ScanFormatError(text: text, problem: "expected a repeat count after 'X'")
            }
            repeatCount = count
        }
        guard scanner.take(">>"), let shift = scanner.number() else {
            throw ScanFormatError(text: text, problem: "expected '>>' and the shift")
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else {
            throw ScanFormatError(text: text, problem: "unexpected text after the shift")
        }

        guard storageBits >= 8, storageBits <= 64, storageBits % 8 == 0 else {
            throw ScanFormatError(text: text, problem: "storage bits must be a whole number of bytes from 8 to 64")
        }
        guard realBits >= 1, realBits <= storageBits else {
            throw ScanFormatError(text: text, problem: "real bits must be between 1 and the storage bits")
        }
        guard shift + realBits <= storageBits else {
            throw ScanFormatError(text: text, problem: "shift plus real bits exceed the storage bits")
        }
        guard repeatCount >= 1, repeatCount <= maximumRepeat else {
            throw ScanFormatError(text: text, problem: "the repeat count must be between 1 and 255")
        }
        return ScanElementType(
            endianness: endianness, isSigned: isSigned, realBits: realBits, storageBits: storageBits,
            repeatCount: repeatCount, shift: shift)
    }

    /// The value of repetition `repetition` of this element, which starts at
    /// `offset` in `scan`: the stored word in its endianness, shifted right,
    /// masked to the real bits and, when signed, sign-extended. Masking is
    /// what makes HID sensor hub scans right: their 16-bit values sit in
    /// 32-bit slots whose upper half holds the next field's bytes.
    ///
    /// An unsigned 64-bit value above `Int64.max` comes back as its bit pattern.
    /// The caller guarantees the bytes are inside `scan`.
    func value(in scan: UnsafeRawBufferPointer, at offset: Int, repetition: Int = 0) -> Int64 {
        let start = offset + repetition * storageBytes
        precondition(start >= 0 && start + storageBytes <= scan.count, "scan element outside its scan")
        var word = storedWord(in: scan, at: start)
        word >>= UInt64(shift)
        if realBits < 64 {
            word &= (UInt64(1) << UInt64(realBits)) - 1
            if isSigned && word & (UInt64(1) << UInt64(realBits - 1)) != 0 {
                word |= ~((UInt64(1) << UInt64(realBits)) - 1)
            }
        }
        return Int64(bitPattern: word)
    }

    /// The stored word at `start`, read in its endianness. The sizes the
    /// kernel uses (1, 2, 4 and 8 bytes) are one load each: every sample of
    /// a buffered capture reads three or four words, and byte by byte they
    /// cost about 100 instructions each (Benchmarks/daemon-bench).
    func storedWord(in scan: UnsafeRawBufferPointer, at start: Int) -> UInt64 {
        let little = endianness == .little
        switch storageBytes {
        case 1:
            return UInt64(scan[start])
        case 2:
            let raw = scan.loadUnaligned(fromByteOffset: start, as: UInt16.self)
            return UInt64(little ? UInt16(littleEndian: raw) : UInt16(bigEndian: raw))
        case 4:
            let raw = scan.loadUnaligned(fromByteOffset: start, as: UInt32.self)
            return UInt64(little ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw))
        case 8:
            let raw = scan.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            return little ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw)
        default:
            return storedWordByteByByte(in: scan, at: start)
        }
    }

    /// The stored word assembled one byte at a time: the definition, for
    /// every other size (3, 5, 6, 7 bytes), and what the tests hold the
    /// loads to.
    func storedWordByteByByte(in scan: UnsafeRawBufferPointer, at start: Int) -> UInt64 {
        var word: UInt64 = 0
        switch endianness {
        case .little:
            var index = storageBytes - 1
            while index >= 0 {
                word = word << 8 | UInt64(scan[start + index])
                index -= 1
            }
        case .big:
            for index in 0..<storageBytes {
                word = word << 8 | UInt64(scan[start + index])
            }
        }
        return word
    }
}

/// A scan-element description that does not follow the kernel's format.
struct ScanFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    var text: String
    var problem: String
    var description: String { "scan element type '\(text)': \(problem)" }
}

/// A cursor over the bytes of a `_type` text; numbers are plain decimal with
/// at most four digits, so no input can overflow.
private struct TypeScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            for i in 0..<count where bytes[position + i] != expected[i] { return false }
            return true
        }
        if matches { position += count }
        return matches
    }

    mutating func number() -> Int? {
        var value = 0
        var digits = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            guard digits < 4 else { return nil }
            value = value * 10 + Int(bytes[position] - 0x30)
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    mutating func skipWhitespace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x09 {
            position += 1
        }
    }
}
