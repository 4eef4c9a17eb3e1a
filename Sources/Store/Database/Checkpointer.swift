import CSQLite
import Foundation
import Synchronization

/// Copies the write-ahead log back into the database file on a thread of its own, with a
/// connection of its own, instead of inside the commit that happened to fill it.
///
/// SQLite's automatic checkpoint runs in the committing connection: a large transaction (a
/// dedup pass over 100,000 tags, a big initial sync) then pays for copying every page twice
/// before it returns. Here a commit only notes the log's size; past `threshold` pages it
/// wakes this thread, which runs a passive checkpoint (never blocking readers or writers)
/// while the store goes on. The log is still bounded: it is reused once a checkpoint has
/// caught up, and closing the store checkpoints what is left.
final class Checkpointer: @unchecked Sendable {
    let path: String
    let threshold: Int32
    private let state = Mutex((running: false, again: false, closed: false))
    private let idle = NSCondition()
    private var connection: Database?

    init(path: String, threshold: Int32 = 1_000) {
        self.path = path
        self.threshold = threshold
    }

    /// After a commit: the log now holds `pages` pages.
    func committed(walPages pages: Int32) {
        guard pages >= threshold else { return }
        let start = state.withLock { state -> Bool in
            if state.closed { return false }
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        if start { Thread.detachNewThread { [self] in run() } }
    }

    /// Waits for a running checkpoint and closes this connection; no more checkpoints start.
    func close() {
        state.withLock { $0.closed = true }
        waitUntilIdle()
        connection?.close()
        connection = nil
    }

    /// Waits until no checkpoint is running.
    func waitUntilIdle() {
        idle.lock()
        while state.withLock({ $0.running }) { idle.wait() }
        idle.unlock()
    }

    private func run() {
        repeat {
            state.withLock { $0.again = false }
            checkpoint()
        } while state.withLock({ state in
            if state.again && !state.closed { return true }
            state.running = false
            return false
        })
        idle.lock()
        idle.broadcast()
        idle.unlock()
    }

    private func checkpoint() {
        do {
            if connection == nil { connection = try Database(path: path) }
            _ = try connection?.query("PRAGMA wal_checkpoint(PASSIVE)") { $0.int(0) }
        } catch {
            // A failed passive checkpoint leaves the log as it was; the next one, or closing
            // the store, copies it back.
        }
    }
}
