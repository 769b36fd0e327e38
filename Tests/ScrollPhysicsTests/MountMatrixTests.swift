import Testing

@testable import ScrollPhysics

@Suite struct MountMatrixParsing {
    @Test func parsesTheHwdbForm() throws {
        let m = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        #expect(m.rows == [Vector3(0, -1, 0), Vector3(-1, 0, 0), Vector3(0, 0, 1)])
    }

    @Test func parsesTheKernelSysfsFormWithFractionsAndNewline() throws {
        let m = try MountMatrix(parsing: "0.7071, -0.7071, 0; 0.7071, 0.7071, 0; 0, 0, 1\n")
        #expect(m.rows[0] == Vector3(0.7071, -0.7071, 0))
        #expect(m.rows[2] == Vector3(0, 0, 1))
    }

    @Test func toleratesMissingSpaces() throws {
        #expect(try MountMatrix(parsing: "1,0,0;0,1,0;0,0,1") == .identity)
    }

    /// An asymmetric matrix tells M * v from its transpose.
    @Test func appliesRowsDottedWithTheVector() throws {
        let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(m.apply(Vector3(1, 2, 3)) == Vector3(2, -1, 3))
    }

    @Test(arguments: [
        ("1, 0, 0; 0, 1, 0", "expected 3 rows"),
        ("1, 0, 0; 0, 1; 0, 0, 1", "row 2 has 2 values"),
        ("1, 0, 0; 0, x, 0; 0, 0, 1", "row 2: 'x' is not a number"),
        ("1, 0, 0; 0, 0, 0; 0, 0, 1", "row 2 is all zeros"),
        ("nan, 0, 0; 0, 1, 0; 0, 0, 1", "row 1: 'nan' is not a number"),
        ("", "expected 3 rows"),
    ])
    func rejectsMalformedMatrices(text: String, problem: String) {
        #expect {
            try MountMatrix(parsing: text)
        } throws: { error in
            (error as? MountMatrixError)?.problem.hasPrefix(problem) == true
        }
    }

    @Test func printsTheHwdbForm() throws {
        let text = "0, -1, 0; -1, 0, 0; 0, 0, 1"
        #expect(try MountMatrix(parsing: text).description == text)
    }
}

@Suite struct DecimalNumberParsing {
    @Test(arguments: [
        ("0.009582", 0.009582), ("-12", -12.0), ("+3.5", 3.5), ("1e-3", 0.001), (" 42 \n", 42.0), (".5", 0.5),
        ("5.", 5.0),
    ])
    func acceptsDecimals(text: String, value: Double) {
        #expect(DecimalNumber.parse(text) == value)
    }

    @Test(arguments: ["", "nan", "inf", "-inf", "0x10", "1,5", "1e", "e3", "--1", "1 2", "fast", "1e400"])
    func rejectsEverythingElse(text: String) {
        #expect(DecimalNumber.parse(text) == nil)
    }

    @Test func parsesIntegers() {
        #expect(DecimalNumber.parseInteger("-2048\n") == -2048)
        #expect(DecimalNumber.parseInteger("+7") == 7)
        #expect(DecimalNumber.parseInteger("1.0") == nil)
        #expect(DecimalNumber.parseInteger("99999999999999999999") == nil)
        #expect(DecimalNumber.parseInteger("-9223372036854775808") == Int64.min)
        #expect(DecimalNumber.parseInteger("9223372036854775807") == Int64.max)
        #expect(DecimalNumber.parseInteger("9223372036854775808") == nil)
        #expect(DecimalNumber.parseInteger(" \t12 \r\n") == 12)
    }

    @Test(arguments: ["", "-", "+", " ", "1 2", "0x10", "12a", "--1", "1-", "\n12"])
    func refusesWhatIsNotAnInteger(text: String) {
        #expect(DecimalNumber.parseInteger(text) == nil)
    }
}
