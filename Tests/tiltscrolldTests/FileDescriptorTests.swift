import Glibc
import Testing

@testable import TiltScrollCommon
@testable import tiltscrolld

@Suite struct FileDescriptorBehaviour {
    @Test func writesAndReadsBackAtOffsetZero() throws {
        var template = Array("/tmp/tiltscroll-fd-XXXXXX".utf8CString)
        let raw = mkstemp(&template)
        #expect(raw >= 0)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }
        let fd = FileDescriptor(rawValue: raw)
        defer { fd.close() }
        let text = Array("1234\n".utf8)
        try text.withUnsafeBytes { try fd.writeAttribute($0) }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
        #expect(Array(buffer[..<count]) == text)
    }

    @Test func reportsTheFailingOperationAndCause() {
        guard let error = thrownError(SystemError.self, try FileDescriptor.open("/nonexistent/tiltscroll", .readOnly))
        else {
            Issue.record("opening a missing file succeeded")
            return
        }
        #expect(error.code == .noSuchFileOrDirectory)
        #expect(error.description == "open /nonexistent/tiltscroll: No such file or directory")
    }
}
