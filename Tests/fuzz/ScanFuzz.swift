// libFuzzer target for the scan-element parser, the layout and the decoder
// (Sources/tiltscrolld/Capture/ScanElementType.swift and ScanLayout.swift,
// compiled together with this file by run-scan-fuzz).
//
// Input: `_type` texts, one per line, up to the first 0xFF byte; the bytes
// after it are scan data. Every property the daemon relies on is checked and
// a violation crashes, which libFuzzer reports:
//   - a parsed type is one the kernel can print, and prints back to itself;
//   - the layout keeps every element aligned, inside the scan, in order and
//     without overlap, and pads the scan to its largest element;
//   - a decoded value fits its real bits and sign.

@_cdecl("LLVMFuzzerTestOneInput")
public func scanFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeBufferPointer(start: data, count: size)
    let split = input.firstIndex(of: 0xFF) ?? input.endIndex
    let text = String(decoding: UnsafeBufferPointer(rebasing: input[..<split]), as: UTF8.self)
    let scanData = split < input.endIndex ? Array(input[(split + 1)...]) : []

    var channels: [ScanChannel] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard let type = try? ScanElementType.parse(String(line)) else { continue }
        checkType(type)
        let isLastLine = index == text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let name = isLastLine && scanData.first.map({ $0 & 1 == 1 }) == true ? "in_timestamp" : "in_c\(index)"
        channels.append(ScanChannel(name: name, index: index, type: type))
    }
    guard let layout = try? ScanLayout.compute(channels) else { return 0 }
    checkLayout(layout, channels: channels)
    checkDecoding(layout, scanData)
    return 0
}

private func checkType(_ type: ScanElementType) {
    precondition([8, 16, 24, 32, 40, 48, 56, 64].contains(type.storageBits))
    precondition(type.realBits >= 1 && type.realBits <= type.storageBits)
    precondition(type.shift >= 0 && type.shift + type.realBits <= type.storageBits)
    precondition(type.repeatCount >= 1 && type.repeatCount <= ScanElementType.maximumRepeat)
    precondition(type.elementBytes == type.storageBytes * type.repeatCount)
    // What the kernel's iio_show_fixed_type would print for it parses back to it.
    let endianness = type.endianness == .little ? "le" : "be"
    let sign = type.isSigned ? "s" : "u"
    let repeatPart = type.repeatCount > 1 ? "X\(type.repeatCount)" : ""
    let printed = "\(endianness):\(sign)\(type.realBits)/\(type.storageBits)\(repeatPart)>>\(type.shift)\n"
    guard let reparsed = try? ScanElementType.parse(printed) else {
        preconditionFailure("the kernel form of a parsed type does not parse: \(printed)")
    }
    precondition(reparsed == type)
}

private func checkLayout(_ layout: ScanLayout, channels: [ScanChannel]) {
    precondition(layout.elements.count == channels.count)
    precondition(layout.scanBytes > 0)
    var end = 0
    var largest = 0
    var allPowersOfTwo = true
    for (position, element) in layout.elements.enumerated() {
        let length = element.channel.type.elementBytes
        precondition(element.offset % length == 0, "element not aligned to its size")
        precondition(element.offset >= end, "elements overlap or are out of order")
        precondition(element.offset + length <= layout.scanBytes, "element outside the scan")
        if element.channel.isTimestamp { precondition(position == layout.elements.count - 1) }
        end = element.offset + length
        largest = max(largest, length)
        allPowersOfTwo = allPowersOfTwo && length & (length - 1) == 0
    }
    // With an odd `X` repeat (a 6-byte element) the kernel's own ALIGN and
    // roundup disagree; only "inside the scan" holds there.
    if allPowersOfTwo {
        precondition(layout.scanBytes % largest == 0, "scan not padded to its largest element")
        precondition(layout.scanBytes - end < largest, "scan padded beyond its largest element")
    }
}

private func checkDecoding(_ layout: ScanLayout, _ scanData: [UInt8]) {
    let scans = scanData.count / layout.scanBytes
    scanData.withUnsafeBytes { bytes in
        for scan in 0..<scans {
            let start = scan * layout.scanBytes
            let one = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + layout.scanBytes)])
            for element in layout.elements {
                let type = element.channel.type
                for repetition in 0..<type.repeatCount {
                    let value = type.value(in: one, at: element.offset, repetition: repetition)
                    guard type.realBits < 64 else { continue }
                    if type.isSigned {
                        let bound = Int64(1) << Int64(type.realBits - 1)
                        precondition(value >= -bound && value < bound, "signed value outside its real bits")
                    } else {
                        let limit = UInt64(1) << UInt64(type.realBits)
                        precondition(
                            value >= 0 && UInt64(value) < limit, "unsigned value outside its real bits")
                    }
                }
            }
        }
    }
}
