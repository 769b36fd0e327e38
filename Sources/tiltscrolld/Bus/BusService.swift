import CSdBus
import CSystemd
import Glibc
import TiltScrollCommon

/// io.github.tiltscroll.TiltScroll1 on the system bus: the properties, the
/// `Calibrate()` and `Monitor()` methods, and the polkit check of every change.
///
/// Every member a caller may use is `SD_BUS_VTABLE_UNPRIVILEGED`: without it
/// sd-bus refuses callers lacking CAP_SYS_ADMIN, and to find out it may ask
/// the bus driver synchronously. The check is the daemon's own, and
/// asynchronous: an object callback on the same path sees each message
/// before the vtable does. A change (writing `Enabled` or `Sensitivity`,
/// calling `Calibrate`) is held there, the caller's uid is asked of the bus
/// driver and, unless it is 0, polkit is asked (`CheckAuthorization`,
/// subject `system-bus-name`, never interactive). A granted change is put
/// back in sd-bus's read queue (`sd_bus_enqueue_for_read`); seen again, it
/// passes to the vtable, whose callbacks queue it as a `ControlRequest`
/// for the loop to apply once `process` returns. A refused one is answered
/// with the error. This route, and not a check in the property setter,
/// because sd-bus sends the reply to `Properties.Set` itself as soon as the
/// setter returns, leaving no way to answer later. Meanwhile the loop goes
/// on: nothing here waits, and nothing here changes the daemon.
///
/// The getters answer from the snapshot the daemon published last
/// (`publish`), which is also what `PropertiesChanged` is computed from.
final class BusService {

    let connection: BusConnection
    /// What the getters answer from, and `PropertiesChanged` compares against.
    private(set) var snapshot: DaemonSnapshot
    /// What callers asked for during the current `process`, for the loop.
    private var requests: [ControlRequest] = []
    /// Whether the bus gave the daemon its name; nil until it answered.
    private(set) var ownsName: Bool?

    private var vtable: UnsafeMutablePointer<sd_bus_vtable>?
    private var vtableCount = 0
    private var slots: [OpaquePointer] = []

    /// A change waiting for its authorization; holds a reference to the message.
    private struct PendingChange {
        let message: OpaquePointer
        let action: BusAction
        let sender: String
        /// Known once the bus driver answered.
        var uid: UInt32?
    }

    private var queue = AuthorizationQueue()
    private var pending: [Int: PendingChange] = [:]
    /// The daemon's calls in flight (to the bus driver, to polkit): cookie -> change.
    private var calls: [UInt64: Int] = [:]
    /// Granted changes put back in the read queue, with a reference each, until seen again.
    private var granted: [(message: OpaquePointer, caller: BusCaller)] = []
    /// The caller of the granted change the vtable is handling now.
    private var currentCaller: BusCaller?
    /// The uids of callers asked before. The bus never gives a unique name to
    /// a second connection while it runs, so an answer stays true for as
    /// long as this connection does; bounded, forgotten when full.
    private var uids: [String: UInt32] = [:]
    static let uidCacheLimit = 256
    /// The polkit checks in flight, per caller and action, with the changes
    /// that wait on each besides the one it was asked for. polkitd answers
    /// one check after another: a caller's changes of one kind (a slider's
    /// writes, a flood of them) share one check, so that polkitd is not
    /// queued up past the daemon's timeout (seen under load: 8 of 350
    /// granted writes refused as PolkitUnavailable) and does the work once.
    private var polkitChecks: [PolkitQuestion: [Int]] = [:]

    private struct PolkitQuestion: Hashable {
        let sender: String
        let action: BusAction
    }

    private init(connection: BusConnection, snapshot: DaemonSnapshot) {
        self.connection = connection
        self.snapshot = snapshot
    }

    deinit { close() }

