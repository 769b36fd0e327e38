import Glibc

/// Questions about paths that are neither reads nor writes: does it exist,
/// is it a directory, where does a link lead, what does a directory hold.
/// Like `FileDescriptor`, the one place these system calls are made.
enum FileSystem {
    /// `access(path, F_OK)`: whether the path exists (symlinks followed).
    /// Used to learn which attributes a device has without reading them:
    /// some reads block for seconds or fail by design (HID `in_accel_hysteresis`).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// `stat(2)`: whether the path is a directory (symlinks followed).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// `realpath(3)`: the absolute path with every symlink resolved, e.g.
    /// `/sys/bus/iio/devices/iio:device0` -> `/sys/devices/.../iio:device0`.
    static func realPath(_ path: String) -> Result<String, SystemError> {
        guard let resolved = realpath(path, nil) else {
            return .failure(.current("realpath \(path)"))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// `opendir(3)` / `readdir(3)`: the names in a directory, without "." and
    /// "..", sorted so that results do not depend on the file system's order.
    static func directoryEntries(_ path: String) -> Result<[String], SystemError> {
        guard let directory = opendir(path) else {
            return .failure(.current("opendir \(path)"))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(.current("readdir \(path)")) }
                break
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names.sorted())
    }
}
