import Glibc

/// A plain mutex for the few places where state is shared between threads.
///
/// Unlike the standard library's `Mutex`, which on Linux is a priority-inheritance futex
/// (every contended lock and unlock goes through the kernel's rt-mutex code), this is glibc's
/// ordinary mutex: the one to take for a lock that two busy threads hand back and forth
/// thousands of times a second, such as a TLS connection's between its reader and writer.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
