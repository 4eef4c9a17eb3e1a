import Glibc
import Synchronization

/// A one-shot "stop now" that blocking threads can wait on with `poll`.
///
/// A pipe whose read end becomes readable, and stays readable, once fired: every thread
/// polling it wakes, whenever it polls. Threads blocked in `poll` on a socket add this
/// descriptor instead of being interrupted by signals or closed descriptors.
final class StopSignal: Sendable {
    private let pipe = WakePipe()
    private let fired = Mutex(false)

    /// Readable once fired.
    var fd: Int32 { pipe.fd }

    var isFired: Bool { fired.withLock { $0 } }

    /// Fires once; later calls do nothing.
    func fire() {
        let first = fired.withLock { done in
            defer { done = true }
            return !done
        }
        if first { pipe.wake() }
    }
}

/// Waits for descriptors to become readable, retrying on EINTR.
enum Poll {
    /// The indexes of `fds` that are readable (or hung up); empty on timeout.
    static func readable(_ fds: [Int32], timeoutMilliseconds: Int32 = -1) -> Set<Int> {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let result = poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return [] }
            return Set(entries.indices.filter { entries[$0].revents != 0 })
        }
    }
}
