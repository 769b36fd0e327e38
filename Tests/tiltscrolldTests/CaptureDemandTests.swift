import Glibc
import ScrollPhysics
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

private let resting = SampleDemand(rate: 4, state: .resting)
private let following = SampleDemand(rate: 12.5, state: .following)
private let holding = SampleDemand(rate: 50, state: .holding)

@Suite struct CaptureDemandFollower {
    @Test func raisesAtOnceAndLowersOnceTheLowerDemandLasted() {
        var follower = DemandFollower(applied: holding)
        #expect(follower.update(following, at: 10) == nil)
        #expect(follower.update(following, at: 11.9) == nil)
        #expect(follower.update(following, at: 12) == following)
        #expect(follower.applied == following)
        #expect(follower.update(following, at: 20) == nil)
        #expect(follower.update(holding, at: 20.01) == holding)
    }

    @Test func aHigherDemandMeanwhileStartsTheWaitAgain() {
        var follower = DemandFollower(applied: holding)
        #expect(follower.update(following, at: 10) == nil)
        #expect(follower.update(holding, at: 11) == nil)
        #expect(follower.update(following, at: 11.5) == nil)
        #expect(follower.update(following, at: 13) == nil)
        #expect(follower.update(resting, at: 13.4) == nil)
        #expect(follower.update(resting, at: 13.5) == resting)
    }

    @Test func restingAtTheSameRateCountsAsLowerAndTheSameCostAsNoChange() {
        let slowResting = SampleDemand(rate: 3, state: .resting)
        let slowHolding = SampleDemand(rate: 3, state: .holding)
        var follower = DemandFollower(applied: slowHolding)
        #expect(follower.update(slowResting, at: 0) == nil)
        #expect(follower.update(slowResting, at: 2) == slowResting)
        #expect(follower.update(slowHolding, at: 2.5) == slowHolding)
        #expect(follower.update(SampleDemand(rate: 3, state: .jostled), at: 3) == nil)
    }

    @Test func theFirstDemandIsAppliedWhenNothingIsKnown() {
        var follower = DemandFollower()
        #expect(follower.update(following, at: 0) == following)
    }
}

@Suite struct CapturePollingFollowsTheDemand {
    private func device(_ tree: CaptureTestTree) throws -> AccelerometerDevice {
        try #require(tree.device(name: "kxcj91008"))
    }

    private func kxcjkLike() throws -> CaptureTestTree {
        var files = CaptureTestTree.pollAttributes(x: "1", y: "-443", z: "-256")
        files["in_accel_sampling_frequency"] = "50.000000\n"
        return try CaptureTestTree(files)
    }

    @Test func movesOnlyTheReadDeadline() throws {
        let tree = try kxcjkLike()
        let capture = try PollCapture.open(try device(tree), rate: 50, now: DaemonClock.now())
        defer { capture.release() }
        _ = try capture.read(now: DaemonClock.now(), into: { _ in })
        let read = DaemonClock.now()
        #expect(capture.currentRate == 50)
        capture.follow(following, now: read)
        #expect(capture.currentRate == 12.5)
        // The deadline already set stays; the one after it is a new period later.
        let next = try #require(capture.nextReadTime(now: read))
        #expect(next <= read + 0.02)
        _ = try capture.read(now: next, into: { _ in })
        let after = try #require(capture.nextReadTime(now: next))
        #expect(after - DaemonClock.now() > 0.07 && after - next <= 0.08 + 0.01)
        #expect(capture.settingWrites == 0)
        #expect(tree.read("in_accel_sampling_frequency") == "50.000000")
    }

    @Test func aHigherDemandBringsTheNextReadForward() throws {
        let tree = try kxcjkLike()
        let capture = try PollCapture.open(try device(tree), rate: 50, now: DaemonClock.now())
        defer { capture.release() }
        capture.follow(resting, now: DaemonClock.now())
        _ = try capture.read(now: DaemonClock.now(), into: { _ in })
        let read = DaemonClock.now()
        #expect(try #require(capture.nextReadTime(now: read)) > read + 0.2)
        capture.follow(holding, now: read)
        #expect(try #require(capture.nextReadTime(now: read)) <= read + 0.02)
    }

