import Glibc

/// Writes to stdout through the daemon's syscall layer, unbuffered, so a
/// line printed by `--dry-run` reaches a pipe at once.
public enum StandardOutput {
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            try? FileDescriptor.standardOutput.writeAll(UnsafeRawBufferPointer(bytes))
        }
    }
}
