/// A value guarded by a `Condition`, for waiting until it changes.
public final class Guarded<Value>: @unchecked Sendable {
    public let condition = Condition()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held; it may wait on `condition`.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try condition.withLock { try body(&value) }
    }
}
