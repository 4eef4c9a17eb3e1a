import Store
import Synchronization

/// Owns the daemon's reference to the `Library`, so the stores close at a chosen moment of
/// the shutdown: after the control server has drained, never under a request in flight.
///
/// SQLite closes a connection when the last reference to its store goes away. Handlers
/// hold the library only while their connection thread runs, so once those threads have
/// ended, `close()` drops the last reference and the databases close (and checkpoint their
/// write-ahead logs) there and then.
final class LibraryHandle: Sendable {
    private let current: Mutex<Library?>

    init(_ library: Library) {
        current = Mutex(library)
    }

    /// The open library, or nil once closed.
    var library: Library? { current.withLock { $0 } }

    /// Drops the daemon's reference; the stores close unless a stuck client still uses them.
    func close() {
        let library = current.withLock { current -> Library? in
            defer { current = nil }
            return current
        }
        library?.close()
    }
}