    /// Registers the object on `connection` and asks for the name (the
    /// answer arrives in `process()`).
    static func start(on connection: BusConnection, snapshot: DaemonSnapshot) throws(BusError) -> BusService {
        let service = BusService(connection: connection, snapshot: snapshot)
        try service.register()
        return service
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func register() throws(BusError) {
        guard let bus = connection.bus else { throw BusError.system(-ENOTCONN, "register") }
        let entries = BusService.makeVTable()
        let table = UnsafeMutablePointer<sd_bus_vtable>.allocate(capacity: entries.count)
        table.initialize(from: entries, count: entries.count)
        vtable = table
        vtableCount = entries.count

        var slot: OpaquePointer? = nil
        var result = sd_bus_add_object_vtable(bus, &slot, BusInterface.path, BusInterface.interface, table, userdata)
        guard result >= 0, let vtableSlot = slot else { throw BusError.system(result, "register the vtable") }
        slots.append(vtableSlot)
        result = sd_bus_add_object(bus, &slot, BusInterface.path, BusService.interceptCallback, userdata)
        guard result >= 0, let objectSlot = slot else { throw BusError.system(result, "register the object") }
        slots.append(objectSlot)
        result = sd_bus_request_name_async(bus, &slot, BusInterface.name, 0, BusService.nameCallback, userdata)
        guard result >= 0, let nameSlot = slot else { throw BusError.system(result, "ask for \(BusInterface.name)") }
        slots.append(nameSlot)
        connection.refreshWaitState()
    }

    /// Lets go of the name, the object and every change still waiting, and
    /// closes the connection. Callers still waiting get an error from the bus.
    func close() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots.removeAll()
        for change in pending.values { sd_bus_message_unref(change.message) }
        pending.removeAll()
        for grant in granted { sd_bus_message_unref(grant.message) }
        granted.removeAll()
        calls.removeAll()
        polkitChecks.removeAll()
        queue = AuthorizationQueue()
        connection.close()
        if let vtable {
            vtable.deinitialize(count: vtableCount)
            vtable.deallocate()
            self.vtable = nil
        }
    }

    // MARK: - The loop's side

    /// Dispatches what arrived (`BusConnection.process`), returning what
    /// callers asked for. It stops after the first request, so that the
    /// loop applies it before a later message (a `Get` after a `Set`) is
    /// answered.
    func process(into requests: inout [ControlRequest]) throws(BusError) {
        defer {
            requests.append(contentsOf: self.requests)
            self.requests.removeAll(keepingCapacity: true)
        }
        try connection.process(stoppingWhen: { !self.requests.isEmpty })
    }

    /// Makes `new` the published snapshot and emits one `PropertiesChanged`
    /// naming the members that changed; nothing when none did.
    func publish(_ new: DaemonSnapshot) {
        let changed = BusProperty.changes(from: snapshot, to: new)
        snapshot = new
        guard !changed.isEmpty, let bus = connection.bus else { return }
        var names: [UnsafeMutablePointer<CChar>?] = changed.map { UnsafeMutablePointer(mutating: $0.cName) } + [nil]
        let result = names.withUnsafeMutableBufferPointer {
            sd_bus_emit_properties_changed_strv(bus, BusInterface.path, BusInterface.interface, $0.baseAddress)
        }
        connection.refreshWaitState()
        if result < 0 { Log.debug("Cannot emit PropertiesChanged: \(Errno(rawValue: -result).description)") }
    }

    // MARK: - The vtable

