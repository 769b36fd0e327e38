/// The rotation from the sensor's axes to the display's axes.
///
/// Written as the kernel's `mount_matrix` attribute and systemd's hwdb
/// `ACCEL_MOUNT_MATRIX` write it: three rows separated by `;`, three columns by
/// `,`, e.g. `0, -1, 0; -1, 0, 0; 0, 0, 1`. The corrected vector is M * v: row i
/// dotted with the sensor reading gives display axis i.
public struct MountMatrix: Equatable, Sendable, CustomStringConvertible {
    /// The three rows, stored in place: applied to every sample, the matrix
    /// is read without an array's reference count or bounds checks.
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    /// Row-major entries.
    public var rows: [Vector3] { [row0, row1, row2] }

    public static let identity = MountMatrix(rows: [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)])

    public init(rows: [Vector3]) {
        precondition(rows.count == 3, "a mount matrix has three rows")
        (row0, row1, row2) = (rows[0], rows[1], rows[2])
    }

    /// Parses the hwdb / sysfs text form.
    public init(parsing text: String) throws(MountMatrixError) {
        let rowTexts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else {
            throw MountMatrixError(text: text, problem: "expected 3 rows separated by ';', found \(rowTexts.count)")
        }
        var parsed: [Vector3] = []
        for (rowIndex, rowText) in rowTexts.enumerated() {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else {
                throw MountMatrixError(
                    text: text,
                    problem: "row \(rowIndex + 1) has \(cells.count) values, expected 3 separated by ','")
            }
            var values: [Double] = []
            for cell in cells {
                guard let value = DecimalNumber.parse(cell) else {
                    let shown = DecimalNumber.trimmed(cell)
                    throw MountMatrixError(
                        text: text, problem: "row \(rowIndex + 1): '\(shown)' is not a number")
                }
                values.append(value)
            }
            let row = Vector3(values[0], values[1], values[2])
            guard row != .zero else {
                throw MountMatrixError(text: text, problem: "row \(rowIndex + 1) is all zeros")
            }
            parsed.append(row)
        }
        self.init(rows: parsed)
    }

    /// M * v.
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(row0.dot(v), row1.dot(v), row2.dot(v))
    }

    public var isIdentity: Bool { self == .identity }

    /// The hwdb form, with integers written without a fraction.
    public var description: String {
        var rowTexts: [String] = []
        for row in rows {
            let cells: [String] = [row.x, row.y, row.z].map(MountMatrix.format)
            rowTexts.append(cells.joined(separator: ", "))
        }
        return rowTexts.joined(separator: "; ")
    }

    private static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// A mount matrix that could not be parsed; `message` says why.
public struct MountMatrixError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public var problem: String
    public var description: String { "invalid mount matrix '\(text)': \(problem)" }
}
