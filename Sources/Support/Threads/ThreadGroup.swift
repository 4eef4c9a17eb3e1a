/// Threads counted until they return, so that whoever started them can wait for them all,
/// with a deadline: the control server's accept thread and one thread per client.
public final class ThreadGroup: @unchecked Sendable {
    private let condition = Condition()
    // Guarded by `condition`.
    private var running = 0

    public init() {}

    /// Starts `body` on a new thread (see `IOThread.detach`), counted until it returns.
    public func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        condition.withLock { running += 1 }
        IOThread.detach(name: name) { [self] in
            defer {
                condition.withLock {
                    running -= 1
                    condition.broadcast()
                }
            }
            body()
        }
    }

    /// Waits until every thread started has returned, or `timeout` has passed; true when
    /// they all have.
    public func wait(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return condition.withLock {
            while running > 0 {
                let left = deadline - .now
                if left <= .zero { return false }
                condition.wait(timeout: left)
            }
            return true
        }
    }
}
