import CLinux
import Glibc
import Synchronization

/// A dedicated OS thread for blocking I/O (accept, TLS handshakes, reads).
///
/// The Swift concurrency pool has one thread per core (two here); a single blocking call on
/// it stalls every task in the process. Blocking work runs on one of these instead, and
/// `run` bridges its result back to async code.
public final class IOThread: @unchecked Sendable {
    private let handle: pthread_t
    /// Whether the thread has been joined: joining a thread twice is undefined behaviour (it
    /// crashed a test that stopped an engine twice), so later `join`s return at once.
    private let joined = Mutex(false)

    private init(handle: pthread_t) {
        self.handle = handle
    }

    /// Starts `body` on a new joinable thread, named `name` (for `top -H` and debuggers;
    /// cut to 15 bytes) when given.
    public static func start(name: String? = nil, _ body: @escaping @Sendable () -> Void) -> IOThread {
        IOThread(handle: spawn(Body(name: name, body), detached: false))
    }

    /// Starts `body` on a new thread that nobody waits for; its resources are released
    /// when it returns.
    public static func detach(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        _ = spawn(Body(name: name, body), detached: true)
    }

    /// Runs blocking `body` on its own thread and resumes the caller with its result,
    /// leaving the concurrency pool free meanwhile.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            detach { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Waits for the thread to finish. Calling it from the thread itself returns at once; so
    /// does calling it again once it has returned, from any thread (several at once wait for
    /// the first).
    public func join() {
        if pthread_equal(pthread_self(), handle) != 0 { return }
        joined.withLock { joined in
            guard !joined else { return }
            pthread_join(handle, nil)
            joined = true
        }
    }

    private final class Body {
        let name: String?
        let run: @Sendable () -> Void

        init(name: String?, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }

        /// Runs on the new thread.
        func main() {
            if let name {
                _ = pthread_setname_np(pthread_self(), String(decoding: name.utf8.prefix(15), as: UTF8.self))
            }
            run()
        }
    }

    private static func spawn(_ body: Body, detached: Bool) -> pthread_t {
        let context = Unmanaged.passRetained(body).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        var handle = pthread_t()
        let result = pthread_create(
            &handle, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().main()
                return nil
            }, context)
        // Failing to start a thread means the process is out of resources; nothing sensible
        // can continue from here.
        precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
        return handle
    }
}
