import CSystemd
import Glibc

/// A message of sd-bus, read and written through the non-variadic calls
/// (`sd_bus_message_read_basic`, `_append_basic`, containers), which Swift
/// can call. Borrowed: the owner keeps the reference.
public struct BusMessage {
    public let pointer: OpaquePointer

    public init(_ pointer: OpaquePointer) { self.pointer = pointer }

    private static func type(_ code: Character) -> CChar { CChar(bitPattern: code.asciiValue!) }

    private func check(_ result: Int32, _ what: @autoclosure () -> String) throws(BusError) {
        if result < 0 { throw BusError.system(result, what()) }
    }

    // MARK: - Header

    public var sender: String? { sd_bus_message_get_sender(pointer).map { String(cString: $0) } }
    public var interface: String? { sd_bus_message_get_interface(pointer).map { String(cString: $0) } }
    public var member: String? { sd_bus_message_get_member(pointer).map { String(cString: $0) } }

    public func isMethodCall(_ interface: String, _ member: String) -> Bool {
        sd_bus_message_is_method_call(pointer, interface, member) > 0
    }

    /// The error of an error reply; nil for a method return.
    public var error: BusError? { BusError.from(sd_bus_message_get_error(pointer)) }

    /// The cookie of the call a reply answers.
    public var replyCookie: UInt64? {
        var cookie: UInt64 = 0
        return sd_bus_message_get_reply_cookie(pointer, &cookie) >= 0 ? cookie : nil
    }

    // MARK: - Reading

    public func readString() throws(BusError) -> String {
        String(cString: try readCString())
    }

    /// A string argument where the message holds it, valid while the message is.
    public func readCString() throws(BusError) -> UnsafePointer<CChar> {
        var value: UnsafePointer<CChar>? = nil
        try check(sd_bus_message_read_basic(pointer, Self.type("s"), &value), "read a string")
        guard let value else { throw BusError.system(-EBADMSG, "read a string") }
        return value
    }

    public func readBool() throws(BusError) -> Bool {
        // D-Bus booleans are 32-bit on the wire and in sd-bus.
        var value: Int32 = 0
        try check(sd_bus_message_read_basic(pointer, Self.type("b"), &value), "read a boolean")
        return value != 0
    }

    public func readUInt32() throws(BusError) -> UInt32 {
        var value: UInt32 = 0
        try check(sd_bus_message_read_basic(pointer, Self.type("u"), &value), "read an unsigned integer")
        return value
    }

    public func readDouble() throws(BusError) -> Double {
        var value = 0.0
        try check(sd_bus_message_read_basic(pointer, Self.type("d"), &value), "read a double")
        return value
    }

    public func enter(_ type: Character, _ contents: String) throws(BusError) {
        try check(sd_bus_message_enter_container(pointer, Self.type(type), contents), "enter \(type)\(contents)")
    }

    public func exit() throws(BusError) {
        try check(sd_bus_message_exit_container(pointer), "leave a container")
    }

    public func skip(_ types: String) throws(BusError) {
        try check(sd_bus_message_skip(pointer, types), "skip \(types)")
    }

    // MARK: - Writing

    public func append(_ value: String) throws(BusError) {
        try check(value.withCString { sd_bus_message_append_basic(pointer, Self.type("s"), $0) }, "append a string")
    }

    public func append(_ value: Bool) throws(BusError) {
        var wire: Int32 = value ? 1 : 0
        try check(sd_bus_message_append_basic(pointer, Self.type("b"), &wire), "append a boolean")
    }

    public func append(_ value: UInt32) throws(BusError) {
        var wire = value
        try check(sd_bus_message_append_basic(pointer, Self.type("u"), &wire), "append an unsigned integer")
    }

    public func append(_ value: Double) throws(BusError) {
        var wire = value
        try check(sd_bus_message_append_basic(pointer, Self.type("d"), &wire), "append a double")
    }

    public func open(_ type: Character, _ contents: String) throws(BusError) {
        try check(sd_bus_message_open_container(pointer, Self.type(type), contents), "open \(type)\(contents)")
    }

    public func close() throws(BusError) {
        try check(sd_bus_message_close_container(pointer), "close a container")
    }
}
