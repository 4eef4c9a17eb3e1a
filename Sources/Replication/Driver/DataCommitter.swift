import Store

/// Publishes verified photo data in groups, off the connections' threads.
///
/// Making a photo durable costs a disk flush; one per photo made the initial sync of a
/// thousand small photos a thousand flushes long, with the connection's thread waiting on
/// each. Connections hand verified data here instead and go on receiving; while one group
/// is being synced, the next one gathers, so a burst of photos costs a few flushes and a
/// single photo still costs one. Engine-wide: every connection's data joins the same groups.
final class DataCommitter: Sendable {
    private struct Job {
        let blob: PartialBlob
        let done: @Sendable (StoreError?) -> Void
    }

    private struct State {
        var jobs: [Job] = []
        var running = false
    }

    private let state = Guarded(State())

    /// Publishes `blob` (verified, closed) and calls `done` with the outcome, on the
    /// committer's thread.
    func submit(_ blob: PartialBlob, then done: @escaping @Sendable (StoreError?) -> Void) {
        let start = state.withLock { state -> Bool in
            state.jobs.append(Job(blob: blob, done: done))
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { IOThread.detach { [self] in run() } }
    }

    /// Waits until everything submitted so far is published (at engine stop).
    func waitUntilIdle() {
        state.withLock { state in
            while state.running { self.state.condition.wait() }
        }
    }

    /// Publishes groups until none is waiting, then ends the thread.
    private func run() {
        while true {
            let jobs = state.withLock { state -> [Job] in
                let jobs = state.jobs
                state.jobs = []
                if jobs.isEmpty {
                    state.running = false
                    self.state.condition.broadcast()
                }
                return jobs
            }
            if jobs.isEmpty { return }
            let failures = BlobStore.publish(jobs.map(\.blob))
            for (job, failure) in zip(jobs, failures) { job.done(failure) }
        }
    }
}
