import Glibc

extension Configuration {
    /// Reads and parses the file at `path`. With `required: false` (the
    /// default path in /etc) a missing file means the defaults; with
    /// `required: true` (`--config PATH`) it is an error. A file that exists
    /// but cannot be read is always an error.
    static func load(path: String, required: Bool) -> Result<Configuration, ConfigError> {
        switch FileSystem.readSmallFile(path, limit: ConfigFileSyntax.maximumFileSize, followingLinks: true) {
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
}
