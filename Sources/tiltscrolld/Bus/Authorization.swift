import TiltScrollCommon

/// Who sent a change: the unique bus name and the user it runs as.
struct BusCaller: Equatable, CustomStringConvertible {
    var sender: String
    var uid: UInt32

    var description: String { "uid \(uid) (\(sender))" }
}

/// What the check of one change decided.
enum AuthorizationVerdict: Equatable {
    case granted(BusCaller)
    /// Refused, with the error the caller gets.
    case refused(BusError)
}

/// Turns what polkit answered into a verdict. Pure, so the wording and the
/// classification are tested without a polkitd.
enum PolkitAnswer {
    /// How long polkit may take to answer before the change is refused.
    /// Well below the 25 s clients such as GNOME Shell wait for the daemon.
    static let timeoutMicroseconds: UInt64 = 10_000_000

    /// `CheckAuthorization` answered `(authorized, challenge, details)`.
    static func verdict(authorized: Bool, challenge: Bool, action: BusAction, caller: BusCaller) -> AuthorizationVerdict
    {
        if authorized { return .granted(caller) }
        let why =
            challenge
            ? "it needs authentication, and tiltscrolld never asks for it"
            : "it is granted to the active local session, or by a polkit rule"
        return .refused(
            BusError(
                name: BusError.accessDenied,
                message:
                    "Not authorized to \(action.purpose): polkit does not grant \(action.polkitAction) "
                    + "to \(caller) (\(why))"))
    }

    /// `CheckAuthorization` failed with `error`. An error of polkit's own is
    /// its refusal; any other (no polkit, not activatable, no answer in time)
    /// means polkit could not be asked, and then only root may make changes.
    static func verdict(callFailed error: BusError, action: BusAction, caller: BusCaller) -> AuthorizationVerdict {
        if error.name.hasPrefix("org.freedesktop.PolicyKit1.Error.") {
            return .refused(
                BusError(
                    name: BusError.accessDenied,
                    message: "Not authorized to \(action.purpose): polkit refused to check \(caller): \(error)"))
        }
        return .refused(
            BusError(
                name: BusError.polkitUnavailable,
                message:
                    "Cannot ask polkit whether \(caller) may \(action.purpose) (\(error)); "
                    + "while polkit is unavailable only root may make changes"))
    }

    /// The bus driver could not say who the caller is (it left the bus).
    static func verdict(unknownCaller sender: String, error: BusError, action: BusAction) -> AuthorizationVerdict {
        .refused(
            BusError(
                name: BusError.accessDenied,
                message: "Not authorized to \(action.purpose): cannot tell who \(sender) is (\(error))"))
    }
}

/// The changes waiting for their authorization, in the order they arrived.
///
/// Checks run concurrently and polkit may answer them out of order, but a
/// decided change is released only once every earlier change of the same
/// caller is: one caller's changes apply in the order it sent them. The
/// queue is bounded per caller and in all, so that a caller cannot make the
/// daemon hold unbounded state.
struct AuthorizationQueue: Equatable {
    static let perCallerLimit = 32
    /// Each waiting change has one call of the daemon's in flight, and the
    /// bus refuses a connection more than 128 at once (the system bus's
    /// `max_replies_per_connection`).
    static let limit = 96

    struct Entry: Equatable {
        let id: Int
        let sender: String
        var verdict: AuthorizationVerdict?
    }

    private(set) var entries: [Entry] = []
    private var nextID = 1

    var isEmpty: Bool { entries.isEmpty }

    /// Takes a change of `sender` into the queue; its id, or nil when a limit is reached.
    mutating func admit(sender: String) -> Int? {
        guard entries.count < AuthorizationQueue.limit,
            entries.lazy.filter({ $0.sender == sender }).count < AuthorizationQueue.perCallerLimit
        else { return nil }
        let id = nextID
        nextID += 1
        entries.append(Entry(id: id, sender: sender, verdict: nil))
        return id
    }

    /// Records the verdict on `id`; returns the entries now released, in
    /// order (possibly none, possibly several of earlier ones).
    mutating func decide(_ id: Int, _ verdict: AuthorizationVerdict) -> [Entry] {
        guard let index = entries.firstIndex(where: { $0.id == id }), entries[index].verdict == nil else { return [] }
        entries[index].verdict = verdict
        var released: [Entry] = []
        var waiting: Set<String> = []
        var kept: [Entry] = []
        for entry in entries {
            if entry.verdict != nil, !waiting.contains(entry.sender) {
                released.append(entry)
            } else {
                waiting.insert(entry.sender)
                kept.append(entry)
            }
        }
        entries = kept
        return released
    }
}
