/// The version of tiltscroll, as `--version` prints it and the bus's
/// `Version` property says it: the daemon and its client are one release.
public enum DaemonVersion {
    public static let string = "0.1.0"
}
