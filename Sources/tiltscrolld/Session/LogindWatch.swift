import CSystemd
import Glibc
import TiltScrollCommon

/// logind (org.freedesktop.login1), followed on the daemon's own system-bus
/// connection, which the loop already drives: matches and asynchronous
/// calls only, dispatched inside `BusConnection.process`, never a call that
/// waits. What it learns becomes `LogindView`s the loop takes each round.
///
/// - Who logind is: its unique name, asked once (`GetNameOwner`) and then
///   followed (`NameOwnerChanged`), so that logind leaving and coming back
///   is seen, and so that a signal from anyone else is dropped: sd-bus
///   checks a well-known sender only on the bus's side, and any peer may
///   send the daemon a signal of its own making.
/// - seat0's active session: `ActiveSession`, read once and followed
///   through the seat's `PropertiesChanged`; the active session's `Class`,
///   `Active`, `LockedHint` and `IdleHint`, read (`GetAll`) and followed
///   through its own `PropertiesChanged`, a match that moves with the
///   session. A session's properties are published once read, so a switch
///   shows the new session whole, never half known. `Lock` and `Unlock`
///   are not followed: they ask the session's locker to lock, and
///   `LockedHint` says when it did.
/// - Sleep: `PrepareForSleep` (logind's `PreparingForSleep` property emits
///   no change, so the signal is all there is), and a `delay` inhibitor
///   for sleep, held while the daemon may have the sensor open; closed by
///   `allowSleep()` once the daemon let go of it, and taken again when the
///   machine is back (`PrepareForSleep(false)`).
///
/// Matches are installed before anything is read, and a bus delivers one
/// peer's messages in order: a signal that arrives before the answer to a
/// read is older than the answer, one after it newer.
final class LogindWatch: LogindSource {
    static let name = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"
    static let managerInterface = "org.freedesktop.login1.Manager"
    static let seatPath = "/org/freedesktop/login1/seat/seat0"
    static let seatInterface = "org.freedesktop.login1.Seat"
    static let sessionInterface = "org.freedesktop.login1.Session"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    /// logind answers at once; a logind that does not is as good as absent.
    static let callTimeoutMicroseconds: UInt64 = 10_000_000
    /// Views kept for the loop at most; older ones go first (a flood would
    /// be logind's fault, and the latest view is what counts).
    static let viewLimit = 32

    private let connection: BusConnection
    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The matches on logind's name, the manager's sleep signal and seat0.
    private var matches: [OpaquePointer] = []
    /// The match on the active session's properties, moved with it.
    private var sessionMatch: OpaquePointer?
    /// The calls in flight, by cookie: their slot (unref'd to cancel them
    /// on `close`) and what the answer is for.
    private var calls: [UInt64: (slot: OpaquePointer, purpose: Purpose)] = [:]
    /// Slots done with inside a callback, let go of by the loop: sd-bus may
    /// still be walking them when the callback returns.
    private var retired: [OpaquePointer] = []

    private enum Purpose {
        case owner
        /// seat0's `ActiveSession`, for logind as of `generation`.
        case seat(generation: Int)
        /// The properties of the session `path`, the `sessionGeneration`th followed.
        case session(generation: Int, id: String, path: String)
        case inhibit(generation: Int)
    }

    /// logind's unique name; nil while it is not on the bus (or not known yet).
    private var owner: String?
    /// Counts logind's comings and goings: answers for an earlier one are stale.
    private var generation = 0
    /// Counts the sessions followed: answers for an earlier one are stale.
    private var sessionGeneration = 0
    /// The active session followed, once its properties are asked for.
    private var followed: (id: String, path: String)?
    /// The view published last, and those the loop has not taken yet.
    private var view = LogindView.unknown
    private var pending: [LogindView] = []

    private var wantsInhibitor: Bool
    private var inhibitor: FileDescriptor?
    private var inhibitInFlight = false
    /// Said once per watch: logind absent at the start.
    private var saidAbsent = false

