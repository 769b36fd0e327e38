import TiltScrollCommon

/// The sysfs settings a capture changed, each with the value it had before,
/// so the device can be left as it was found: on release, and on every
/// failure path while a capture is being set up.
///
/// With a `SettingsJournalFile`, every change is also written there before
/// the attribute is changed, and the file is removed once everything is
/// restored: a daemon killed in between leaves it for the next one
/// (`restoreLeftovers`). The file mirrors this one journal; the daemon holds
/// one capture, and so one journal, at a time.
final class SettingsJournal {
    private typealias Change = SettingsJournalRecord.Entry

    private var changes: [Change] = []
    /// nil keeps the changes in memory only (`--dry-run`, `--monitor`, a
    /// daemon that does not hold the PID file and so must not touch the
    /// running daemon's journal).
    private let file: SettingsJournalFile?
    /// Whether `file` may hold changes of this journal.
    private var wroteFile = false

    init(file: SettingsJournalFile? = nil) { self.file = file }

    /// Whether anything is recorded for restoring.
    var isEmpty: Bool { changes.isEmpty }

    /// What the attribute at `path` held before its first change; nil when
    /// it was not changed.
    func original(of path: String) -> String? { changes.first { $0.path == path }?.original }

    /// Writes `value` to the attribute at `path`, first recording `original`
    /// (what it holds now) so `restoreAll` can write it back. A value equal to
    /// `original` is not written at all.
    ///
    /// An attribute changed again (a sampling frequency that follows the
    /// engine's demand, a hysteresis set and cleared) keeps the entry of its
    /// first change: its original, and its place in the order of restoring,
    /// so the journal and its file do not grow with every change.
    func change(_ path: String, to value: String, from original: String) throws(SystemError) {
        guard value != original else { return }
        if changes.contains(where: { $0.path == path }) {
            try SysfsAttribute.write(path, value)
            return
        }
        let change = Change(path: path, original: original)
        persist(changes + [change])
        do {
            try SysfsAttribute.write(path, value)
        } catch {
            // The attribute kept its value: nothing of it to restore.
            persist(changes)
            throw error
        }
        changes.append(change)
    }

    /// Writes every recorded original back, the newest change first (the
    /// kernel refuses channel, trigger and length changes until the buffer
    /// that was enabled last is disabled again). Failures do not stop the
    /// rest; a device that is gone has nothing left to restore.
    func restoreAll() {
        restoreAll(keeping: { _ in false })
    }

    /// Like `restoreAll`, but the changes of the attributes for which `kept`
    /// is true stay, recorded (in the file too) for a later `restoreAll`.
    /// A capture that fails and will be tried again keeps the sampling
    /// frequency it raised this way, so that a retry streak writes it once
    /// and restores it once.
    func restoreAll(keeping kept: (String) -> Bool) {
        let recorded = changes.count
        var remaining: [Change] = []
        while let change = changes.popLast() {
            if kept(change.path) {
                remaining.insert(change, at: 0)
            } else {
                _ = SettingsJournal.restore(change)
            }
        }
        changes = remaining
        // Nothing restored, nothing to write (a retry's journal file holds it already).
        if remaining.count != recorded || remaining.isEmpty { persist(remaining) }
    }

    /// Writes `change.original` back; true when it was written. A failure is
    /// logged, except for a device that is gone.
    static func restore(_ change: SettingsJournalRecord.Entry) -> Bool {
        do {
            try SysfsAttribute.write(change.path, change.original)
            return true
        } catch {
            let gone = error.code == .noSuchFileOrDirectory || error.code == .noSuchDevice
            if !gone {
                Log.warning("could not restore \(change.path) to '\(change.original)': \(error)")
            }
            return false
        }
    }

    /// Makes the file hold `entries` (none: no file). A file that cannot be
    /// written does not stop the capture, which works without it; only a
    /// daemon killed meanwhile would leave the change behind.
    private func persist(_ entries: [Change]) {
        guard let file else { return }
        if entries.isEmpty {
            guard wroteFile else { return }
            wroteFile = false
            do {
                try file.remove()
            } catch {
                Log.warning("cannot remove the settings journal: \(error)")
            }
            return
        }
        wroteFile = true
        do {
            try file.save(SettingsJournalRecord(entries: entries))
        } catch {
            Log.warning(
                "cannot keep the settings journal: \(error); if tiltscrolld is killed now, "
                    + "the next start cannot restore what it changed")
        }
    }
}
