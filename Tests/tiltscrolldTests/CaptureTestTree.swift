import Foundation
import Glibc

@testable import TiltScrollCommon
@testable import tiltscrolld

/// A throwaway directory shaped like a sysfs IIO device, for tests that
/// exercise capture code on real files without udev or umockdev.
final class CaptureTestTree {
    let path: String

    init(_ files: [String: String] = [:]) throws {
        var template = Array("/tmp/tiltscroll-capture-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(.EIO) }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        for (name, text) in files { try write(name, text) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes an attribute in place (same inode), as the kernel would change it.
    func write(_ name: String, _ text: String) throws {
        let full = file(name)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: full) {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: full))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } else {
            try text.write(toFile: full, atomically: false, encoding: .utf8)
        }
    }

    /// The attribute's text as the capture left it, without the newline it writes.
    func read(_ name: String) -> String? {
        guard let text = try? String(contentsOfFile: file(name), encoding: .utf8) else { return nil }
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    func makeFIFO(_ name: String) throws {
        guard mkfifo(file(name), 0o600) == 0 else { throw POSIXError(.EIO) }
    }

    /// The device as discovery describes it from this directory.
    func device(
        name: DeviceText, sysName: DeviceText = "iio:device7", node: String? = nil, matrix: DeviceText? = nil,
        location: DeviceText? = nil
    ) -> AccelerometerDevice? {
        DeviceDiscovery.inspect(
            UdevDeviceRecord(
                sysfsPath: DeviceText(path), sysName: sysName, deviceNode: node.map { DeviceText(file($0)) },
                name: name, mountMatrix: matrix, location: location),
            matrixOverride: nil)
    }

    /// Attributes of a three-axis device that can be polled.
    static func pollAttributes(x: String = "0", y: String = "0", z: String = "0") -> [String: String] {
        ["in_accel_x_raw": x + "\n", "in_accel_y_raw": y + "\n", "in_accel_z_raw": z + "\n", "name": "test\n"]
    }
}
