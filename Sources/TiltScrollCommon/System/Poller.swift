import Glibc

/// One `poll(2)` call over the descriptors the loop watches this round.
///
/// The `pollfd` entries live in one buffer kept between rounds, grown when
/// a round watches more than ever before, so waiting costs no allocation
/// in the steady state. A round's descriptors are its first `count`
/// entries: starting a round sets a number. (An array emptied with
/// `removeAll(keepingCapacity:)` and appended to cost about 170
/// instructions a round in uniqueness and capacity checks,
/// Benchmarks/daemon-bench.) A class: the buffer is owned once, and the
/// loop and what it lends the poller to (`MonitorStreams`) fill the same.
public final class Poller {
    private var entries: UnsafeMutablePointer<pollfd>
    private var capacity: Int
    private var count = 0

    public init() {
        capacity = 16
        entries = .allocate(capacity: capacity)
    }

    deinit { entries.deallocate() }

    /// Forgets last round's descriptors.
    public func reset() { count = 0 }

    /// Watches `descriptor` for input; returns its slot for `isReadable`.
    @discardableResult
    public func watch(_ descriptor: FileDescriptor) -> Int {
        watch(descriptor, events: Int16(POLLIN))
    }

    /// Watches `descriptor` for `events` (POLLIN, POLLOUT: what sd-bus asks
    /// for); returns its slot for `isReady`.
    @discardableResult
    public func watch(_ descriptor: FileDescriptor, events: Int16) -> Int {
        if count == capacity { grow() }
        entries[count] = pollfd(fd: descriptor.rawValue, events: events, revents: 0)
        count += 1
        return count - 1
    }

    private func grow() {
        let larger = UnsafeMutablePointer<pollfd>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = larger
        capacity *= 2
    }

    /// Waits until a descriptor is ready or `deadline` (seconds on the daemon's
    /// clock) passes; nil waits without a timeout. EINTR counts as a wake-up.
    public func wait(until deadline: Double?, now: Double) throws(SystemError) {
        let timeout: Int32
        if let deadline {
            // Round up so the loop never wakes a fraction of a millisecond
            // early and spins until the deadline.
            let milliseconds = ((deadline - now) * 1000).rounded(.up)
            timeout = Int32(max(0, min(milliseconds, Double(Int32.max))))
        } else {
            timeout = -1
        }
        let result = Glibc.poll(entries, nfds_t(count), timeout)
        if result < 0 && Errno.current != .interrupted { throw .current("poll") }
    }

    /// Whether `descriptor` was watched this round and has input, for
    /// callers whose list of descriptors may have changed since the wait.
    public func isReadable(_ descriptor: FileDescriptor) -> Bool {
        (0..<count).contains { entries[$0].fd == descriptor.rawValue && isReadable($0) }
    }

    /// Whether anything happened on any descriptor watched this round.
    public var anyReady: Bool { (0..<count).contains { entries[$0].revents != 0 } }

    /// Whether `descriptor` was watched this round and anything happened on
    /// it: what it was watched for, an error or a hang-up.
    public func isReady(_ descriptor: FileDescriptor) -> Bool {
        (0..<count).contains { entries[$0].fd == descriptor.rawValue && isReady($0) }
    }

    /// Whether anything happened on the descriptor in `slot`: what it was
    /// watched for, an error or a hang-up.
    public func isReady(_ slot: Int) -> Bool {
        precondition(slot < count, "a slot of an earlier round")
        return entries[slot].revents != 0
    }

    /// Whether the descriptor in `slot` has input (or an error or hang-up,
    /// which its reader must see to notice).
    public func isReadable(_ slot: Int) -> Bool {
        precondition(slot < count, "a slot of an earlier round")
        return entries[slot].revents & Int16(POLLIN | POLLERR | POLLHUP | POLLNVAL) != 0
    }
}
