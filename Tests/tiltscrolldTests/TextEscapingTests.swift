import Testing

@testable import TiltScrollCommon
@testable import tiltscrollctl
@testable import tiltscrolld

/// Bytes of `text` that a terminal would obey or that are not text: C0
/// controls other than newline, DEL, C1 controls (U+0080-U+009F encoded),
/// and bytes that are not well-formed UTF-8 (checked by a round trip).
private func problems(in text: String, allowingNewline: Bool = false) -> [String] {
    var found: [String] = []
    let bytes = Array(text.utf8)
    for (index, byte) in bytes.enumerated() {
        if byte < 0x20 && !(allowingNewline && byte == 0x0A) { found.append("control byte \(byte) at \(index)") }
        if byte == 0x7F { found.append("DEL at \(index)") }
        if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
            found.append("C1 control at \(index)")
        }
    }
    for scalar in text.unicodeScalars where !DisplayEscaping.isShown(scalar) && scalar.value >= 0x80 {
        found.append("unshown character U+\(String(scalar.value, radix: 16))")
    }
    return found
}

/// Random bytes, weighted towards the ones that matter: controls, DEL,
/// lead and continuation bytes, and whole sequences (C1, a bidi override,
/// a line separator, printable UTF-8 of every length).
private func hostileBytes(_ random: inout SplitMix64, count: Int) -> [UInt8] {
    let pieces: [[UInt8]] = [
        [0x1B], [0x07], [0x00], [0x0A], [0x0D], [0x09], [0x7F], [0x9B], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80],
        [0xC2, 0x9B], [0xC2, 0x9D], [0xE2, 0x80, 0xAE], [0xE2, 0x80, 0xA8], [0xEF, 0xBB, 0xBF], [0xE2, 0x82],
        Array("ä".utf8), Array("…".utf8), Array("加".utf8), Array("🙂".utf8), Array("\\x1b".utf8), Array("[2J".utf8),
    ]
    var bytes: [UInt8] = []
    while bytes.count < count {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: bytes.append(UInt8.random(in: 0...255, using: &random))
        case 1: bytes.append(UInt8.random(in: 0x20...0x7E, using: &random))
        default: bytes += pieces.randomElement(using: &random)!
        }
    }
    return bytes
}

@Suite struct TextDisplayEscaping {
    @Test func anyBytesGiveTextWithoutControlsWithinTheLimit() {
        var random = SplitMix64(state: 0x6573_6361_7065)
        for _ in 0..<3000 {
            let bytes = hostileBytes(&random, count: Int.random(in: 0...600, using: &random))
            let limit = Int.random(in: 3...300, using: &random)
            let shown = DisplayEscaping.escape(bytes: bytes, limit: limit)
            #expect(problems(in: shown).isEmpty, "\(bytes) gave \(Array(shown.utf8))")
            #expect(shown.utf8.count <= limit, "\(shown.utf8.count) bytes for a limit of \(limit)")
        }
    }

