import Glibc

/// Waiting for descriptors to become ready, with an optional deadline: the one `poll` loop
/// of every blocking thread (a TLS read, an accept loop, a control connection, a timer
/// waiting on a `StopSignal`). Retries on EINTR.
public enum Poll {
    public enum Outcome: Equatable, Sendable {
        case ready
        case timedOut
        case failed(errno: Int32)
    }

    /// Waits until `fd` reports one of `events` (or an error/hang-up, which the next I/O
    /// call will surface), or until `deadline` passes. A nil deadline waits forever.
    public static func wait(fd: Int32, events: Int32, until deadline: ContinuousClock.Instant?) -> Outcome {
        var entries = [pollfd(fd: fd, events: Int16(truncatingIfNeeded: events), revents: 0)]
        return wait(&entries, until: deadline)
    }

    /// The indexes of `fds` that are readable (or hung up), waiting up to `timeout` (nil:
    /// forever) for one to be; empty on timeout or failure.
    public static func readable(_ fds: [Int32], timeout: Duration? = nil) -> Set<Int> {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard wait(&entries, until: timeout.map { .now + $0 }) == .ready else { return [] }
        return Set(entries.indices.filter { entries[$0].revents != 0 })
    }

    /// Polls `entries` until one is ready or `deadline` passes. Polls at least once, so a
    /// deadline already past still reports a descriptor that is ready.
    private static func wait(_ entries: inout [pollfd], until deadline: ContinuousClock.Instant?) -> Outcome {
        while true {
            let result = poll(&entries, nfds_t(entries.count), milliseconds(until: deadline))
            if result > 0 { return .ready }
            if result == 0 {
                // Rounded up, so a zero result means the deadline has passed, unless the
                // kernel woke early: then wait for the rest.
                if let deadline, ContinuousClock.now >= deadline { return .timedOut }
                continue
            }
            if errno == EINTR { continue }
            return .failed(errno: errno)
        }
    }

    /// Milliseconds left until `deadline`, rounded up, or -1 (forever) without one.
    public static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - ContinuousClock.now
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
