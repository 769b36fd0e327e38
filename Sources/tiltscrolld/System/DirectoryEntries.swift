import Glibc

/// The names in a directory (`opendir(3)`/`readdir(3)`), without "." and "..",
/// in the order the file system returns them.
///
/// Used to find `/dev/input/event*` nodes; the list is read once per scan, not
/// in the event loop's hot path.
enum DirectoryEntries {
    static func names(in path: String) -> Result<[String], SystemError> {
        guard let directory = opendir(path) else { return .failure(.current("opendir \(path)")) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            // readdir signals an error only through errno, so clear it first.
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(.current("readdir \(path)")) }
                return .success(names)
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
