import TiltScrollCommon

/// The trace `tiltscrollctl demo` plays: a kxcjk-1013 tilted away and back on the real
/// kernel (Tests/realkernel, `record-traces`). Its one copy is the recorded
/// file; the build embeds its bytes in the program (`.embedInCode` in
/// Package.swift), so the demo needs no file at run time.
enum DemoTrace {
    /// The file the bytes come from, relative to the repository.
    static let source = "Tests/realkernel/traces/kxcjk-1013.trace"

    static var text: String { String(decoding: PackageResources.kxcjk_1013_trace, as: UTF8.self) }
}
