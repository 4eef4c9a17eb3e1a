/// Encoded change sets waiting to be sent, and those sent but not yet answered.
///
/// The receiver answers every set in order, so the oldest unanswered one is always the one
/// an answer refers to. Keeping the unanswered bytes under a window bounds what the
/// receiver has to buffer, whatever the size of the zone.
struct ChangeOutbox: Sendable {
    struct Entry: Sendable {
        var zone: String
        var generation: Int
        var frame: Frame
        var size: Int { frame.bodyLength + WireLimits.frameHeaderSize }
    }

    struct Sent: Sendable {
        var zone: String
        var generation: Int
        var size: Int
    }

    private(set) var waiting: [Entry] = []
    private(set) var inFlight: [Sent] = []
    private(set) var inFlightBytes = 0

    var isEmpty: Bool { waiting.isEmpty && inFlight.isEmpty }

    mutating func enqueue(_ entry: Entry) { waiting.append(entry) }

    /// The next set to send, if the window allows; it counts as in flight from now on.
    mutating func next(window: Int) -> Entry? {
        guard let first = waiting.first, inFlight.isEmpty || inFlightBytes + first.size <= window else {
            return nil
        }
        waiting.removeFirst()
        inFlight.append(Sent(zone: first.zone, generation: first.generation, size: first.size))
        inFlightBytes += first.size
        return first
    }

    /// Takes the oldest unanswered set, which an answer for `zone` must refer to; nil when the
    /// answer does not match (a protocol error).
    mutating func answer(zone: String) -> Sent? {
        guard let first = inFlight.first, first.zone == zone else { return nil }
        inFlight.removeFirst()
        inFlightBytes -= first.size
        return first
    }

    /// Drops the waiting sets of `zone` (their base clock is no longer believed).
    mutating func dropWaiting(zone: String) {
        waiting.removeAll { $0.zone == zone }
    }

    /// Whether no change set of `zone` waits to go or for its answer.
    func isIdle(zone: String) -> Bool {
        !waiting.contains { $0.zone == zone } && !inFlight.contains { $0.zone == zone }
    }

    func waitingCount(zone: String) -> Int {
        waiting.reduce(0) { $0 + ($1.zone == zone ? 1 : 0) }
    }
}
