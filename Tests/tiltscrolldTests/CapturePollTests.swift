import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct CaptureSettingsJournal {
    @Test func restoresOriginalsNewestFirstAndSkipsUnchangedValues() throws {
        let tree = try CaptureTestTree(["a": "1\n", "b": "x \n"])
        let journal = SettingsJournal()
        try journal.change(tree.file("a"), to: "2", from: "1")
        try journal.change(tree.file("b"), to: "x", from: "x")
        try journal.change(tree.file("a"), to: "3", from: "2")
        #expect(tree.read("a") == "3")
        journal.restoreAll()
        #expect(tree.read("a") == "1")
        // Never written: a write would have left "x" and a newline.
        #expect(tree.read("b") == "x ")
        #expect(journal.isEmpty)
    }

    @Test func aRetryKeepsWhatItIsToldToKeepAndRestoresItLater() throws {
        let tree = try CaptureTestTree(["sampling_frequency": "1\n", "trigger": "none\n"])
        let journal = SettingsJournal()
        try journal.change(tree.file("sampling_frequency"), to: "50", from: "1")
        try journal.change(tree.file("trigger"), to: "dev0", from: "none")
        journal.restoreAll(keeping: SamplingFrequency.isFrequencyAttribute)
        #expect(tree.read("trigger") == "none" && tree.read("sampling_frequency") == "50")
        #expect(!journal.isEmpty)
        journal.restoreAll()
        #expect(tree.read("sampling_frequency") == "1" && journal.isEmpty)
    }

    @Test func aPollCaptureReleasedForARetryLeavesItsFrequencyRaisedForTheNextAttempt() throws {
        var files = CaptureTestTree.pollAttributes(x: "1", y: "2", z: "3")
        files["sampling_frequency"] = "1\n"
        files["sampling_frequency_available"] = "1 10 25 50 100\n"
        let tree = try CaptureTestTree(files)
        let device = try #require(tree.device(name: "lis3dh"))
        let first = try PollCapture.open(device, rate: 50, now: 0)
        #expect(tree.read("sampling_frequency") == "50")
        let kept = first.releaseForRetry()
        #expect(tree.read("sampling_frequency") == "50")
        // The next attempt finds it raised and writes nothing; its release restores it.
        try tree.write("sampling_frequency", "50\n")
        let second = try PollCapture.open(device, rate: 50, now: 1, journal: kept)
        #expect(tree.read("sampling_frequency") == "50")
        second.release()
        #expect(tree.read("sampling_frequency") == "1")
    }

    @Test func reportsAWriteThatFails() {
        let journal = SettingsJournal()
        guard
            let error = thrownError(
                SystemError.self, try journal.change("/nonexistent/tiltscroll/attr", to: "1", from: "0"))
        else {
            Issue.record("wrote to a missing attribute")
            return
        }
        #expect(error.code == .noSuchFileOrDirectory)
        #expect(journal.isEmpty)
    }
}

@Suite struct CapturePolling {
    private func lis3dhLike(rawX: String = "100") throws -> CaptureTestTree {
        var files = CaptureTestTree.pollAttributes(x: rawX, y: "-50", z: "1000")
        files["in_accel_x_scale"] = "0.01\n"
        files["in_accel_y_scale"] = "0.02\n"
        files["in_accel_z_scale"] = "0.009806650\n"
        files["sampling_frequency"] = "1\n"
        files["sampling_frequency_available"] = "1 10 25 50 100 200 400 1600 5000 1344\n"
        return try CaptureTestTree(files)
    }

    @Test func readsEachAxisWithItsOwnScale() throws {
        let tree = try lis3dhLike()
        let device = try #require(tree.device(name: "lis3dh"))
        let capture = try PollCapture.open(device, rate: 50, now: 10)
        defer { capture.release() }
        var samples: [AccelSample] = []
        let before = DaemonClock.now()
        #expect(try capture.read(now: 10, into: { samples.append($0) }) == .ok)
        #expect(samples.count == 1)
        #expect(samples[0].acceleration == Vector3(100 * 0.01, -50 * 0.02, 1000 * 0.009806650))
        #expect(samples[0].time >= before && samples[0].time <= DaemonClock.now())
    }

