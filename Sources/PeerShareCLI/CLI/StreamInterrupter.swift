import ControlProtocol
import Glibc
import Support
import Synchronization

/// Owns SIGINT and SIGTERM for the CLI: a streaming command ends cleanly (the stream is
/// shut down, the command exits 0 having printed whole lines only); any other command
/// exits 130 at once, as an interrupted program does.
///
/// Process-wide because signal disposition is: `install()` runs first thing in main, before
/// any thread exists, so every thread inherits the blocked mask.
final class StreamInterrupter: Sendable {
    static let shared = StreamInterrupter()

    private let active = Mutex<ControlClient.InterruptHandle?>(nil)
    /// A temporary file to remove if the command is interrupted (see `SpoolFile`).
    private let leftover = Mutex<String?>(nil)

    /// Blocks the signals and starts the thread that takes them.
    func install() {
        var set = Self.signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        IOThread.detach(name: "signals") { [self] in
            var waited = Self.signals()
            var received: Int32 = 0
            while sigwait(&waited, &received) == 0 {
                guard let handle = active.withLock({ $0 }) else {
                    if let path = leftover.withLock({ $0 }) { unlink(path) }
                    _exit(130)
                }
                handle.interrupt()
            }
        }
    }

    /// Makes the next SIGINT/SIGTERM end `client`'s stream instead of the process.
    func interruptOnSignal(_ client: ControlClient) {
        active.withLock { $0 = client.interruptHandle }
    }

    /// Makes an interruption remove `path` before the process exits (nil: nothing).
    func removeOnInterrupt(_ path: String?) {
        leftover.withLock { $0 = path }
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
