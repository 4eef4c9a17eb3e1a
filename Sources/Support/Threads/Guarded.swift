/// A value behind a lock, that threads can wait on until it changes.
///
/// Waiting goes through `wait(until:)`, which reads the value afresh after every wake-up.
/// Waiting on a condition inside `withLock` would not work: the closure is handed the value
/// `inout`, so the compiler may assume nothing else changes it meanwhile and, optimizing,
/// never read it again (a release build of the daemon hung at SIGTERM that way).
public final class Guarded<Value>: @unchecked Sendable {
    private let condition = Condition()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held; waiters are not woken (see `update`).
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try condition.withLock { try body(&value) }
    }

    /// Runs `body` with the lock held, then wakes every thread waiting for the value.
    public func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try condition.withLock {
            defer { condition.broadcast() }
            return try body(&value)
        }
    }

    /// Waits until `ready` holds for the value, or `timeout` has passed (nil: no limit),
    /// then runs `body` on the value, all with the lock held.
    public func wait<T>(
        until ready: (Value) -> Bool, timeout: Duration? = nil, then body: (inout Value) throws -> T
    ) rethrows -> T {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        return try condition.withLock {
            while !ready(value) {
                guard let deadline else {
                    condition.wait()
                    continue
                }
                let left = deadline - .now
                if left <= .zero { break }
                condition.wait(timeout: left)
            }
            return try body(&value)
        }
    }

    /// Waits until `ready` holds for the value, or `timeout` has passed (nil: no limit);
    /// returns the value then.
    @discardableResult
    public func wait(until ready: (Value) -> Bool, timeout: Duration? = nil) -> Value {
        wait(until: ready, timeout: timeout) { $0 }
    }
}
