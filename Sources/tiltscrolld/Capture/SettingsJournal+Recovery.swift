import TiltScrollCommon

/// Putting back what a previous daemon changed and could not restore.
extension SettingsJournal {
    /// Restores the changes a journal file from a previous daemon lists,
    /// newest first as `restoreAll` does, says so in one notice, and removes
    /// the file. Returns how many attributes were written back (one changed
    /// twice, a sampling frequency stepped up, counts once).
    ///
    /// Only the daemon that holds the PID file may call this, before it
    /// opens a capture: a running daemon's journal describes settings it
    /// still holds. A file that cannot be used is reported and removed (the
    /// first change of this daemon would replace it anyway).
    @discardableResult
    static func restoreLeftovers(
        from file: SettingsJournalFile, sysfsRoot: String = SettingsJournalRecord.sysfsDevices
    ) -> Int {
        let entries: [SettingsJournalRecord.Entry]
        switch file.load(sysfsRoot: sysfsRoot) {
        case .missing: return 0
        case .unusable(let message):
            Log.warning("\(message); ignored and removed")
            try? file.remove()
            return 0
        case .loaded(let loaded): entries = loaded.entries
        }
        var paths: Set<String> = []
        for change in entries.reversed() where restore(change) { paths.insert(change.path) }
        let restored = paths.count
        if restored > 0 {
            let settings = restored == 1 ? "setting" : "settings"
            Log.notice("restored \(restored) \(settings) left by a previous tiltscrolld that did not stop cleanly")
        }
        do {
            try file.remove()
        } catch {
            Log.warning("cannot remove the settings journal: \(error)")
        }
        return restored
    }
}
