import Glibc

/// A mutex with a condition variable, for the few threads that must sleep until something
/// happens (or a deadline passes): a connection's worker, the engine's timer loop, a job thread.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines on the monotonic clock, so a wall-clock jump neither stalls nor rushes timers.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Sleeps until signalled (or spuriously); call with the lock held, in a loop.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Sleeps until signalled or `timeout` passed; call with the lock held, in a loop.
    public func wait(timeout: Duration) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let (seconds, attoseconds) = timeout.components
        var nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
        var deadline = timespec(tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: 0)
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = nanoseconds
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    public func broadcast() { pthread_cond_broadcast(condition) }
}