    @Test func followsTheValueRewrittenInPlace() throws {
        let tree = try lis3dhLike()
        let device = try #require(tree.device(name: "lis3dh"))
        let capture = try PollCapture.open(device, rate: 50, now: 0)
        defer { capture.release() }
        var xs: [Double] = []
        _ = try capture.read(now: 0, into: { xs.append($0.acceleration.x) })
        try tree.write("in_accel_x_raw", "-2048\n")
        _ = try capture.read(now: 0.02, into: { xs.append($0.acceleration.x) })
        #expect(xs == [1, -20.48])
    }

    @Test func raisesTheSamplingFrequencyAndRestoresIt() throws {
        let tree = try lis3dhLike()
        let device = try #require(tree.device(name: "lis3dh"))
        let capture = try PollCapture.open(device, rate: 50, now: 0)
        #expect(tree.read("sampling_frequency") == "50")
        #expect(capture.period == 1.0 / 50)
        capture.release()
        #expect(tree.read("sampling_frequency") == "1")
        capture.release()
        #expect(tree.read("sampling_frequency") == "1")
    }

    @Test func pollsNoFasterThanTheDeviceSamples() throws {
        var files = CaptureTestTree.pollAttributes()
        files["in_accel_sampling_frequency"] = "12.500000\n"
        files["in_accel_sampling_frequency_available"] = "0.781000 6.250000 12.500000 25\n"
        let tree = try CaptureTestTree(files)
        let capture = try PollCapture.open(try #require(tree.device(name: "kxcj91008")), rate: 50, now: 0)
        defer { capture.release() }
        #expect(tree.read("in_accel_sampling_frequency") == "25")
        #expect(capture.period == 1.0 / 25)
    }

    @Test func schedulesReadsOnAGridAndSkipsMissedOnes() throws {
        let tree = try lis3dhLike()
        let capture = try PollCapture.open(try #require(tree.device(name: "lis3dh")), rate: 50, now: 100)
        defer { capture.release() }
        #expect(capture.nextReadTime(now: 99) == 100)
        #expect(capture.nextReadTime(now: 100.5) == 100.5)
        let start = DaemonClock.now()
        _ = try capture.read(now: start, into: { _ in })
        let next = try #require(capture.nextReadTime(now: start))
        // The grid started at 100, far in the past: the next read is one period from now.
        #expect(next > start && next <= DaemonClock.now() + 0.02)
    }

    @Test func failsWithTheAttributeNamedWhenAValueDoesNotParse() throws {
        let tree = try lis3dhLike(rawX: "12abc")
        let capture = try PollCapture.open(try #require(tree.device(name: "lis3dh")), rate: 50, now: 0)
        defer { capture.release() }
        var count = 0
        let error = thrownError(CaptureError.self, try capture.read(now: 0, into: { _ in count += 1 }))
        #expect(count == 0)
        #expect(
            error
                == CaptureError(
                    kind: .invalidValue, message: "\(tree.path)/in_accel_x_raw holds '12abc', which is not an integer"))
    }

    @Test func failsOnAnEmptyRead() throws {
        let tree = try lis3dhLike()
        let capture = try PollCapture.open(try #require(tree.device(name: "lis3dh")), rate: 50, now: 0)
        defer { capture.release() }
        try tree.write("in_accel_z_raw", "")
        guard let error = thrownError(CaptureError.self, try capture.read(now: 0, into: { _ in })) else {
            Issue.record("an empty value made a sample")
            return
        }
        #expect(error.kind == .invalidValue)
    }

    @Test func refusesADeviceWithoutRawAttributes() throws {
        let tree = try CaptureTestTree([
            "scan_elements/in_accel_x_en": "0", "scan_elements/in_accel_y_en": "0",
            "scan_elements/in_accel_z_en": "0",
        ])
        let device = try #require(tree.device(name: "accel"))
        guard let error = thrownError(CaptureError.self, try PollCapture.open(device, rate: 50, now: 0)) else {
            Issue.record("polled a device without raw attributes")
            return
        }
        #expect(error.kind == .unsupported)
    }

    @Test func readsNothingAfterRelease() throws {
        let tree = try lis3dhLike()
        let capture = try PollCapture.open(try #require(tree.device(name: "lis3dh")), rate: 50, now: 0)
        capture.release()
        var count = 0
        guard thrownError(CaptureError.self, try capture.read(now: 0, into: { _ in count += 1 })) != nil else {
            Issue.record("read after release")
            return
        }
        #expect(count == 0)
        #expect(capture.nextReadTime(now: 0) == nil)
    }
}
