import CSystemd
import Glibc
import TiltScrollCommon

/// What reading logind's answers and signals needs of a message beyond
/// `BusMessage`'s own: headers of signals, object paths, dictionaries of
/// variants, descriptors.
extension BusMessage {
    private static func code(_ type: Character) -> CChar { CChar(bitPattern: type.asciiValue!) }

    private func check(_ result: Int32, _ what: @autoclosure () -> String) throws(BusError) {
        if result < 0 { throw BusError.system(result, what()) }
    }

    var path: String? { sd_bus_message_get_path(pointer).map { String(cString: $0) } }

    func isSignal(_ interface: String, _ member: String) -> Bool {
        sd_bus_message_is_signal(pointer, interface, member) > 0
    }

    func readObjectPath() throws(BusError) -> String {
        var value: UnsafePointer<CChar>? = nil
        try check(sd_bus_message_read_basic(pointer, Self.code("o"), &value), "read an object path")
        guard let value else { throw BusError.system(-EBADMSG, "read an object path") }
        return String(cString: value)
    }

    /// A descriptor the message carries, duplicated close-on-exec: the
    /// message's own closes with the message.
    func readDescriptor() throws(BusError) -> FileDescriptor {
        var value: Int32 = -1
        try check(sd_bus_message_read_basic(pointer, Self.code("h"), &value), "read a descriptor")
        let copy = fcntl(value, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { throw BusError.system(-errno, "keep a descriptor") }
        return FileDescriptor(rawValue: copy)
    }

    /// Enters the next element of the array being read; false at its end.
    func enterNext(_ type: Character, _ contents: String) throws(BusError) -> Bool {
        let result = sd_bus_message_enter_container(pointer, Self.code(type), contents)
        try check(result, "enter \(type)\(contents)")
        return result > 0
    }

    /// Reads an `a{sv}` where the message stands, handing each key to
    /// `value`, which reads the variant that follows (`readVariant`) or
    /// leaves it, to be skipped.
    func readDictionary(_ value: (String, inout VariantReader) throws(BusError) -> Void) throws(BusError) {
        try enter("a", "{sv}")
        while try enterNext("e", "sv") {
            let key = try readString()
            var reader = VariantReader(message: self)
            try value(key, &reader)
            if !reader.wasRead { try skip("v") }
            try exit()
        }
        try exit()
    }

    /// Reads an `as` where the message stands.
    func readStrings() throws(BusError) -> [String] {
        try enter("a", "s")
        var strings: [String] = []
        while true {
            var value: UnsafePointer<CChar>? = nil
            let result = sd_bus_message_read_basic(pointer, Self.code("s"), &value)
            try check(result, "read an array of strings")
            guard result > 0, let value else { break }
            strings.append(String(cString: value))
        }
        try exit()
        return strings
    }
}

/// One variant of a dictionary, read once in the type its key promises;
/// another type is the sender's error, thrown.
struct VariantReader {
    let message: BusMessage
    private(set) var wasRead = false

    init(message: BusMessage) { self.message = message }

    mutating func bool() throws(BusError) -> Bool {
        try message.enter("v", "b")
        defer { wasRead = true }
        let value = try message.readBool()
        try message.exit()
        return value
    }

    mutating func string() throws(BusError) -> String {
        try message.enter("v", "s")
        defer { wasRead = true }
        let value = try message.readString()
        try message.exit()
        return value
    }

    /// An `(so)`: a name and an object path (seat0's `ActiveSession`).
    mutating func nameAndPath() throws(BusError) -> (String, String) {
        try message.enter("v", "(so)")
        defer { wasRead = true }
        try message.enter("r", "so")
        let name = try message.readString()
        let path = try message.readObjectPath()
        try message.exit()
        try message.exit()
        return (name, path)
    }
}