    @Test func neverPollsFasterThanOpened() throws {
        let tree = try kxcjkLike()
        let capture = try PollCapture.open(try device(tree), rate: 25, now: 0)
        defer { capture.release() }
        capture.follow(holding, now: 0)
        #expect(capture.currentRate == 25)
        capture.follow(SampleDemand(rate: .infinity, state: .holding), now: 0)
        capture.follow(SampleDemand(rate: 0, state: .resting), now: 0)
        #expect(capture.currentRate == 25)
    }
}

@Suite struct CapturePollingAHubFollowsWithItsReportInterval {
    /// A HID sensor hub's accelerometer, under a directory named as the kernel names it.
    private static let hub = "HID-SENSOR-200073.0.auto/iio:device0"

    private func hubTree(bufferEnabled: Bool) throws -> (CaptureTestTree, AccelerometerDevice) {
        var files: [String: String] = [
            "in_accel_sampling_frequency": "10.000000\n", "in_accel_scale": "0.098066500\n",
            "buffer/enable": bufferEnabled ? "1\n" : "0\n",
        ]
        for (name, text) in CaptureTestTree.pollAttributes() { files[name] = text }
        let tree = try CaptureTestTree(Dictionary(uniqueKeysWithValues: files.map { (Self.hub + "/" + $0, $1) }))
        let device = try #require(
            DeviceDiscovery.inspect(
                UdevDeviceRecord(
                    sysfsPath: DeviceText(tree.file(Self.hub)), sysName: "iio:device0", deviceNode: nil,
                    name: "accel_3d",
                    mountMatrix: nil, location: nil),
                matrixOverride: nil))
        #expect(device.isHIDSensorHub)
        return (tree, device)
    }

    @Test func theIntervalFollowsLikeABuffersAndIsPutBack() throws {
        let (tree, device) = try hubTree(bufferEnabled: false)
        let file = SettingsJournalFile(directory: tree.path)
        let capture = try PollCapture.open(device, rate: 50, now: 0, journalFile: file)
        let frequency = Self.hub + "/in_accel_sampling_frequency"
        #expect(tree.read(frequency) == "50")
        capture.follow(following, now: 0)
        #expect(capture.currentRate == 12.5)
        #expect(tree.read(frequency) == "50")
        capture.follow(following, now: 2)
        #expect(tree.read(frequency) == "12.5")
        capture.follow(resting, now: 2.1)
        capture.follow(resting, now: 4.2)
        #expect(tree.read(frequency) == "4")
        capture.follow(holding, now: 4.3)
        #expect(tree.read(frequency) == "50")
        #expect(capture.settingWrites == 3)
        guard case .loaded(let record) = file.load(sysfsRoot: tree.path) else {
            Issue.record("no journal file")
            return
        }
        #expect(record.entries.map(\.original) == ["10.000000"])
        capture.release()
        #expect(tree.read(frequency) == "10.000000")
    }

    @Test func neverBelowWhatItHeldWhileAnotherProgramRunsTheBuffer() throws {
        let (tree, device) = try hubTree(bufferEnabled: true)
        let capture = try PollCapture.open(device, rate: 50, now: 0)
        defer { capture.release() }
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 2)
        #expect(capture.currentRate == 4)
        #expect(tree.read(Self.hub + "/in_accel_sampling_frequency") == "10")
    }

    @Test func otherDevicesKeepTheirSamplingFrequency() throws {
        let tree = try CaptureTestTree(
            CaptureTestTree.pollAttributes().merging(["in_accel_sampling_frequency": "50\n"]) { $1 })
        let capture = try PollCapture.open(try #require(tree.device(name: "kxcj91008")), rate: 50, now: 0)
        defer { capture.release() }
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 5)
        #expect(capture.currentRate == 4)
        #expect(tree.read("in_accel_sampling_frequency") == "50")
        #expect(capture.settingWrites == 0)
    }
}

