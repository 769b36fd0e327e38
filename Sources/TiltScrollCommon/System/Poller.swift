import Glibc

/// One `poll(2)` call over the descriptors the loop watches this round.
///
/// The array of `pollfd` is kept between rounds (its capacity reserved once),
/// so waiting costs no allocation in the steady state.
package struct Poller {
    private var entries: [pollfd] = []

    package init() { entries.reserveCapacity(16) }

    /// Forgets last round's descriptors.
    package mutating func reset() { entries.removeAll(keepingCapacity: true) }

    /// Watches `descriptor` for input; returns its slot for `isReadable`.
    @discardableResult
    package mutating func watch(_ descriptor: FileDescriptor) -> Int {
        entries.append(pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0))
        return entries.count - 1
    }

    /// Watches `descriptor` for `events` (POLLIN, POLLOUT: what sd-bus asks
    /// for); returns its slot for `isReady`.
    @discardableResult
    package mutating func watch(_ descriptor: FileDescriptor, events: Int16) -> Int {
        entries.append(pollfd(fd: descriptor.rawValue, events: events, revents: 0))
        return entries.count - 1
    }

    /// Waits until a descriptor is ready or `deadline` (seconds on the daemon's
    /// clock) passes; nil waits without a timeout. EINTR counts as a wake-up.
    package mutating func wait(until deadline: Double?, now: Double) throws(SystemError) {
        let timeout: Int32
        if let deadline {
            // Round up so the loop never wakes a fraction of a millisecond
            // early and spins until the deadline.
            let milliseconds = ((deadline - now) * 1000).rounded(.up)
            timeout = Int32(max(0, min(milliseconds, Double(Int32.max))))
        } else {
            timeout = -1
        }
        let result = entries.withUnsafeMutableBufferPointer { buffer in
            Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
        }
        if result < 0 && Errno.current != .interrupted { throw .current("poll") }
    }

    /// Whether `descriptor` was watched this round and has input, for
    /// callers whose list of descriptors may have changed since the wait.
    package func isReadable(_ descriptor: FileDescriptor) -> Bool {
        entries.indices.contains { entries[$0].fd == descriptor.rawValue && isReadable($0) }
    }

    /// Whether `descriptor` was watched this round and anything happened on
    /// it: what it was watched for, an error or a hang-up.
    package func isReady(_ descriptor: FileDescriptor) -> Bool {
        entries.indices.contains { entries[$0].fd == descriptor.rawValue && isReady($0) }
    }

    /// Whether anything happened on the descriptor in `slot`: what it was
    /// watched for, an error or a hang-up.
    package func isReady(_ slot: Int) -> Bool { entries[slot].revents != 0 }

    /// Whether the descriptor in `slot` has input (or an error or hang-up,
    /// which its reader must see to notice).
    package func isReadable(_ slot: Int) -> Bool {
        entries[slot].revents & Int16(POLLIN | POLLERR | POLLHUP | POLLNVAL) != 0
    }
}