    @Test func printableASCIIPassesThroughUnchanged() {
        var random = SplitMix64(state: 0x6173_6369_69)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...DisplayEscaping.fieldLimit, using: &random)
            let text = String(
                decoding: (0..<count).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }, as: UTF8.self)
            #expect(DisplayEscaping.escape(text) == text)
            #expect(DisplayEscaping.escape(bytes: Array(text.utf8)) == text)
        }
    }

    @Test func escapingWhatIsEscapedChangesNothing() {
        var random = SplitMix64(state: 0x6964_656D)
        for _ in 0..<2000 {
            let bytes = hostileBytes(&random, count: Int.random(in: 0...400, using: &random))
            let shown = DisplayEscaping.escape(bytes: bytes)
            #expect(DisplayEscaping.escape(shown) == shown)
            #expect(DisplayEscaping.escape(shown, limit: DisplayEscaping.lineLimit) == shown)
        }
    }

    @Test func aCutTextIsTheWholeCutAfterAPieceAndEndsInAnEllipsis() {
        var random = SplitMix64(state: 0x6375_74)
        for _ in 0..<300 {
            let bytes = hostileBytes(&random, count: Int.random(in: 0...200, using: &random))
            let whole = DisplayEscaping.escape(bytes: bytes, limit: Int.max)
            let limit = Int.random(in: 3...200, using: &random)
            let cut = DisplayEscaping.escape(bytes: bytes, limit: limit)
            guard whole.utf8.count > limit else {
                #expect(cut == whole)
                continue
            }
            #expect(cut.hasSuffix(DisplayEscaping.ellipsis))
            let kept = String(decoding: cut.utf8.dropLast(DisplayEscaping.ellipsis.utf8.count), as: UTF8.self)
            // What is kept shows a prefix of the input whole: the cut falls
            // between pieces, never inside an escape or a character.
            let prefixes = (0...bytes.count).lazy.map {
                DisplayEscaping.escape(bytes: Array(bytes[..<$0]), limit: .max)
            }
            #expect(prefixes.contains(kept), "\(bytes) cut at \(limit): \(kept)")
            // And no more is dropped than the longest piece (four escaped bytes).
            #expect(kept.utf8.count > limit - DisplayEscaping.ellipsis.utf8.count - 16)
        }
    }

    @Test func terminalControlSequencesAreShownAsEscapes() {
        let clearAndRetitle = Array("accel\u{1B}[2J\u{1B}]0;owned\u{07}!".utf8)
        #expect(DisplayEscaping.escape(bytes: clearAndRetitle) == "accel\\x1b[2J\\x1b]0;owned\\x07!")
        #expect(DisplayEscaping.escape("del\u{7F} nl\n tab\t nul\u{0}") == "del\\x7f nl\\x0a tab\\x09 nul\\x00")
    }

    @Test func c1ControlsFormatCharactersAndSeparatorsAreEscapedByteByByte() {
        #expect(DisplayEscaping.escape("csi\u{9B}2J osc\u{9D}") == "csi\\xc2\\x9b2J osc\\xc2\\x9d")
        #expect(DisplayEscaping.escape("a\u{202E}evil") == "a\\xe2\\x80\\xaeevil")
        #expect(DisplayEscaping.escape("zero\u{200B}width\u{FEFF}") == "zero\\xe2\\x80\\x8bwidth\\xef\\xbb\\xbf")
        #expect(DisplayEscaping.escape("line\u{2028}para\u{2029}") == "line\\xe2\\x80\\xa8para\\xe2\\x80\\xa9")
    }

    @Test func bytesThatAreNotUTF8AreEscaped() {
        #expect(DisplayEscaping.escape(bytes: [0x61, 0xFF, 0x62]) == "a\\xffb")
        // Overlong NUL, a surrogate, beyond U+10FFFF, a stray continuation, a cut-off sequence.
        #expect(DisplayEscaping.escape(bytes: [0xC0, 0x80]) == "\\xc0\\x80")
        #expect(DisplayEscaping.escape(bytes: [0xED, 0xA0, 0x80]) == "\\xed\\xa0\\x80")
        #expect(DisplayEscaping.escape(bytes: [0xF4, 0x90, 0x80, 0x80]) == "\\xf4\\x90\\x80\\x80")
        #expect(DisplayEscaping.escape(bytes: [0x80, 0x61]) == "\\x80a")
        #expect(DisplayEscaping.escape(bytes: [0x61, 0xE2, 0x82]) == "a\\xe2\\x82")
    }

    @Test func printableUnicodePassesThrough() {
        let text = "Beschleunigungssensor ä ° ± 加速度计 🙂 \\x1b"
        #expect(DisplayEscaping.escape(text, limit: 200) == text)
    }

    @Test func aLongTextIsCutAtTheLimitWithAnEllipsis() {
        let name = String(repeating: "ABCDEFGHIJ", count: 500)
        let shown = DisplayEscaping.escape(name)
        #expect(shown.utf8.count == DisplayEscaping.fieldLimit)
        #expect(shown == String(name.prefix(DisplayEscaping.fieldLimit - 3)) + "…")
        // Two-byte characters are never split.
        let umlauts = DisplayEscaping.escape(String(repeating: "ä", count: 200))
        #expect(umlauts == String(repeating: "ä", count: 126) + "…")
        // Nor are escapes.
        let escapes = DisplayEscaping.escape(bytes: [UInt8](repeating: 0x1B, count: 100))
        #expect(escapes == String(repeating: "\\x1b", count: 63) + "…")
    }
}

@Suite struct TextDeviceText {
    static let hostile = DeviceText(bytes: Array("kx\u{1B}[2J".utf8) + [0xFF])

    @Test func interpolationShowsItEscaped() {
        #expect("Lost \(TextDeviceText.hostile): gone" == "Lost kx\\x1b[2J\\xff: gone")
        #expect(TextDeviceText.hostile.description == "kx\\x1b[2J\\xff")
    }

    @Test func theBytesStayAsTheyCame() {
        #expect(TextDeviceText.hostile.bytes == Array("kx\u{1B}[2J".utf8) + [0xFF])
        #expect(TextDeviceText.hostile.unescaped == "kx\u{1B}[2J\u{FFFD}")
        let cString: [CChar] = [0x61, 0x1B, -1, 0]
        #expect(cString.withUnsafeBufferPointer { DeviceText(cString: $0.baseAddress!) }.bytes == [0x61, 0x1B, 0xFF])
    }

