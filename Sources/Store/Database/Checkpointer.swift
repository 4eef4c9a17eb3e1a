import Support

/// Copies the write-ahead log back into the database file on a thread of its own, with a
/// connection of its own, instead of inside the commit that happened to fill it.
///
/// SQLite's automatic checkpoint runs in the committing connection: a large transaction (a
/// dedup pass over 100,000 tags, a big initial sync) then pays for copying every page twice
/// before it returns. Here a commit only notes the log's size; past `threshold` pages it
/// asks for a checkpoint, and requests made while one runs are answered by one more: a
/// passive checkpoint (never blocking readers or writers) while the store goes on. The log
/// is still bounded: it is reused once a checkpoint has caught up, and closing the store
/// checkpoints what is left.
final class Checkpointer: Sendable {
    let threshold: Int32
    private let closed = Guarded(false)
    private let thread: JobThread<Void>

    init(path: String, threshold: Int32 = 1_000) {
        self.threshold = threshold
        // Used only on the job thread, and closed by `close` once that thread is idle.
        nonisolated(unsafe) var connection: Database?
        let closed = self.closed
        thread = JobThread(name: "checkpoint") { _ in
            guard !closed.withLock({ $0 }) else {
                connection?.close()
                connection = nil
                return
            }
            do {
                if connection == nil { connection = try Database(path: path) }
                _ = try connection?.query("PRAGMA wal_checkpoint(PASSIVE)") { $0.int(0) }
            } catch {
                // A failed passive checkpoint leaves the log as it was; the next one, or
                // closing the store, copies it back.
            }
        }
    }

    /// After a commit: the log now holds `pages` pages.
    func committed(walPages pages: Int32) {
        guard pages >= threshold, !closed.withLock({ $0 }) else { return }
        thread.submit(())
    }

    /// Waits until no checkpoint is running.
    func waitUntilIdle() { thread.waitUntilIdle() }

    /// Log pages past which a writer lets a checkpoint catch up before its next transaction.
    /// A passive checkpoint running beside a busy writer copies only the frames that existed
    /// when it started, so the log is never wholly copied back and SQLite never starts it
    /// over: it grew by the size of everything written (500 MB for a 100,000-photo join),
    /// and every commit wrote to new blocks of the file, which the kernel zeroes first (a
    /// sixth of the join's CPU). Copied back while no one writes, the log restarts at its
    /// start with the next transaction.
    ///
    /// Both bounds count pages: with 8 KiB pages (`Database.pageSize`) this is 128 MiB, and
    /// `threshold` 8 MiB. Kept as the same bytes as with 4 KiB pages instead (with 16 KiB
    /// pages: a checkpoint every 4 MiB, a catch-up every 64 MiB), changes applied fell from
    /// 258,000 to 230,000/s (issue 17, interleaved runs). The log file is cut back to 64 MiB
    /// when it restarts (`journal_size_limit`).
    static let catchUpPages: Int32 = 16_384

    /// Runs a checkpoint and waits for it: called with the store's writer held, so no frame
    /// is added meanwhile and the checkpoint copies the whole log (unless another
    /// connection's read transaction still needs old frames).
    func catchUp() {
        guard !closed.withLock({ $0 }) else { return }
        thread.submit(())
        thread.waitUntilIdle()
    }

    /// Waits for a running checkpoint, then closes this connection; no more checkpoints run.
    func close() {
        closed.withLock { $0 = true }
        thread.submit(())  // runs after any checkpoint asked for, and closes the connection
        thread.waitUntilIdle()
    }
}
