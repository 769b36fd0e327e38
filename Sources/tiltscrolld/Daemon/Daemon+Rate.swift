import ScrollPhysics

/// Costing nothing while nothing moves: the capture follows the engine's
/// sample demand (`ScrollEngine.sampleDemand`: 2.5 Hz while the device rests,
/// a quarter of the configured rate, at least 10 Hz, while it is held still
/// inside the dead zone, the full rate otherwise).
///
/// Each capture decides what that means for its device: polling moves its
/// read deadline; the buffer changes the sampling frequency and, resting, a
/// HID sensor hub's change sensitivity, a higher demand at once and a lower
/// one once it has lasted (`DemandFollower`), every change journalled.
extension Daemon {
    /// On every wake-up, after the samples: the capture runs at the rate the
    /// engine asks for now. Costs two comparisons while the demand stays.
    func followSampleDemand(now: Double) {
        guard let source, lifecycle.readsAllowed(at: now) else { return }
        source.follow(engine.sampleDemand, now: now)
    }
}
