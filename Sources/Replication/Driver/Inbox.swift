import Store
import Support

/// The events waiting for one connection's worker thread.
///
/// Received bytes count against a limit: the reader thread waits when the worker falls that
/// far behind, so a peer that floods cannot grow memory without bound (an honest peer never
/// gets near it: its change sets and data are windowed). Local-commit notices for a zone are
/// coalesced while one is still waiting. Urgent events (a local close) jump the queue.
final class Inbox: @unchecked Sendable {
    private let condition = Condition()
    private var events: [SessionEvent] = []
    private var head = 0
    private var urgent: [SessionEvent] = []
    private var pendingCommits: Set<String> = []
    private var bufferedBytes = 0
    private var closed = false
    private let byteLimit: Int

    init(byteLimit: Int) {
        self.byteLimit = max(1, byteLimit)
    }

    /// Queues received bytes, waiting while the queue is over its limit. Returns false once
    /// the inbox is closed.
    @discardableResult
    func postBytes(_ bytes: [UInt8]) -> Bool {
        condition.withLock {
            while !closed && bufferedBytes > 0 && bufferedBytes + bytes.count > byteLimit { condition.wait() }
            guard !closed else { return false }
            bufferedBytes += bytes.count
            events.append(.bytes(bytes))
            condition.broadcast()
            return true
        }
    }

    func post(_ event: SessionEvent) {
        condition.withLock {
            guard !closed else { return }
            if case .localCommit(let zone) = event, !pendingCommits.insert(zone).inserted { return }
            events.append(event)
            condition.broadcast()
        }
    }

    /// Queues `event` ahead of everything else.
    func postUrgent(_ event: SessionEvent) {
        condition.withLock {
            guard !closed else { return }
            urgent.append(event)
            condition.broadcast()
        }
    }

    /// The next event, waiting for one; nil once closed.
    func take() -> SessionEvent? {
        condition.withLock {
            while !closed && urgent.isEmpty && head == events.count { condition.wait() }
            if closed { return nil }
            if !urgent.isEmpty { return urgent.removeFirst() }
            let event = events[head]
            // Consumed slots are dropped in batches; release what this one holds right away
            // (received bytes would otherwise stay resident until the next compaction).
            events[head] = .bytes([])
            head += 1
            if head > 1_024 && head * 2 > events.count {
                events.removeFirst(head)
                head = 0
            }
            switch event {
            case .bytes(let bytes):
                bufferedBytes -= bytes.count
                condition.broadcast()
            case .localCommit(let zone):
                pendingCommits.remove(zone)
            default: break
            }
            return event
        }
    }

    /// Wakes every waiter; later posts are dropped and `take` returns nil.
    func close() {
        condition.withLock {
            closed = true
            events = []
            urgent = []
            head = 0
            condition.broadcast()
        }
    }
}
