import Glibc
import Support

/// Receives SIGTERM, SIGINT and SIGHUP on a dedicated thread with `sigwait`.
///
/// The signals are blocked in every thread (`blockHandledSignals()` first thing in main,
/// before any thread exists, so all threads inherit the mask); a signal that arrives during
/// start-up waits, pending, until the receiver takes it. Handlers then run as ordinary code,
/// free of async-signal-safety limits.
enum SignalReceiver {
    static let handled = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks the handled signals in the calling thread and ignores SIGPIPE (a write to a
    /// closed socket must be an error, not death).
    static func blockHandledSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts the thread; `handler` runs on it for each signal, in arrival order.
    static func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        IOThread.detach(name: "signals") {
            var set = signalSet()
            while true {
                var received: Int32 = 0
                if sigwait(&set, &received) == 0 { handler(received) }
            }
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        return set
    }
}
