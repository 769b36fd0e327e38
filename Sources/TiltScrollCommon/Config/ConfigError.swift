/// A configuration file that cannot be used, and why.
///
/// Reads like a compiler diagnostic so editors and people can jump to it:
/// `/etc/tiltscroll.conf:7: Speed must be a number between 0 and 1000, got 'fast'`.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// The path as the user gave it.
    public var file: String
    /// 1-based line of the problem; nil when it concerns the whole file
    /// (cannot be read, too large).
    public var line: Int?
    public var message: String

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}