    private static func makeVTable() -> [sd_bus_vtable] {
        let emitsChange = UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
        // Read-only properties must not carry UNPRIVILEGED (sd-bus refuses
        // the vtable): reading needs no privilege anyway.
        let callable = UInt64(SD_BUS_VTABLE_UNPRIVILEGED)
        var entries = [CSdBus_vtable_start(0)]
        for property in BusProperty.all {
            let member = cString(property.member)
            let signature = cString(property.signature)
            if property.isWritable {
                entries.append(
                    CSdBus_vtable_writable_property(
                        member, signature, getCallback, setCallback, emitsChange | callable))
            } else {
                let flags = property.isConstant ? UInt64(SD_BUS_VTABLE_PROPERTY_CONST) : emitsChange
                entries.append(CSdBus_vtable_property(member, signature, getCallback, flags))
            }
        }
        entries.append(
            CSdBus_vtable_method(cString("Calibrate"), cString(""), cString(""), calibrateCallback, callable))
        entries.append(
            CSdBus_vtable_method(cString("Monitor"), cString(""), cString("h"), monitorCallback, callable))
        entries.append(CSdBus_vtable_end())
        return entries
    }

    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    private static func service(_ userdata: UnsafeMutableRawPointer?) -> BusService? {
        userdata.map { Unmanaged<BusService>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let getCallback: sd_bus_property_get_t = { _, _, _, property, reply, userdata, error in
        guard let service = service(userdata), let property, let reply,
            let which = BusProperty.named(cString: property)
        else { return -ENOENT }
        do throws(BusError) {
            try service.append(which, to: BusMessage(reply))
            return 1
        } catch let failure {
            return failure.fill(error)
        }
    }

    private static let setCallback: sd_bus_property_set_t = { _, _, _, property, value, userdata, error in
        guard let service = service(userdata), let property, let value,
            let which = BusProperty.named(cString: property)
        else { return -ENOENT }
        do throws(BusError) {
            try service.set(which, from: BusMessage(value))
            return 1
        } catch let failure {
            return failure.fill(error)
        }
    }

    private static let calibrateCallback: sd_bus_message_handler_t = { message, userdata, error in
        guard let service = service(userdata), let message else { return -EINVAL }
        do throws(BusError) {
            let caller = try service.authorizedCaller()
            // Answered by the loop once it has tried (`BusCallReply`).
            service.requests.append(
                .calibrate(by: "over D-Bus by \(caller)", reply: BusCallReply(message, connection: service.connection)))
            return 1
        } catch let failure {
            return failure.fill(error)
        }
    }

    private static let monitorCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let service = service(userdata), let message else { return -EINVAL }
        let sender = BusMessage(message).sender ?? "?"
        service.requests.append(
            .watch(by: "over D-Bus by \(sender)", reply: BusCallReply(message, connection: service.connection)))
        return 1
    }

    private static let interceptCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let service = service(userdata), let message else { return 0 }
        return service.intercept(BusMessage(message))
    }

