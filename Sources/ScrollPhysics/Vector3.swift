/// A three-component vector: an acceleration in m/s^2 or a direction.
///
/// Axes follow the IIO convention after the mount matrix is applied: with the
/// display upright in its normal orientation gravity reads (0, -g, 0); lying
/// flat face up it reads (0, 0, -g).
public struct Vector3: Equatable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vector3(0, 0, 0)

    public var length: Double { (x * x + y * y + z * z).squareRoot() }

    public func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    public func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    /// The unit vector in the same direction, or nil for the zero vector.
    public var normalized: Vector3? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return Vector3(x / l, y / l, z / l)
    }

    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }

    public var description: String { "(\(x), \(y), \(z))" }
}

/// Standard gravity in m/s^2, the unit IIO accelerometers report after scaling.
public let standardGravity = 9.80665
