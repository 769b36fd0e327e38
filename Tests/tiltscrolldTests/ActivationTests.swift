import Testing

@testable import tiltscrolld

@Suite struct ActivationStateMachine {
    @Test func alwaysIsActiveOnceASensorExists() {
        var activation = Activation(mode: .always)
        #expect(activation.state == .waitingForSensor)
        let edge = activation.handle(.sensorAvailable(true))
        #expect(edge.from == .waitingForSensor && edge.to == .active)
        #expect(activation.handle(.tabletModeChanged(false)).to == .active)
    }

    @Test func autoFollowsTheSwitchWhereOneExistsAndIsOnWhereNoneDoes() {
        var activation = Activation(mode: .auto)
        activation.handle(.sensorAvailable(true))
        #expect(activation.state == .active)
        #expect(activation.handle(.tabletModeChanged(false)).to == .off)
        #expect(activation.handle(.tabletModeChanged(true)).to == .active)
        // The switch went away (device removed): back to always-on.
        #expect(activation.handle(.tabletModeChanged(nil)).to == .active)
    }

    @Test func tabletModeNeedsASwitch() {
        var activation = Activation(mode: .tabletMode)
        activation.handle(.sensorAvailable(true))
        #expect(activation.state == .off)
        #expect(activation.explanation.contains("no tablet-mode switch"))
        #expect(activation.handle(.tabletModeChanged(true)).to == .active)
    }

    @Test func manualStartsOffAndToggles() {
        var activation = Activation(mode: .manual)
        activation.handle(.sensorAvailable(true))
        #expect(activation.state == .off)
        #expect(activation.handle(.manualToggle).to == .active)
        #expect(activation.handle(.manualToggle).to == .off)
    }

    @Test func losingTheSensorWaitsInsteadOfTurningOff() {
        var activation = Activation(mode: .always)
        activation.handle(.sensorAvailable(true))
        let edge = activation.handle(.sensorAvailable(false))
        #expect(edge.from == .active && edge.to == .waitingForSensor)
    }

    @Test func changingTheModeOnReloadReevaluates() {
        var activation = Activation(mode: .always)
        activation.handle(.sensorAvailable(true))
        #expect(activation.handle(.modeChanged(.manual)).to == .off)
    }

    @Test func namesEveryStateAndEventApartForTheLog() {
        let states: [Activation.State] = [.off, .waitingForSensor, .active]
        let events: [Activation.Event] =
            [.tabletModeChanged(true), .tabletModeChanged(false), .tabletModeChanged(nil), .manualToggle]
            + [.sensorAvailable(true), .sensorAvailable(false)] + ActivationMode.allCases.map { .modeChanged($0) }
        #expect(Set(states.map(Activation.name)).count == states.count)
        #expect(Set(events.map(Activation.name)).count == events.count)
        #expect(Activation.name(.tabletModeChanged(nil)) == "tablet-mode-unknown")
    }
}
