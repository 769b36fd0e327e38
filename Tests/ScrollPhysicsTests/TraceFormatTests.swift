import Testing

@testable import ScrollPhysics

@Suite struct TraceFormat {
    @Test func readsSamplesAndDirectives() throws {
        let trace = try Trace.parse(
            """
            # tiltscroll trace 1
            # recorded on the QEMU testbed, bmc150
            # scale: 0.5 0.25 2
            # offset: 1 -2 0
            # mount-matrix: 0, 1, 0; -1, 0, 0; 0, 0, 1
            0.000 12 -1020 40
            0.020\t11.5  -1019 44

            1e-1 -3 +4 0.5
            """)
        #expect(trace.samples.count == 3)
        #expect(trace.scale == Vector3(0.5, 0.25, 2))
        #expect(trace.offset == Vector3(1, -2, 0))
        #expect(trace.samples[1].time == 0.02)
        #expect(trace.samples[1].raw == Vector3(11.5, -1019, 44))
        #expect(trace.samples[2].time == 0.1)
        // (raw + offset) * scale = (6.5, -255.5, 80), then M * v with an asymmetric M.
        #expect(trace.samples[0].acceleration == Vector3(-255.5, -6.5, 80))
        #expect(abs(trace.duration - 0.1) < 1e-15)
    }

    @Test func defaultsToValuesAlreadyInMetresPerSecondSquared() throws {
        let trace = try Trace.parse("# tiltscroll trace 1\r\n0 0.1 -9.8 0.2\r\n1 0 0 -9.81\r\n")
        #expect(trace.samples.map(\.acceleration) == [Vector3(0.1, -9.8, 0.2), Vector3(0, 0, -9.81)])
        #expect(trace.mountMatrix == .identity)
    }

    @Test func oneScaleValueAppliesToEveryAxis() throws {
        let trace = try Trace.parse("# tiltscroll trace 1\n# scale: 0.01\n0 100 -200 300\n")
        #expect(trace.samples[0].acceleration == Vector3(1, -2, 3))
    }

    @Test(arguments: [
        ("", "line 1: empty file; expected '# tiltscroll trace 1'"),
        ("0 1 2 3\n", "line 1: expected '# tiltscroll trace 1' as the first line"),
        ("# tiltscroll trace 2\n0 1 2 3", "line 1: unsupported trace version '2'; this reader knows 1"),
        ("# tiltscroll trace 1\n", "the trace has no samples"),
        ("# tiltscroll trace 1\n# just words\n", "the trace has no samples"),
        ("# tiltscroll trace 1\n0 1 2\n", "line 2: expected 4 fields 'time x y z', found 3"),
        ("# tiltscroll trace 1\n0 1 2 3 4\n", "line 2: expected 4 fields 'time x y z', found 5"),
        ("# tiltscroll trace 1\n\n0 1 nan 3\n", "line 3: y 'nan' is not a decimal number"),
        ("# tiltscroll trace 1\n0x1 1 2 3\n", "line 2: time '0x1' is not a decimal number"),
        ("# tiltscroll trace 1\n0 1,5 2 3\n", "line 2: x '1,5' is not a decimal number"),
        ("# tiltscroll trace 1\n1 1 2 3\n0.5 1 2 3\n", "line 3: time 0.5 is earlier than the previous sample's 1.0"),
        ("# tiltscroll trace 1\n0 1 2 3\n# scale: 2\n", "line 3: 'scale:' must come before the first sample"),
        ("# tiltscroll trace 1\n# offset: 1\n# offset: 2\n0 1 2 3", "line 3: 'offset:' given twice"),
        ("# tiltscroll trace 1\n# scale: 1 2\n0 1 2 3", "line 2: scale: expected 1 or 3 numbers, found 2"),
        ("# tiltscroll trace 1\n# scale: fast\n0 1 2 3", "line 2: scale: 'fast' is not a decimal number"),
        (
            "# tiltscroll trace 1\n# mount-matrix: 1, 0, 0; 0, 0, 0; 0, 0, 1\n0 1 2 3",
            "line 2: mount-matrix: row 2 is all zeros"
        ),
    ])
    func namesTheLineAndTheProblem(text: String, message: String) {
        #expect {
            _ = try Trace.parse(text)
        } throws: { error in
            (error as? TraceError)?.description == message
        }
    }

    @Test func writesTextThatReadsBackTheSame() throws {
        let matrix = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        let trace = Trace(
            scale: Vector3(0.009582, 0.009582, 0.009582), offset: Vector3(2, 0, -1), mountMatrix: matrix,
            raw: [(0, Vector3(12, -1020, 40)), (0.02, Vector3(11.5, -1019, 44)), (0.04, Vector3(0, 0, 1023))])
        let text = trace.text(comments: ["a comment"])
        #expect(text.hasPrefix("# tiltscroll trace 1\n# a comment\n# scale: 0.009582 0.009582 0.009582\n"))
        #expect(try Trace.parse(text) == trace)
    }
}

@Suite struct TraceTouchLines {
    @Test func readsTouchesInTimeOrderAndWritesThemBack() throws {
        let text = """
            # tiltscroll trace 1
            0.000000 0 -9 -3
            # touch: 0.010000 begin
            # touch: 0.020000 end
            0.020000 0 -9 -3
            0.040000 0 -9 -3
            # touch: 0.050000 begin

            """
        let trace = try Trace.parse(text)
        #expect(trace.samples.count == 3)
        #expect(
            trace.touches == [
                Trace.Touch(time: 0.01, touching: true), Trace.Touch(time: 0.02, touching: false),
                Trace.Touch(time: 0.05, touching: true),
            ])
        #expect(trace.text() == text)
    }

    @Test(arguments: [
        ("# tiltscroll trace 1\n0 0 -9 -3\n# touch: 1 tap\n", "line 3: touch: 'tap' is neither 'begin' nor 'end'"),
        (
            "# tiltscroll trace 1\n0 0 -9 -3\n# touch: soon begin\n",
            "line 3: touch: expected 'TIME begin' or 'TIME end'"
        ),
        (
            "# tiltscroll trace 1\n1 0 -9 -3\n# touch: 0.5 begin\n",
            "line 3: touch time 0.5 is earlier than the line before it (1.0)"
        ),
        (
            "# tiltscroll trace 1\n# touch: 2 begin\n1 0 -9 -3\n",
            "line 3: time 1 is earlier than the touch line before it (2.0)"
        ),
    ])
    func rejectsMalformedTouchLines(text: String, message: String) {
        #expect(throws: TraceError.self) { try Trace.parse(text) }
        do {
            _ = try Trace.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func aTraceWithoutTouchLinesIsReadAsBefore() throws {
        let trace = try Trace.parse("# tiltscroll trace 1\n# touch is just a word here\n0 1 2 3\n")
        #expect(trace.touches.isEmpty)
        #expect(trace.samples.count == 1)
    }
}
