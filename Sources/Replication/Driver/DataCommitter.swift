import Store
import Support

/// Publishes verified photo data in groups, off the connections' threads.
///
/// Making a photo durable costs a disk flush; one per photo made the initial sync of a
/// thousand small photos a thousand flushes long, with the connection's thread waiting on
/// each. Connections hand verified data here instead and go on receiving; while one group
/// is being synced, the next one gathers, so a burst of photos costs a few flushes and a
/// single photo still costs one. Engine-wide: every connection's data joins the same groups.
final class DataCommitter: Sendable {
    private struct Job: Sendable {
        let blob: PartialBlob
        let done: @Sendable (StoreError?) -> Void
    }

    /// A group smaller than 64 waits up to 1 ms for more: each sync is a disk flush (and, in
    /// a virtual machine, an exit to the host), so a steady stream of photos is synced in
    /// groups instead of one by one; a single photo is delayed by at most that millisecond.
    private let thread = JobThread<Job>(name: "data-commit", gather: (.milliseconds(1), 64)) { jobs in
        let failures = BlobStore.publish(jobs.map(\.blob))
        for (job, failure) in zip(jobs, failures) { job.done(failure) }
    }

    /// Publishes `blob` (verified, closed) and calls `done` with the outcome, on the
    /// committer's thread.
    func submit(_ blob: PartialBlob, then done: @escaping @Sendable (StoreError?) -> Void) {
        thread.submit(Job(blob: blob, done: done))
    }

    /// Waits until everything submitted so far is published (at engine stop).
    func waitUntilIdle() { thread.waitUntilIdle() }
}
