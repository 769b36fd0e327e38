import Glibc

/// The sysfs settings a capture changed, each with the value it had before,
/// so the device can be left as it was found: on release, and on every
/// failure path while a capture is being set up.
final class SettingsJournal {
    private struct Change {
        var path: String
        var original: String
    }

    private var changes: [Change] = []

    /// Whether anything is recorded for restoring.
    var isEmpty: Bool { changes.isEmpty }

    /// Writes `value` to the attribute at `path`, first recording `original`
    /// (what it holds now) so `restoreAll` can write it back. A value equal to
    /// the original is not written at all.
    func change(_ path: String, to value: String, from original: String) -> Result<Void, SystemError> {
        guard value != original else { return .success(()) }
        switch SysfsAttribute.write(path, value) {
        case .failure(let error): return .failure(error)
        case .success:
            changes.append(Change(path: path, original: original))
            return .success(())
        }
    }

    /// Writes every recorded original back, the newest change first (the
    /// kernel refuses channel, trigger and length changes until the buffer
    /// that was enabled last is disabled again). Failures do not stop the
    /// rest; a device that is gone has nothing left to restore.
    func restoreAll() {
        while let change = changes.popLast() {
            if case .failure(let error) = SysfsAttribute.write(change.path, change.original) {
                let gone = error.code == ENOENT || error.code == ENODEV
                if !gone {
                    Log.warning("could not restore \(change.path) to '\(change.original)': \(error)")
                }
            }
        }
    }
}
