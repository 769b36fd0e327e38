extension Configuration {
    /// Reads and parses the file at `path`. With `required: false` (the
    /// default path in /etc) a missing file means the defaults; with
    /// `required: true` (`--config PATH`) it is an error. A file that exists
    /// but cannot be read is always an error. The first problem is thrown.
    public static func load(path: String, required: Bool) throws(ConfigError) -> Configuration {
        let result = check(path: path, required: required)
        if let first = result.problems.first { throw first }
        return result.configuration
    }

    /// Reads the file at `path` as `load` does and finds every problem in it
    /// (`check(bytes:file:)`).
    public static func check(path: String, required: Bool) -> Check {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readSmallFile(path, limit: ConfigFileSyntax.maximumFileSize, followingLinks: true)
        } catch  where error.code == .noSuchFileOrDirectory && !required {
            return Check(configuration: Configuration(), problems: [])
        } catch {
            let reason =
                error.code == .fileTooLarge
                ? "the file is larger than \(ConfigFileSyntax.maximumFileSize) bytes; this is not a tiltscroll configuration"
                : "cannot read the configuration: \(error.code)"
            return Check(
                configuration: Configuration(), problems: [ConfigError(file: path, line: nil, message: reason)])
        }
        return check(bytes: bytes, file: path)
    }
}
