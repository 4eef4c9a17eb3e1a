/// Runs jobs in the order they were submitted, on a thread of its own that exists only
/// while there is work: started by the first job, ended when none is left. `handle` gets
/// every job waiting at that moment, so it can do a group's work once (one disk sync for
/// all the photo data received meanwhile).
final class JobThread<Job: Sendable>: Sendable {
    private struct State {
        var jobs: [Job] = []
        var running = false
    }

    private let state = Guarded(State())
    private let handle: @Sendable ([Job]) -> Void

    init(handle: @escaping @Sendable ([Job]) -> Void) {
        self.handle = handle
    }

    func submit(_ job: Job) {
        let start = state.withLock { state -> Bool in
            state.jobs.append(job)
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if start { IOThread.detach { [self] in run() } }
    }

    /// Waits until every job submitted so far has been handled.
    func waitUntilIdle() {
        state.withLock { state in
            while state.running { self.state.condition.wait() }
        }
    }

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
            handle(jobs)
        }
    }
}
