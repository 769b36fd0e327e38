import Foundation
import Testing

@testable import ScrollPhysics
@testable import SyntheticMotion

/// The hinge angle from the two accelerometers (`HingeReading`): the frames
/// of systemd's hwdb, the angle over every orientation of the device, and
/// the guards.
@Suite struct HingeAngleGeometry {
    @Test func aClosedLidReadsTheSameInBothHalvesAndMeasuresZero() {
        // The hwdb's definition: closed, the base reads what the display reads.
        for v in [Vector3(0, 0, 9.80665), Vector3(3, -5, 7.9), Vector3(0, -9.80665, 0)] {
            let reading = HingeReading.measure(display: v, base: v)
            #expect(reading == .closedOrFolded(degrees: 0), "\(v)")
        }
    }

    @Test func aLaptopOnATableMeasuresItsLidAngle() throws {
        for hinge in stride(from: 30.0, through: 150, by: 10) {
            let (display, base) = HingedDevice.onATable(hinge: hinge)
            let degrees = try #require(HingeReading.measure(display: display, base: base).degrees)
            #expect(abs(degrees - hinge) < 1e-9, "lid at \(hinge)")
        }
        // Upright display on a flat base: 90 degrees, and the display reads upright.
        let (display, base) = HingedDevice.onATable(hinge: 90)
        #expect(abs(display.y + 9.80665) < 1e-12 && abs(display.z) < 1e-12)
        #expect(HingeReading.measure(display: display, base: base) == .open(degrees: 90))
    }

    @Test func aStandReadsAboutTwoHundredSeventy() throws {
        // A stand: the base flat keyboard down (its z up), the display upright.
        let base = Vector3(0, 0, -9.80665)
        let display = Vector3(0, -9.80665, 0)
        let degrees = try #require(HingeReading.measure(display: display, base: base).degrees)
        #expect(abs(degrees - 270) < 1e-9)
        #expect(HingedDevice.display(base: base, hinge: 270).y < -9.8, "the model agrees: upright at 270")
    }

    /// The whole device turned every way (gravity in any direction of the
    /// base's frame), the lid at every angle: where the hinge is at least
    /// 30 degrees from vertical the angle is exact, else there is none.
    @Test func theAngleIsTheLidAngleInEveryOrientationOfTheDevice() {
        var random = SeededRandom(seed: 25)
        var measured = 0
        for _ in 0..<4000 {
            let down = HingedDevice.anyDirection(&random)
            let hinge = random.uniform(0...359.999)
            let base = down * HingedDevice.g
            let display = HingedDevice.display(base: base, hinge: hinge)
            let reading = HingeReading.measure(display: display, base: base)
            let across = (down.y * down.y + down.z * down.z).squareRoot()
            if across < 0.5 - 1e-9 {
                guard case .rejected(.hingeNearVertical(let fromVertical)) = reading else {
                    Issue.record("hinge \(asin(across) * 180 / .pi) degrees from vertical: \(reading)")
                    continue
                }
                #expect(abs(fromVertical - asin(across) * 180 / .pi) < 1e-6)
                continue
            }
            if across < 0.5 + 1e-9 { continue }
            guard let degrees = reading.degrees else {
                Issue.record("no angle at \(hinge), across \(across): \(reading)")
                continue
            }
            measured += 1
            #expect(abs(HingedDevice.angleDifference(degrees, hinge)) < 1e-7, "lid at \(hinge): \(degrees)")
            let ambiguous = hinge < 20 || hinge > 340
            if case .closedOrFolded = reading {
                #expect(ambiguous || abs(hinge - 20) < 1e-6 || abs(hinge - 340) < 1e-6, "\(hinge)")
            } else {
                #expect(!ambiguous, "\(hinge) is within 20 degrees of closed: \(reading)")
            }
            #expect(degrees >= 0 && degrees < 360)
        }
        #expect(measured > 3000, "most orientations leave the hinge well off vertical (\(measured) of 4000)")
    }