    private init(connection: BusConnection, holdingSleepInhibitor: Bool) {
        self.connection = connection
        wantsInhibitor = holdingSleepInhibitor
    }

    deinit { close() }

    /// Installs the matches and asks who logind is; the rest follows from the answers.
    static func start(on connection: BusConnection, holdingSleepInhibitor: Bool) throws(BusError) -> LogindWatch {
        let watch = LogindWatch(connection: connection, holdingSleepInhibitor: holdingSleepInhibitor)
        do throws(BusError) {
            try watch.begin()
        } catch {
            watch.close()
            throw error
        }
        return watch
    }

    private func begin() throws(BusError) {
        let ownerRule =
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(LogindWatch.name)'"
        matches.append(try addMatch(ownerRule))
        matches.append(
            try addSignalMatch(
                path: LogindWatch.managerPath, interface: LogindWatch.managerInterface, member: "PrepareForSleep"))
        matches.append(
            try addSignalMatch(
                path: LogindWatch.seatPath, interface: LogindWatch.propertiesInterface, member: "PropertiesChanged"))
        try send(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner", purpose: .owner
        ) { (call) throws(BusError) in try call.append(LogindWatch.name) }
    }

    // MARK: - The loop's side

    func takeViews() -> [LogindView] {
        releaseRetired()
        guard !pending.isEmpty else { return [] }
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    func allowSleep() {
        if let inhibitor {
            inhibitor.close()
            self.inhibitor = nil
            Log.debug("Sleep inhibitor closed: the sensor and the wheel are let go of")
        }
        // Back already (the two signals came in one round): hold the next sleep too.
        if !view.preparingForSleep { takeInhibitorIfWanted() }
    }

    func holdSleepInhibitor(_ wanted: Bool) {
        wantsInhibitor = wanted
        if wanted {
            if !view.preparingForSleep { takeInhibitorIfWanted() }
        } else if let inhibitor {
            inhibitor.close()
            self.inhibitor = nil
        }
    }

    func close() {
        for slot in matches { sd_bus_slot_unref(slot) }
        matches.removeAll()
        if let sessionMatch { sd_bus_slot_unref(sessionMatch) }
        sessionMatch = nil
        for call in calls.values { sd_bus_slot_unref(call.slot) }
        calls.removeAll()
        releaseRetired()
        inhibitor?.close()
        inhibitor = nil
        inhibitInFlight = false
        connection.refreshWaitState()
    }

    private func releaseRetired() {
        for slot in retired { sd_bus_slot_unref(slot) }
        retired.removeAll()
    }

    // MARK: - What changes the view

    private func publish(_ new: LogindView) {
        guard new != view else { return }
        view = new
        if pending.count >= LogindWatch.viewLimit { pending.removeFirst() }
        pending.append(new)
    }

    private func ownerAppeared(_ unique: String) {
        let returning = generation > 0
        owner = unique
        generation += 1
        if returning || saidAbsent {
            Log.notice("logind came onto the system bus: following the session and sleep")
        } else {
            Log.debug("Following logind: seat0's active session and sleep")
        }
        readSeat()
        takeInhibitorIfWanted()
    }

    private func ownerVanished() {
        guard owner != nil else { return }
        owner = nil
        generation += 1
        followed = nil
        retireSessionMatch()
        inhibitor?.close()
        inhibitor = nil
        inhibitInFlight = false
        publish(.unknown)
        Log.notice(
            "logind left the system bus: the session and sleep are not followed until it returns; "
                + "scrolling follows the switch and [Activation] alone")
    }

    private func absent(_ error: BusError) {
        guard !saidAbsent else { return }
        saidAbsent = true
        Log.notice(
            "logind is not on the system bus (\(error.said)): the session (locked, idle, nobody there) and "
                + "sleep are not followed; scrolling follows the switch and [Activation] alone")
    }

    private func readSeat() {
        let asked = generation
        sendLogged(
            destination: LogindWatch.name, path: LogindWatch.seatPath, interface: LogindWatch.propertiesInterface,
            member: "Get", purpose: .seat(generation: asked)
        ) { (call) throws(BusError) in
            try call.append(LogindWatch.seatInterface)
            try call.append("ActiveSession")
        }
    }

    /// seat0's active session is `id` at `path` ("" and "/" when none).
    private func activeSession(id: String, path: String) {
        guard !id.isEmpty, path != "/" else {
            followed = nil
            sessionGeneration += 1
            retireSessionMatch()
            publish(LogindView(isKnown: true, session: nil, preparingForSleep: view.preparingForSleep))
            return
        }
        if let followed, followed.path == path { return }
        followed = (id, path)
        sessionGeneration += 1
        retireSessionMatch()
        do throws(BusError) {
            sessionMatch = try addSignalMatch(
                path: path, interface: LogindWatch.propertiesInterface, member: "PropertiesChanged")
        } catch {
            Log.warning("Cannot follow session \(id): \(error.said)")
        }
        readSession(id: id, path: path)
    }

    private func readSession(id: String, path: String) {
        let asked = sessionGeneration
        sendLogged(
            destination: LogindWatch.name, path: path, interface: LogindWatch.propertiesInterface, member: "GetAll",
            purpose: .session(generation: asked, id: id, path: path)
        ) { (call) throws(BusError) in try call.append(LogindWatch.sessionInterface) }
    }

    private func retireSessionMatch() {
        if let sessionMatch { retired.append(sessionMatch) }
        sessionMatch = nil
    }

    private func takeInhibitorIfWanted() {
        guard wantsInhibitor, owner != nil, inhibitor == nil, !inhibitInFlight else { return }
        inhibitInFlight = true
        let asked = generation
        sendLogged(
            destination: LogindWatch.name, path: LogindWatch.managerPath, interface: LogindWatch.managerInterface,
            member: "Inhibit", purpose: .inhibit(generation: asked)
        ) { (call) throws(BusError) in
            try call.append("sleep")
            try call.append("tiltscrolld")
            try call.append("Let go of the accelerometer and remove the virtual wheel before sleep")
            try call.append("delay")
        }
    }

    // MARK: - Answers

    private func answered(_ reply: BusMessage) {
        guard let cookie = reply.replyCookie, let call = calls.removeValue(forKey: cookie) else { return }
        retired.append(call.slot)
        switch call.purpose {
        case .owner:
            if let error = reply.error {
                absent(error)
            } else if let unique = try? reply.readString() {
                ownerAppeared(unique)
            }
        case .seat(let asked):
            guard asked == generation else { return }
            do throws(BusError) {
                if let error = reply.error { throw error }
                try reply.enter("v", "(so)")
                try reply.enter("r", "so")
                let id = try reply.readString()
                let path = try reply.readObjectPath()
                activeSession(id: id, path: path)
            } catch {
                Log.notice(
                    "Cannot read seat0's active session from logind (\(error.said)); until logind announces one, "
                        + "nothing of it pauses scrolling")
                publish(.unknown)
            }
        case .session(let asked, let id, _):
            guard asked == sessionGeneration else { return }
            do throws(BusError) {
                if let error = reply.error { throw error }
                var session = SeatSession(id: id, sessionClass: "", isActive: false, isLocked: false, isIdle: false)
                try reply.readDictionary { (key, value) throws(BusError) in
                    try LogindWatch.apply(key, &value, to: &session)
                }
                publish(LogindView(isKnown: true, session: session, preparingForSleep: view.preparingForSleep))
            } catch {
                // Gone between the seat's answer and this one: nobody reads
                // in it. Announced again, it is read again.
                Log.debug("Cannot read session \(id): \(error.said)")
                followed = nil
                publish(LogindView(isKnown: true, session: nil, preparingForSleep: view.preparingForSleep))
            }
        case .inhibit(let asked):
            let current = asked == generation
            if current { inhibitInFlight = false }
            if let error = reply.error {
                if current {
                    Log.notice(
                        "logind refused a sleep inhibitor (\(error.said)): sleep does not wait for the sensor "
                            + "to be let go of")
                }
                return
            }
            guard let descriptor = try? reply.readDescriptor() else { return }
            guard current, wantsInhibitor, inhibitor == nil else {
                descriptor.close()
                return
            }
            inhibitor = descriptor
            Log.debug("Holding a sleep delay inhibitor")
        }
    }

    /// One property of a session, from `GetAll` or `PropertiesChanged`.
    private static func apply(_ key: String, _ value: inout VariantReader, to session: inout SeatSession)
        throws(BusError)
    {
        switch key {
        case "Class": session.sessionClass = try value.string()
        case "Active": session.isActive = try value.bool()
        case "LockedHint": session.isLocked = try value.bool()
        case "IdleHint": session.isIdle = try value.bool()
        default: break
        }
    }

    // MARK: - Signals

    private func signalled(_ message: BusMessage) {
        if message.isSignal("org.freedesktop.DBus", "NameOwnerChanged") {
            guard message.sender == "org.freedesktop.DBus" else { return }
            ownerChanged(message)
            return
        }
        guard let owner, message.sender == owner else { return }
        if message.isSignal(LogindWatch.managerInterface, "PrepareForSleep") {
            guard message.path == LogindWatch.managerPath, let sleeping = try? message.readBool() else { return }
            var new = view
            new.preparingForSleep = sleeping
            publish(new)
            Log.info(sleeping ? "The machine is going to sleep" : "The machine is back from sleep")
            if !sleeping { takeInhibitorIfWanted() }
        } else if message.isSignal(LogindWatch.propertiesInterface, "PropertiesChanged") {
            if message.path == LogindWatch.seatPath {
                seatChanged(message)
            } else if let followed, message.path == followed.path {
                sessionChanged(message, followed)
            }
        }
    }

    private func ownerChanged(_ message: BusMessage) {
        guard let name = try? message.readString(), name == LogindWatch.name, (try? message.readString()) != nil,
            let new = try? message.readString()
        else { return }
        if new.isEmpty {
            ownerVanished()
        } else if new != owner {
            if owner != nil { ownerVanished() }
            ownerAppeared(new)
        }
    }

    private func seatChanged(_ message: BusMessage) {
        do throws(BusError) {
            guard try message.readString() == LogindWatch.seatInterface else { return }
            var active: (String, String)?
            try message.readDictionary { (key, value) throws(BusError) in
                if key == "ActiveSession" { active = try value.nameAndPath() }
            }
            let invalidated = try message.readStrings()
            if let (id, path) = active {
                activeSession(id: id, path: path)
            } else if invalidated.contains("ActiveSession") {
                readSeat()
            }
        } catch {
            Log.debug("Ignoring a malformed PropertiesChanged of seat0: \(error.said)")
        }
    }

    private func sessionChanged(_ message: BusMessage, _ followed: (id: String, path: String)) {
        // Before its properties were read the answer is newer than this.
        guard var session = view.session, session.id == followed.id else { return }
        do throws(BusError) {
            guard try message.readString() == LogindWatch.sessionInterface else { return }
            try message.readDictionary { (key, value) throws(BusError) in
                try LogindWatch.apply(key, &value, to: &session)
            }
            let invalidated = try message.readStrings()
            if invalidated.contains(where: { ["Class", "Active", "LockedHint", "IdleHint"].contains($0) }) {
                readSession(id: followed.id, path: followed.path)
                return
            }
            var new = view
            new.session = session
            publish(new)
        } catch {
            Log.debug("Ignoring a malformed PropertiesChanged of session \(followed.id): \(error.said)")
        }
    }

    // MARK: - sd-bus

    private static func watch(_ userdata: UnsafeMutableRawPointer?) -> LogindWatch? {
        userdata.map { Unmanaged<LogindWatch>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let signalCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let watch = watch(userdata), let message else { return 0 }
        watch.signalled(BusMessage(message))
        return 0
    }

    private static let replyCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let watch = watch(userdata), let message else { return 0 }
        watch.answered(BusMessage(message))
        return 1
    }

    /// The bus's answer to `AddMatch`. Without a match the view would go
    /// stale: the watch then says so and follows nothing.
    private static let installCallback: sd_bus_message_handler_t = { message, userdata, _ in
        guard let watch = watch(userdata), let message, let error = BusMessage(message).error else { return 0 }
        watch.matchRefused(error)
        return 0
    }

    private func matchRefused(_ error: BusError) {
        Log.warning(
            "The system bus refused to pass on logind's signals (\(error.said)); the session is not followed")
        owner = nil
        generation += 1
        followed = nil
        retireSessionMatch()
        retired.append(contentsOf: matches)
        matches.removeAll()
        inhibitor?.close()
        inhibitor = nil
        publish(.unknown)
    }

    private func addMatch(_ rule: String) throws(BusError) -> OpaquePointer {
        guard let bus = connection.bus else { throw BusError.system(-ENOTCONN, "follow logind") }
        var slot: OpaquePointer? = nil
        let result = sd_bus_add_match_async(
            bus, &slot, rule, LogindWatch.signalCallback, LogindWatch.installCallback, userdata)
        connection.refreshWaitState()
        guard result >= 0, let slot else { throw BusError.system(result, "follow logind's name") }
        return slot
    }

    private func addSignalMatch(path: String, interface: String, member: String) throws(BusError) -> OpaquePointer {
        guard let bus = connection.bus else { throw BusError.system(-ENOTCONN, "follow logind") }
        var slot: OpaquePointer? = nil
        let result = sd_bus_match_signal_async(
            bus, &slot, LogindWatch.name, path, interface, member, LogindWatch.signalCallback,
            LogindWatch.installCallback, userdata)
        connection.refreshWaitState()
        guard result >= 0, let slot else { throw BusError.system(result, "follow \(member) of \(path)") }
        return slot
    }

    /// Sends a call whose answer comes to `answered`, keeping its slot.
    private func send(
        destination: String, path: String, interface: String, member: String, purpose: Purpose,
        _ arguments: (BusMessage) throws(BusError) -> Void
    ) throws(BusError) {
        guard let bus = connection.bus else { throw BusError.system(-ENOTCONN, "call logind") }
        let call = try connection.methodCall(destination: destination, path: path, interface: interface, member: member)
        defer { sd_bus_message_unref(call.pointer) }
        try arguments(call)
        var slot: OpaquePointer? = nil
        let result = sd_bus_call_async(
            bus, &slot, call.pointer, LogindWatch.replyCallback, userdata, LogindWatch.callTimeoutMicroseconds)
        connection.refreshWaitState()
        guard result >= 0, let slot else { throw BusError.system(result, "call \(member)") }
        var cookie: UInt64 = 0
        let known = sd_bus_message_get_cookie(call.pointer, &cookie)
        guard known >= 0 else {
            sd_bus_slot_unref(slot)
            throw BusError.system(known, "the cookie of a call")
        }
        calls[cookie] = (slot, purpose)
    }

    /// `send`, a failure said (the connection is going; the loop finds out).
    private func sendLogged(
        destination: String, path: String, interface: String, member: String, purpose: Purpose,
        _ arguments: (BusMessage) throws(BusError) -> Void
    ) {
        do throws(BusError) {
            try send(
                destination: destination, path: path, interface: interface, member: member, purpose: purpose,
                arguments)
        } catch {
            if case .inhibit = purpose { inhibitInFlight = false }
            Log.debug("Cannot ask logind (\(member)): \(error.said)")
        }
    }
}

extension BusError {
    /// The message on one line, for the log: bus peers end theirs with a
    /// newline at times (dbus-python does).
    var said: String {
        message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
