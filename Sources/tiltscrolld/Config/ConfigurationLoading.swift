extension Configuration {
    /// Reads and parses the file at `path`. With `required: false` (the
    /// default path in /etc) a missing file means the defaults; with
    /// `required: true` (`--config PATH`) it is an error. A file that exists
    /// but cannot be read is always an error.
    static func load(path: String, required: Bool) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: ConfigFileSyntax.maximumFileSize, followingLinks: true)
        } catch  where error.code == .noSuchFileOrDirectory && !required {
            return Configuration()
        } catch {
            let reason =
                error.code == .fileTooLarge
                ? "the file is larger than \(ConfigFileSyntax.maximumFileSize) bytes; this is not a tiltscroll configuration"
                : "cannot read the configuration: \(error.code)"
            throw ConfigError(file: path, line: nil, message: reason)
        }
        return try parse(bytes: bytes, file: path)
    }
}
