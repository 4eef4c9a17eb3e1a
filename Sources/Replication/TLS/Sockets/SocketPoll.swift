import Glibc

/// Waiting for a descriptor to become readable or writable, with an optional deadline.
enum SocketPoll {
    enum Outcome: Equatable {
        case ready
        case timedOut
        case failed(errno: Int32)
    }

    /// Waits until `fd` reports one of `events` (or an error/hang-up, which the next I/O
    /// call will surface), or until `deadline` passes. A nil deadline waits forever.
    static func wait(fd: Int32, events: Int32, until deadline: ContinuousClock.Instant?) -> Outcome {
        while true {
            var entry = pollfd(fd: fd, events: Int16(truncatingIfNeeded: events), revents: 0)
            if let deadline, ContinuousClock.now >= deadline { return .timedOut }
            let result = poll(&entry, 1, milliseconds(until: deadline))
            if result > 0 { return .ready }
            if result == 0 { continue }  // the deadline check above decides
            if errno == EINTR { continue }
            return .failed(errno: errno)
        }
    }

    /// Milliseconds left until `deadline`, rounded up, or -1 (forever) without one.
    static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = deadline - ContinuousClock.now
        if left <= .zero { return 0 }
        let (seconds, attoseconds) = left.components
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