@Suite(.serialized) struct CaptureBufferFollowsTheDemand {
    private func open(_ hub: HubTree, file: SettingsJournalFile? = nil) throws -> BufferCapture {
        try BufferCapture.open(try #require(hub.device), rate: 50, journalFile: file)
    }

    private func entries(_ file: SettingsJournalFile, _ tree: CaptureTestTree) -> [String] {
        guard case .loaded(let record) = file.load(sysfsRoot: tree.path) else { return [] }
        return record.entries.map { String($0.path.dropFirst(tree.path.count + 1)) + "=" + $0.original }
    }

    @Test func theSamplingFrequencyFollowsAndOneEntryKeepsItsOriginal() throws {
        let hub = try HubTree()
        let tree = hub.tree
        let file = SettingsJournalFile(directory: tree.path)
        let capture = try open(hub, file: file)
        #expect(tree.read("in_accel_sampling_frequency") == "50")
        capture.follow(holding, now: 100)
        capture.follow(following, now: 100)
        #expect(tree.read("in_accel_sampling_frequency") == "50")
        capture.follow(following, now: 102)
        #expect(tree.read("in_accel_sampling_frequency") == "12.5")
        #expect(capture.currentRate == 12.5)
        capture.follow(resting, now: 102.1)
        capture.follow(holding, now: 103)
        #expect(tree.read("in_accel_sampling_frequency") == "50")
        capture.follow(resting, now: 103.1)
        capture.follow(resting, now: 105.1)
        #expect(tree.read("in_accel_sampling_frequency") == "4")
        #expect(capture.settingWrites == 3)
        #expect(
            entries(file, tree).filter { $0.hasPrefix("in_accel_sampling_frequency=") } == [
                "in_accel_sampling_frequency=10.000000"
            ])
        capture.release()
        #expect(tree.read("in_accel_sampling_frequency") == "10.000000")
        #expect(file.load(sysfsRoot: tree.path) == .missing)
    }

    @Test func restingRaisesAReadableChangeSensitivityToOneCountAndLeavingItPutsItBackAtOnce() throws {
        let hub = try HubTree(extra: ["in_accel_hysteresis": "0.000000\n"])
        let tree = hub.tree
        let file = SettingsJournalFile(directory: tree.path)
        let capture = try open(hub, file: file)
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 2)
        // One count of a hub whose scale is 0.0980665 m/s^2: a hundredth of a g.
        #expect(tree.read("in_accel_hysteresis") == "0.01")
        #expect(tree.read("in_accel_sampling_frequency") == "4")
        #expect(entries(file, tree).contains("in_accel_hysteresis=0.000000"))
        capture.follow(SampleDemand(rate: 50, state: .lifting), now: 2.2)
        #expect(tree.read("in_accel_hysteresis") == "0.000000")
        #expect(tree.read("in_accel_sampling_frequency") == "50")
        #expect(capture.settingWrites == 4)
        capture.follow(resting, now: 3)
        capture.follow(resting, now: 5)
        #expect(tree.read("in_accel_hysteresis") == "0.01")
        capture.release()
        #expect(tree.read("in_accel_hysteresis") == "0.000000")
    }

    @Test func aKilledDaemonsChangeSensitivityIsPutBackByTheNext() throws {
        let hub = try HubTree(extra: ["in_accel_hysteresis": "0.000000\n"])
        let tree = hub.tree
        let file = SettingsJournalFile(directory: tree.path)
        let capture = try open(hub, file: file)
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 2)
        #expect(tree.read("in_accel_hysteresis") == "0.01")
        // Killed: never released. The next daemon, before it captures:
        SettingsJournal.restoreLeftovers(from: file, sysfsRoot: tree.path)
        #expect(tree.read("in_accel_hysteresis") == "0.000000")
        #expect(tree.read("in_accel_sampling_frequency") == "10.000000")
        #expect(tree.read("buffer/enable") == "0")
    }

    @Test func leavesAChangeSensitivityThatCannotBeReadAlone() throws {
        // A directory in its place: every read fails, as the testbed's
        // uhid hub answers EINVAL.
        let hub = try HubTree(extra: ["in_accel_hysteresis/unreadable": ""])
        let capture = try open(hub)
        defer { capture.release() }
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 2)
        #expect(hub.tree.read("in_accel_sampling_frequency") == "4")
        #expect(capture.settingWrites == 1)
        #expect(FileSystem.exists(hub.tree.file("in_accel_hysteresis/unreadable")))
    }

    @Test func aListOfFrequenciesGivesTheLowestAtOrAboveTheDemand() throws {
        let hub = try HubTree(extra: [
            "in_accel_sampling_frequency": "25\n", "in_accel_sampling_frequency_available": "1 6.25 12.5 25 50 100\n",
        ])
        let capture = try open(hub)
        defer { capture.release() }
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 2)
        #expect(hub.tree.read("in_accel_sampling_frequency") == "6.25")
        #expect(capture.currentRate == 6.25)
    }

    @Test func aRefusedChangeLeavesTheRateAndStopsFollowing() throws {
        let hub = try HubTree()
        let capture = try open(hub)
        defer { capture.release() }
        try #require(unlink(hub.tree.file("in_accel_sampling_frequency")) == 0)
        capture.follow(resting, now: 0)
        capture.follow(resting, now: 2)
        #expect(capture.currentRate == 50)
        #expect(capture.settingWrites == 0)
        capture.follow(holding, now: 3)
        capture.follow(resting, now: 6)
        #expect(capture.settingWrites == 0)
    }
}

