import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

/// `Log.threshold` is global; the tests that change it run one at a time and restore it.
@Suite(.serialized) struct ServiceLog {
    @Test func prefixesCarryTheSyslogPriority() {
        #expect(Log.format(.error, "no accelerometer", prefixed: true) == "<3>no accelerometer")
        #expect(Log.format(.warning, "w", prefixed: true) == "<4>w")
        #expect(Log.format(.notice, "n", prefixed: true) == "<5>n")
        #expect(Log.format(.info, "i", prefixed: true) == "<6>i")
        #expect(Log.format(.debug, "d", prefixed: true) == "<7>d")
    }

    @Test func onlyTheJournalsStreamGetsPrefixes() {
        var info = stat()
        #expect(fstat(STDERR_FILENO, &info) == 0)
        let mine = "\(info.st_dev):\(info.st_ino)"
        #expect(JournalStream.isStandardError(environmentValue: mine))
        #expect(!JournalStream.isStandardError(environmentValue: "\(info.st_dev):\(info.st_ino &+ 1)"))
        #expect(!JournalStream.isStandardError(environmentValue: nil))
        for malformed in ["", ":", "12", "12:", ":34", "12:34:56", "x:1", "-1:2"] {
            #expect(!JournalStream.isStandardError(environmentValue: malformed), "\(malformed)")
        }
    }

    @Test func aTerminalGetsNoPrefix() {
        #expect(Log.format(.error, "no accelerometer", prefixed: false) == "no accelerometer")
    }

    @Test func everyLineOfAMultiLineMessageKeepsItsLevel() {
        #expect(
            Log.format(.error, "/etc/tiltscroll.conf:\nline 7: bad\r\nline 9: worse", prefixed: true)
                == "<3>/etc/tiltscroll.conf:\n<3>line 7: bad\n<3>line 9: worse")
    }

    @Test func quietByDefaultAndVerboseShowsDebug() {
        let saved = Log.threshold
        defer { Log.threshold = saved }
        Log.threshold = .info
        #expect(Log.isEnabled(.notice))
        #expect(Log.isEnabled(.info))
        #expect(!Log.isEnabled(.debug))
        Log.threshold = .debug
        #expect(Log.isEnabled(.debug))
    }

    @Test func aSuppressedMessageIsNeverBuilt() {
        let saved = Log.threshold
        defer { Log.threshold = saved }
        Log.threshold = .info
        var built = 0
        func expensive() -> String {
            built += 1
            return "sample"
        }
        Log.debug(expensive())
        #expect(built == 0)
        Log.threshold = .warning
        Log.info(expensive())
        Log.notice(expensive())
        #expect(built == 0)
    }
}