    /// A hand holds the device at any pose with the hinge at least 30
    /// degrees from vertical, the lid at any angle; each part adds its own
    /// noise and resolution. The angle's error stays within what the noise
    /// across the hinge allows.
    @Test(arguments: SensorModel.parts)
    func withEachPartsNoiseTheAngleStaysCloseInEveryOrientation(part: SensorModel) {
        var random = SeededRandom(seed: 7)
        var worst = 0.0
        var sumOfSquares = 0.0
        var count = 0
        for _ in 0..<3000 {
            let down = HingedDevice.anyDirection(&random)
            let across = (down.y * down.y + down.z * down.z).squareRoot()
            guard across >= 0.55 else { continue }
            let hinge = random.uniform(25...335)
            let base = down * HingedDevice.g
            let display = HingedDevice.display(base: base, hinge: hinge)
            let reading = HingeReading.measure(
                display: HingedDevice.read(display, by: part, &random),
                base: HingedDevice.read(base, by: part, &random))
            guard let degrees = reading.degrees else {
                Issue.record("\(part): no angle at \(hinge), across \(across): \(reading)")
                continue
            }
            let error = abs(HingedDevice.angleDifference(degrees, hinge))
            // Two parts' noise (and half a count each), across at least 0.55 g.
            let sigma = ((part.noise * part.noise + part.scale * part.scale / 12) * 2).squareRoot()
            let bound = 5 * sigma / (across * HingedDevice.g) * 180 / .pi
            #expect(error <= bound, "\(part): lid at \(hinge), across \(across): off by \(error) > \(bound)")
            worst = max(worst, error)
            sumOfSquares += error * error
            count += 1
        }
        #expect(count > 1500)
        // Even the noisiest part (6 mg) and the coarsest (a hub's 10 mg steps) read within a degree rms.
        #expect((sumOfSquares / Double(count)).squareRoot() < 1, "\(part): rms error")
        #expect(worst < 4, "\(part): worst error \(worst)")
    }

    /// What accelerates both halves alike is one vector seen from two
    /// frames, as gravity is: a walk's bounce, a car's braking leave the
    /// angle as it is.
    @Test func accelerationSharedByBothHalvesLeavesTheAngleTrue() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<500 {
            let hinge = random.uniform(25...335)
            let (display, base) = HingedDevice.held(away: random.uniform(0...80), hinge: hinge)
            // A push of up to 0.18 g in the display's frame, seen by the base in its own.
            let push = HingedDevice.anyDirection(&random) * (random.uniform(0...0.18) * HingedDevice.g)
            let pushedDisplay = display + push
            let pushedBase = HingedDevice.base(display: pushedDisplay, hinge: hinge)
            #expect(abs(pushedBase.x - (base + HingedDevice.base(display: push, hinge: hinge)).x) < 1e-9)
            let reading = HingeReading.measure(display: pushedDisplay, base: pushedBase)
            guard let degrees = reading.degrees else {
                // Only a push that takes gravity near the hinge, or a magnitude beyond 1.2 g, says nothing.
                guard case .rejected(let why) = reading else { continue }
                switch why {
                case .hingeNearVertical, .notGravity: continue
                default: Issue.record("a shared push rejected as \(why)")
                }
                continue
            }
            #expect(abs(HingedDevice.angleDifference(degrees, hinge)) < 1e-7)
        }
    }
}

@Suite struct HingeAngleGuards {
    /// The hinge turned towards vertical (the right edge lowered): an
    /// angle while at least 30 degrees from vertical, none nearer.
    @Test func aHingeNearVerticalShowsNoAngle() {
        for rightDown in stride(from: 0.0, through: 90, by: 2.5) {
            let (display, base) = HingedDevice.held(away: 20, rightDown: rightDown, hinge: 300)
            let reading = HingeReading.measure(display: display, base: base)
            let fromVertical = 90 - rightDown
            if fromVertical >= 30.5 {
                #expect(reading.degrees.map { abs($0 - 300) < 1e-7 } == true, "\(fromVertical): \(reading)")
            } else if fromVertical <= 29.5 {
                if case .rejected(.hingeNearVertical(let d)) = reading {
                    #expect(abs(d - fromVertical) < 1e-6)
                } else {
                    Issue.record("\(fromVertical) degrees from vertical: \(reading)")
                }
            }
        }
    }

