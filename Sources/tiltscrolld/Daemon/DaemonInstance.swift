import TiltScrollCommon

/// The one daemon of the machine: its PID file in the runtime directory,
/// which tells a second daemon (two would scroll twice as far) and lets
/// the client find it for a signal, and beside it the settings journals, in
/// which captures record the sysfs settings they change so that the next
/// daemon can put back what a killed one left: one for the display's
/// sensor (the scrolling capture, or the hinge's own low-rate one, never
/// both at once), one for the base's, which the hinge reads beside it.
///
/// `--dry-run` claims nothing: it may run beside the daemon and must not
/// touch its journal.
struct DaemonInstance {
    let pidFile: PidFile
    /// Where captures of the display's sensor record what they change.
    let journalFile: SettingsJournalFile
    /// Where the capture of the base's sensor records what it changes.
    let baseJournalFile: SettingsJournalFile

    /// The base's journal file beside `journalFile`.
    static func baseJournal(beside file: SettingsJournalFile) -> SettingsJournalFile {
        SettingsJournalFile(path: file.path + "-base")
    }

    /// Writes the PID file and puts back what a dead daemon's journal lists.
    /// Throws `.alreadyRunning` when another live daemon holds the file.
    static func claim(_ pidFile: PidFile) throws(PidFile.CreateError) -> DaemonInstance {
        let file = try pidFile.create()
        // No other daemon runs, so a journal in the runtime directory is a
        // dead one's: its settings go back before anything is captured, or
        // this daemon would take the changed values for originals.
        let journalFile = SettingsJournalFile(directory: file.directory)
        let baseJournalFile = baseJournal(beside: journalFile)
        SettingsJournal.restoreLeftovers(from: journalFile)
        SettingsJournal.restoreLeftovers(from: baseJournalFile)
        return DaemonInstance(pidFile: file, journalFile: journalFile, baseJournalFile: baseJournalFile)
    }

    /// Removes the PID file (if it still names this process).
    func release() { pidFile.remove() }
}