    @Test func theUserNamesItAsItIsOrAsItIsShown() {
        #expect(TextDeviceText.hostile.matches("kx\\x1b[2J\\xff"))
        #expect(DeviceText("kx\u{1B}[2J").matches("kx\u{1B}[2J"))
        #expect(!TextDeviceText.hostile.matches("kx"))
        #expect(!TextDeviceText.hostile.matches("kx\u{1B}[2J"))
    }

    @Test func trimmingDropsWhitespaceAndATrailingNUL() {
        #expect(DeviceText(" realtime\n\0").trimmed == "realtime")
        #expect(DeviceText("\t12.5 \r\n").trimmed == "12.5")
        #expect(DeviceText("a b").trimmed == "a b")
        #expect(DeviceText("\n").trimmed.isEmpty)
    }

    @Test func aCaptureErrorKeepsItsMessageEscapedWithoutEscapingTwice() {
        var error = CaptureError(
            kind: .invalidValue, message: "\(TextDeviceText.hostile) holds '\u{1B}]0;x\u{07}', not a number")
        #expect(error.message == "kx\\x1b[2J\\xff holds '\\x1b]0;x\\x07', not a number")
        error.message += " (\u{9B}31m)"
        #expect(error.message == "kx\\x1b[2J\\xff holds '\\x1b]0;x\\x07', not a number (\\xc2\\x9b31m)")
        #expect(problems(in: error.description).isEmpty)
    }

    @Test func logLinesAreEscapedOnceEachAndKeepTheirPrefix() {
        let message = "Lost \(TextDeviceText.hostile): \u{1B}[31mred\nsecond \u{07}line"
        #expect(
            Log.format(.warning, message, prefixed: true)
                == "<4>Lost kx\\x1b[2J\\xff: \\x1b[31mred\n<4>second \\x07line")
        #expect(
            Log.format(.warning, message, prefixed: false) == "Lost kx\\x1b[2J\\xff: \\x1b[31mred\nsecond \\x07line")
        let long = Log.format(.info, String(repeating: "x", count: 10_000), prefixed: true)
        #expect(long.utf8.count == 3 + DisplayEscaping.lineLimit)
    }

    @Test func theDeviceTableShowsEveryDeviceStringEscaped() {
        let name = DeviceText(bytes: Array("evil\u{1B}]0;title\u{07}\u{1B}[2J".utf8) + [0xC2, 0x9B, 0x7F, 0xFE])
        let device = AccelerometerDevice(
            name: name, sysfsPath: "/sys/devices/platform/x\u{1B}[2J/iio:device0", sysName: "iio:device0",
            deviceNode: "/dev/iio\u{07}:device0", location: .display, locationSource: .assumed,
            mountMatrix: .identity, mountMatrixSource: .identity, calibration: AccelCalibration(),
            captureModes: .poll, trigger: .current("trig\u{1B}[5m"),
            problem: CaptureError(kind: .invalidValue, message: "scale holds '\u{1B}[8m'"))
        let long = AccelerometerDevice(
            name: DeviceText(String(repeating: "ABCDEFGHIJ", count: 500)), sysfsPath: "/sys/devices/y",
            sysName: "iio:device1", deviceNode: nil, location: .base, locationSource: .sysfsLabel,
            mountMatrix: .identity, mountMatrixSource: .identity, calibration: AccelCalibration(),
            captureModes: .poll, trigger: nil, problem: nil)
        let table = renderDeviceTable([device, long])
        #expect(problems(in: table, allowingNewline: true).isEmpty)
        #expect(table.contains("* evil\\x1b]0;title\\x07\\x1b[2J\\xc2\\x9b\\x7f\\xfe  iio:device0"))
        #expect(table.contains("sysfs path:     /sys/devices/platform/x\\x1b[2J/iio:device0"))
        #expect(table.contains("device node:    /dev/iio\\x07:device0"))
        #expect(table.contains("trigger:        trig\\x1b[5m (current)"))
        #expect(table.contains("unusable:       scale holds '\\x1b[8m'"))
        for line in table.split(separator: "\n") { #expect(line.utf8.count <= DisplayEscaping.fieldLimit + 20) }
    }

    @Test func theStatusLineIsOneEscapedBoundedLine() {
        let status = ServiceNotifier.statusMessage("Scrolling with \(TextDeviceText.hostile)\u{9D}\n(poll capture)")
        #expect(status == "STATUS=Scrolling with kx\\x1b[2J\\xff\\xc2\\x9d (poll capture)")
        let long = ServiceNotifier.statusMessage(String(repeating: "y", count: 9000))
        #expect(long.utf8.count == "STATUS=".utf8.count + DisplayEscaping.lineLimit)
    }
}