@Suite struct CaptureChangeSensitivityUnit {
    @Test func oneCountFromTheScaleOfAHub() {
        #expect(ChangeSensitivity.countInHubUnits(scale: 0.098066500) == 0.01)
        #expect(ChangeSensitivity.countInHubUnits(scale: 9.80665) == 1)
        #expect(ChangeSensitivity.countInHubUnits(scale: 0.001) == 0.001)
        // kxcjk-1013 and lis3dh: not a hub's scale.
        #expect(ChangeSensitivity.countInHubUnits(scale: 0.019163) == nil)
        #expect(ChangeSensitivity.countInHubUnits(scale: 0.009806650 * 1.2) == nil)
        #expect(ChangeSensitivity.countInHubUnits(scale: 0) == nil)
        #expect(ChangeSensitivity.countInHubUnits(scale: .nan) == nil)
    }

    @Test func aSensitivityOfACountOrMoreIsLeftAsItIs() throws {
        let tree = try CaptureTestTree(["in_accel_hysteresis": "0.050000\n"])
        #expect(ChangeSensitivity.find(in: DeviceDirectory(path: tree.path), scale: 0.0980665) == nil)
        try tree.write("in_accel_hysteresis", "0.000000\n")
        let found = try #require(ChangeSensitivity.find(in: DeviceDirectory(path: tree.path), scale: 0.0980665))
        #expect(found.original == "0.000000")
        #expect(found.resting == "0.01")
    }
}

@Suite struct CaptureJournalRepeatedChanges {
    @Test func anAttributeChangedAgainKeepsItsFirstOriginalInOneEntry() throws {
        let tree = try CaptureTestTree(["iio:device0/in_accel_sampling_frequency": "10.000000\n"])
        let file = SettingsJournalFile(directory: tree.path)
        let journal = SettingsJournal(file: file)
        let path = tree.file("iio:device0/in_accel_sampling_frequency")
        try journal.change(path, to: "50", from: "10.000000")
        try journal.change(path, to: "4", from: "50")
        try journal.change(path, to: "10.000000", from: "4")
        try journal.change(path, to: "12.5", from: "10.000000")
        #expect(tree.read("iio:device0/in_accel_sampling_frequency") == "12.5")
        #expect(journal.original(of: path) == "10.000000")
        #expect(
            file.load(sysfsRoot: tree.path)
                == .loaded(SettingsJournalRecord(entries: [.init(path: path, original: "10.000000")])))
        journal.restoreAll()
        #expect(tree.read("iio:device0/in_accel_sampling_frequency") == "10.000000")
    }

    @Test func theFileAcceptsAChangeSensitivity() throws {
        let entries = try SettingsJournalRecord.entries(
            in: "version=1\n/sys/devices/x/iio:device0/in_accel_hysteresis=0.000000\n")
        #expect(entries.count == 1)
    }
}