    @Test func aShakeIsNoReading() {
        let (display, base) = HingedDevice.held(away: 30, hinge: 120)
        for factor in [0.5, 0.75, 1.25, 1.6, 3.0] {
            // Both halves shaken alike (which alone would leave the angle
            // true, but this hard comes with a twist), or one of them.
            for (d, b) in [(display * factor, base * factor), (display * factor, base), (display, base * factor)] {
                guard case .rejected(.notGravity(let g)) = HingeReading.measure(display: d, base: b) else {
                    Issue.record("x\(factor): \(HingeReading.measure(display: d, base: b))")
                    continue
                }
                #expect(abs(g - factor) < 1e-9)
            }
        }
        for factor in [0.85, 1.15] {
            #expect(HingeReading.measure(display: display * factor, base: base * factor).degrees != nil)
        }
    }

    /// One half pushed against the other (the fold itself, a twist): the
    /// readings are no longer one vector in two frames.
    @Test func halvesThatMoveAgainstEachOtherShowNoAngle() {
        let (display, base) = HingedDevice.held(away: 30, hinge: 120)
        let g = HingedDevice.g
        for push in [Vector3(0.12 * g, 0, 0), Vector3(0, -0.15 * g, 0), display * 0.15] {
            let reading = HingeReading.measure(display: display + push, base: base)
            guard case .rejected(.halvesDisagree(let by)) = reading else {
                Issue.record("\(push): \(reading)")
                continue
            }
            #expect(by > 0.1)
        }
        // Along the hinge only the halves can differ; 0.05 g of offsets between parts is tolerated.
        #expect(HingeReading.measure(display: display + Vector3(0.05 * g, 0, 0), base: base).degrees != nil)
    }

    /// A push on one half across gravity, in the plane the lid turns in,
    /// turns its reading as the lid would: it passes, off by the push over
    /// gravity in radians (the agreement over readings absorbs it). The
    /// rough angle of a pair rejected as motion is off by no more.
    @Test func aPushAcrossGravityInTheLidsPlaneTurnsTheAngle() throws {
        let (display, base) = HingedDevice.held(away: 30, hinge: 120)
        let g = HingedDevice.g
        // Across the display's gravity (0, -cos 30, -sin 30), within y-z.
        let across = Vector3(0, -sin(30 * Double.pi / 180), cos(30 * Double.pi / 180)) * (0.1 * g)
        let degrees = try #require(HingeReading.measure(display: display + across, base: base).degrees)
        #expect(abs(abs(degrees - 120) - atan(0.1) * 180 / .pi) < 1e-6)
        let rough = try #require(HingeReading.roughDegrees(display: display + across * 2.5, base: base))
        #expect(abs(abs(rough - 120) - atan(0.25) * 180 / .pi) < 1e-6)
        #expect(HingeReading.roughDegrees(display: display * 1.35, base: base) == nil, "beyond the rough guards")
        #expect(HingeReading.roughDegrees(display: display * 1.25, base: base).map { abs($0 - 120) < 1e-9 } == true)
    }

    @Test func nonFiniteComponentsAreNoReading() {
        let (display, base) = HingedDevice.held(away: 30, hinge: 120)
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(HingeReading.measure(display: Vector3(bad, 0, -9.8), base: base) == .rejected(.notFinite))
            #expect(HingeReading.measure(display: display, base: Vector3(0, bad, 0)) == .rejected(.notFinite))
        }
        #expect(HingeReading.measure(display: .zero, base: .zero) == .rejected(.notGravity(magnitudeG: 0)))
    }

    @Test func readingsAndRejectionsHaveNamesForLogs() {
        #expect("\(HingeReading.open(degrees: 123.456))" == "open(123.5 deg)")
        #expect("\(HingeReading.closedOrFolded(degrees: 358))" == "closed-or-folded(358.0 deg)")
        #expect(
            "\(HingeReading.rejected(.hingeNearVertical(degreesFromVertical: 12.4)))"
                == "rejected:hinge-near-vertical(12 deg)")
        #expect("\(HingeRejection.halvesDisagree(byG: 0.234))" == "halves-disagree(0.23 g)")
        #expect("\(HingeRejection.notGravity(magnitudeG: 1.5))" == "not-gravity(1.50 g)")
        #expect("\(HingeReading.none)" == "none")
    }
}
