import Glibc

extension Configuration {
    /// Reads and parses the file at `path`. With `required: false` (the
    /// default path in /etc) a missing file means the defaults; with
    /// `required: true` (`--config PATH`) it is an error. A file that exists
    /// but cannot be read is always an error.
    static func load(path: String, required: Bool) -> Result<Configuration, ConfigError> {
        switch readFile(path, limit: ConfigFileSyntax.maximumFileSize) {
        case .success(let bytes):
            return parse(bytes: bytes, file: path)
        case .failure(let error) where error.code == ENOENT && !required:
            return .success(Configuration())
        case .failure(let error):
            let reason =
                error.code == EFBIG
                ? "the file is larger than \(ConfigFileSyntax.maximumFileSize) bytes; this is not a tiltscroll configuration"
                : "cannot read the configuration: \(SystemError.message(for: error.code))"
            return .failure(ConfigError(file: path, line: nil, message: reason))
        }
    }

    /// The whole file, or `EFBIG` when it is longer than `limit` bytes (read
    /// from the descriptor rather than trusting `st_size`, so pipes such as
    /// `--config /dev/stdin` work too).
    private static func readFile(_ path: String, limit: Int) -> Result<[UInt8], SystemError> {
        let descriptor: FileDescriptor
        switch FileDescriptor.open(path, .readOnly) {
        case .success(let opened): descriptor = opened
        case .failure(let error): return .failure(error)
        }
        defer { descriptor.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            switch chunk.withUnsafeMutableBytes({ descriptor.readStream(into: $0) }) {
            case .success(let read): count = read
            case .failure(let error): return .failure(error)
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > limit { return .failure(SystemError(code: EFBIG, operation: "read \(path)")) }
        }
    }
}
