import ScrollPhysics

/// Where a device's mount matrix came from, in precedence order.
public enum MountMatrixSource: Equatable, CustomStringConvertible {
    /// `[Device] MountMatrix=` in the configuration.
    case configuration
    /// udev property `ACCEL_MOUNT_MATRIX` (systemd's 60-sensor.hwdb or a local rule).
    case udevProperty
    /// A sysfs attribute written by the driver from firmware data (its name).
    case sysfs(String)
    /// No source: the identity.
    case identity

    public var description: String {
        switch self {
        case .configuration: return "configuration MountMatrix="
        case .udevProperty: return "udev ACCEL_MOUNT_MATRIX"
        case .sysfs(let attribute): return "sysfs \(attribute)"
        case .identity: return "default identity"
        }
    }

    /// Kernel attributes holding the matrix, in the order they are consulted:
    /// `mount_matrix` (st_accel), `in_accel_mount_matrix` (kxcjk-1013 and most
    /// others), `in_mount_matrix` (bmc150).
    public static let sysfsAttributes = ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"]
}

/// The mount matrix a device is used with, and where it came from.
public struct ResolvedMountMatrix: Equatable {
    public var matrix: MountMatrix
    public var source: MountMatrixSource

    /// Takes the first source that has a matrix: the configuration override,
    /// then the udev property, then the first sysfs attribute present
    /// (`sysfs` lists the present ones as (attribute, text) in
    /// `MountMatrixSource.sysfsAttributes` order), then the identity.
    ///
    /// A malformed matrix in the winning source is an error naming it, never
    /// a silent fall-through: a lower source would scroll the wrong way.
    public static func resolve(
        override: MountMatrix?, udevProperty: DeviceText?, sysfs: [(attribute: String, text: DeviceText)],
        devicePath: DeviceText
    ) throws(CaptureError) -> ResolvedMountMatrix {
        if let override {
            return ResolvedMountMatrix(matrix: override, source: .configuration)
        }
        if let udevProperty {
            do {
                return ResolvedMountMatrix(
                    matrix: try MountMatrix(parsing: udevProperty.unescaped), source: .udevProperty)
            } catch {
                throw CaptureError(
                    kind: .invalidValue,
                    message:
                        "udev property ACCEL_MOUNT_MATRIX of \(devicePath): \(error); correct the hwdb entry or "
                        + "udev rule that sets it, or override it with [Device] MountMatrix=")
            }
        }
        if let first = sysfs.first {
            do {
                return ResolvedMountMatrix(
                    matrix: try MountMatrix(parsing: first.text.unescaped), source: .sysfs(first.attribute))
            } catch {
                throw CaptureError(
                    kind: .invalidValue,
                    message:
                        "\(devicePath)/\(first.attribute): \(error); set ACCEL_MOUNT_MATRIX through hwdb or "
                        + "[Device] MountMatrix= to override it")
            }
        }
        return ResolvedMountMatrix(matrix: .identity, source: .identity)
    }
}
