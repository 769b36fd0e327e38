import ScrollPhysics
import TiltScrollCommon

/// What the daemon keeps across restarts in its state directory: the
/// person's controls (the switch and the sensitivity, `controls`) and the
/// neutral pose (`calibration`). Loading never stops the daemon; a file
/// that cannot be used is said and the first start's values are used.
/// `--dry-run` persists too, so that it behaves as the daemon would.
struct Persistence {
    /// The controls are saved at most once per `saveInterval`: a desktop
    /// slider sends many changes, each not worth a file replaced and synced
    /// (it cost more than the rest of the change). The first change after a
    /// quiet interval is saved at once; later ones when the interval ends.
    static let saveInterval = 1.0

    private(set) var controls: UserControls
    private let controlsStore: UserControlsStore
    private let calibrationStore: CalibrationStore
    private var savedAt = -Double.infinity
    /// When the controls are saved next; nil while nothing waits.
    private(set) var saveDue: Double?
    /// Saving failed; said once until a save works again.
    private var saveFailing = false
    /// The neutral pose is saved once the engine has taken the pose it was
    /// asked to (after a recalibration).
    private var neutralWanted = false

    /// Loads the controls; a first start's for `mode` where none were saved.
    init(controlsStore: UserControlsStore, calibrationStore: CalibrationStore, mode: ActivationMode) {
        self.controlsStore = controlsStore
        self.calibrationStore = calibrationStore
        switch controlsStore.load() {
        case .loaded(let loaded): controls = loaded
        case .missing: controls = .initial(for: mode)
        case .unusable(let message):
            Log.warning("\(message); starting as on a first start")
            controls = .initial(for: mode)
        }
    }

    /// Sets the switch; false when it was already so.
    mutating func setEnabled(_ on: Bool, now: Double) -> Bool {
        guard on != controls.enabled else { return false }
        controls.enabled = on
        changed(now: now)
        return true
    }

    /// Sets the sensitivity; false when it was already so.
    mutating func setSensitivity(_ factor: Double, now: Double) -> Bool {
        guard factor != controls.sensitivity else { return false }
        controls.sensitivity = factor
        changed(now: now)
        return true
    }

    /// Saves the controls when their interval ends.
    mutating func saveIfDue(now: Double) {
        if let due = saveDue, now >= due { save(now: now) }
    }

    /// Saves what still waits (the daemon is stopping).
    mutating func flush(now: Double) {
        if saveDue != nil { save(now: now) }
    }

    /// The neutral pose saved for `sensor`, if one was (and fits it).
    func savedNeutral(for sensor: AccelerometerDevice) -> Vector3? {
        calibrationStore.neutralPose(forDeviceNamed: sensor.name, at: sensor.sysfsPath)
    }

    /// A recalibration was asked: the pose is saved once the engine has it.
    mutating func saveNeutralWhenTaken() { neutralWanted = true }

    /// Saves the engine's neutral pose when one was asked for and it has one.
    mutating func saveNeutralIfTaken(_ neutral: Vector3?, for sensor: AccelerometerDevice?) {
        guard neutralWanted, let neutral, let sensor else { return }
        neutralWanted = false
        let record = CalibrationRecord(deviceName: sensor.name, devicePath: sensor.sysfsPath, neutral: neutral)
        do {
            try calibrationStore.save(record)
            Log.info("Saved the neutral pose to \(calibrationStore.path)")
        } catch {
            Log.warning("Cannot save the neutral pose: \(error)")
        }
    }

    /// Whether a recalibration waits for its pose to be saved (the loop asks
    /// the engine only then).
    var waitsForNeutral: Bool { neutralWanted }

    private mutating func changed(now: Double) {
        if now - savedAt >= Persistence.saveInterval {
            save(now: now)
        } else {
            saveDue = savedAt + Persistence.saveInterval
        }
    }

    private mutating func save(now: Double) {
        saveDue = nil
        savedAt = now
        do {
            try controlsStore.save(controls)
            saveFailing = false
        } catch {
            if !saveFailing { Log.warning("Cannot save the switch and the sensitivity: \(error)") }
            saveFailing = true
        }
    }
}