    private static let replyCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let service = service(userdata), let message else { return 0 }
        service.received(BusMessage(message))
        return 1
    }

    private static let nameCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let service = service(userdata), let message else { return 0 }
        service.nameAnswered(BusMessage(message))
        return 1
    }

    // MARK: - Members

    private func append(_ property: BusProperty, to reply: BusMessage) throws(BusError) {
        try property.read(snapshot).append(to: reply)
    }

    /// The caller of the change now handled; every change reaches here only
    /// through `intercept`, which sets it.
    private func authorizedCaller() throws(BusError) -> BusCaller {
        guard let caller = currentCaller else {
            throw BusError(name: BusError.accessDenied, message: "The change was not authorized")
        }
        return caller
    }

    /// A granted write: checked here, applied by the loop after `process`.
    /// sd-bus answers the caller when this returns.
    private func set(_ property: BusProperty, from value: BusMessage) throws(BusError) {
        let caller = try authorizedCaller()
        guard let writable = property.writable else {
            throw BusError(name: BusError.invalidArguments, message: "\(property.name) is read-only")
        }
        let change = try writable.change(BusValue.read(property.signature.description, from: value))
        requests.append(.change(change, by: "over D-Bus by \(caller)"))
    }

    // MARK: - The authorization of changes

    /// The change a message asks for, or nil when it asks for none (reads,
    /// introspection, unknown members: sd-bus answers those). The arguments
    /// are compared where sd-bus holds them, not copied: a caller may send
    /// names of megabytes.
    private func action(of message: BusMessage) -> BusAction? {
        if message.isMethodCall(BusInterface.interface, "Calibrate") { return .calibrate }
        guard message.isMethodCall("org.freedesktop.DBus.Properties", "Set"),
            let interface = try? message.readCString(), strcmp(interface, BusInterface.interface) == 0,
            let member = try? message.readCString()
        else { return nil }
        return BusProperty.named(cString: member)?.writable?.action
    }

    /// Sees every message to the object first: 0 lets sd-bus go on to the
    /// vtable, 1 means it is held here (or answered).
    private func intercept(_ message: BusMessage) -> Int32 {
        currentCaller = nil
        guard let action = action(of: message) else { return 0 }
        if let index = granted.firstIndex(where: { $0.message == message.pointer }) {
            let grant = granted.remove(at: index)
            currentCaller = grant.caller
            sd_bus_message_unref(grant.message)
            return 0
        }
        guard let sender = message.sender else {
            reply(
                to: message.pointer,
                BusError(name: BusError.accessDenied, message: "A change needs a sender to authorize"))
            return 1
        }
        guard let id = queue.admit(sender: sender) else {
            reply(
                to: message.pointer,
                BusError(
                    name: BusError.limitsExceeded,
                    message: "Too many changes waiting for authorization; try again when they are answered"))
            return 1
        }
        pending[id] = PendingChange(message: sd_bus_message_ref(message.pointer), action: action, sender: sender)
        if let uid = uids[sender] {
            identified(id, uid: uid)
            return 1
        }
        do throws(BusError) {
            try askWhoIs(sender, for: id)
        } catch let failure {
            decide(id, PolkitAnswer.verdict(unknownCaller: sender, error: failure, action: action))
        }
        return 1
    }

    private func askWhoIs(_ sender: String, for id: Int) throws(BusError) {
        let call = try connection.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixUser")
        defer { sd_bus_message_unref(call.pointer) }
        try call.append(sender)
        let cookie = try connection.callAsync(
            call, timeoutMicroseconds: PolkitAnswer.timeoutMicroseconds, userdata: userdata,
            callback: BusService.replyCallback)
        calls[cookie] = id
    }

    private func askPolkit(_ change: PendingChange, caller: BusCaller, for id: Int) throws(BusError) {
        let call = try connection.methodCall(
            destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
            interface: "org.freedesktop.PolicyKit1.Authority", member: "CheckAuthorization")
        defer { sd_bus_message_unref(call.pointer) }
        // (sa{sv}) subject, s action, a{ss} details, u flags, s cancellation id.
        try call.open("r", "sa{sv}")
        try call.append("system-bus-name")
        try call.open("a", "{sv}")
        try call.open("e", "sv")
        try call.append("name")
        try call.open("v", "s")
        try call.append(caller.sender)
        try call.close()
        try call.close()
        try call.close()
        try call.close()
        try call.append(change.action.polkitAction)
        try call.open("a", "{ss}")
        try call.close()
        try call.append(UInt32(0))  // not interactive
        try call.append("")
        let cookie = try connection.callAsync(
            call, timeoutMicroseconds: PolkitAnswer.timeoutMicroseconds, userdata: userdata,
            callback: BusService.replyCallback)
        calls[cookie] = id
    }

    /// A reply to one of the daemon's calls: the caller's uid, or polkit's answer.
    private func received(_ reply: BusMessage) {
        guard let cookie = reply.replyCookie, let id = calls.removeValue(forKey: cookie), let change = pending[id]
        else { return }
        guard let uid = change.uid else {
            if let error = reply.error {
                decide(id, PolkitAnswer.verdict(unknownCaller: change.sender, error: error, action: change.action))
                return
            }
            do throws(BusError) {
                let uid = try reply.readUInt32()
                if uids.count >= BusService.uidCacheLimit { uids.removeAll(keepingCapacity: true) }
                uids[change.sender] = uid
                identified(id, uid: uid)
            } catch let failure {
                decide(id, PolkitAnswer.verdict(unknownCaller: change.sender, error: failure, action: change.action))
            }
            return
        }
        let caller = BusCaller(sender: change.sender, uid: uid)
        let verdict: AuthorizationVerdict
        if let error = reply.error {
            verdict = PolkitAnswer.verdict(callFailed: error, action: change.action, caller: caller)
        } else {
            do throws(BusError) {
                try reply.enter("r", "bba{ss}")
                let authorized = try reply.readBool()
                let challenge = try reply.readBool()
                verdict = PolkitAnswer.verdict(
                    authorized: authorized, challenge: challenge, action: change.action, caller: caller)
            } catch let failure {
                verdict = PolkitAnswer.verdict(callFailed: failure, action: change.action, caller: caller)
            }
        }
        let waiting = polkitChecks.removeValue(forKey: PolkitQuestion(sender: change.sender, action: change.action))
        decide(id, verdict)
        for other in waiting ?? [] { decide(other, verdict) }
    }

    /// The caller of change `id` runs as `uid`: root may, anyone else polkit decides.
    private func identified(_ id: Int, uid: UInt32) {
        guard var change = pending[id] else { return }
        change.uid = uid
        pending[id] = change
        let caller = BusCaller(sender: change.sender, uid: uid)
        if uid == 0 {
            decide(id, .granted(caller))
            return
        }
        let question = PolkitQuestion(sender: change.sender, action: change.action)
        if polkitChecks[question] != nil {
            polkitChecks[question]?.append(id)
            return
        }
        do throws(BusError) {
            try askPolkit(change, caller: caller, for: id)
            polkitChecks[question] = []
        } catch let failure {
            decide(id, PolkitAnswer.verdict(callFailed: failure, action: change.action, caller: caller))
        }
    }

    /// Records a verdict and acts on every change it releases, in order.
    private func decide(_ id: Int, _ verdict: AuthorizationVerdict) {
        for entry in queue.decide(id, verdict) {
            guard let change = pending.removeValue(forKey: entry.id), let verdict = entry.verdict else { continue }
            switch verdict {
            case .granted(let caller):
                let result = connection.bus.map { sd_bus_enqueue_for_read($0, change.message) } ?? -ENOTCONN
                if result >= 0 {
                    granted.append((change.message, caller))
                } else {
                    reply(to: change.message, BusError.system(result, "dispatch the change"))
                    sd_bus_message_unref(change.message)
                }
            case .refused(let error):
                Log.debug("Refused \(change.action.polkitAction) to \(change.sender): \(error.message)")
                reply(to: change.message, error)
                sd_bus_message_unref(change.message)
            }
        }
    }

    private func reply(to call: OpaquePointer, _ error: BusError) {
        var wire = sd_bus_error()
        defer { sd_bus_error_free(&wire) }
        _ = error.fill(&wire)
        let result = sd_bus_reply_method_error(call, &wire)
        if result < 0 { Log.debug("Cannot answer a call: \(Errno(rawValue: -result).description)") }
    }

    // MARK: - The name

    private func nameAnswered(_ reply: BusMessage) {
        if let error = reply.error {
            ownsName = false
            Log.warning(
                "Cannot own \(BusInterface.name) on the system bus: \(error.message); the D-Bus interface is off "
                    + "(is dbus/\(BusInterface.name).conf installed? is another tiltscrolld running?)")
            return
        }
        // RequestName's answer: 1 primary owner, 2 queued, 3 exists, 4 already the owner.
        let answer = (try? reply.readUInt32()) ?? 0
        ownsName = answer == 1 || answer == 4
        if ownsName == true {
            Log.debug("Serving \(BusInterface.name) on the system bus")
        } else {
            Log.warning("\(BusInterface.name) is owned by another process; the D-Bus interface is off")
        }
    }
}
