import Support

/// How much store work a connection has queued: received change sets and signed sets wait
/// for the applier thread, and while too many do, the worker takes nothing more from the
/// inbox. Without it the worker turned every frame into a job at once, and a peer sending a
/// zone faster than it could be applied had the whole zone decoded in memory (a joiner of
/// 100,000 photos grew to 260 MiB); with it the inbox fills, the reader stops, and TCP
/// holds the sender back.
final class StoreBacklog: Sendable {
    let limit: Int
    private let condition = Condition()
    private nonisolated(unsafe) var queued = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// A job was queued.
    func enter() { condition.withLock { queued += 1 } }

    /// Whether no job is queued or running. Only the connection's worker queues jobs, so on
    /// that thread the answer holds until it queues the next one.
    var isEmpty: Bool { condition.withLock { queued == 0 } }

    /// A job finished.
    func leave() {
        condition.withLock {
            queued -= 1
            condition.broadcast()
        }
    }

    /// Returns once fewer than `limit` jobs are queued.
    func waitBelowLimit() {
        condition.withLock {
            while queued >= limit { condition.wait() }
        }
    }
}
