/// Runs jobs in the order they were submitted, on a thread of its own that exists only
/// while there is work: started by the first job, ended when none has come for `linger`.
/// `handle` gets every job waiting at that moment, so it can do a group's work once (one
/// disk sync for all the photo data received meanwhile); with `gather`, it first waits that
/// long for more to join a small group.
public final class JobThread<Job: Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private var jobs: [Job] = []
    /// The thread exists (working or lingering).
    private var running = false
    /// A batch is being handled.
    private var busy = false
    private let lock = Condition()

    private let handle: @Sendable ([Job]) -> Void
    private let linger: Duration
    private let gather: (time: Duration, below: Int)?
    /// The thread's name, as `top -H` and `perf` show it.
    private let name: String?

    public init(
        name: String? = nil, linger: Duration = .milliseconds(20),
        gather: (time: Duration, below: Int)? = nil, handle: @escaping @Sendable ([Job]) -> Void
    ) {
        self.name = name
        self.linger = linger
        self.gather = gather
        self.handle = handle
    }

    public func submit(_ job: Job) {
        let start = lock.withLock { () -> Bool in
            jobs.append(job)
            lock.broadcast()
            guard !running else { return false }
            running = true
            return true
        }
        if start { IOThread.detach(name: name) { [self] in run() } }
    }

    /// Waits until every job submitted so far has been handled (not for a lingering thread
    /// to end).
    public func waitUntilIdle() {
        lock.withLock {
            while busy || !jobs.isEmpty { lock.wait() }
        }
    }

    private func run() {
        while true {
            let batch = lock.withLock { () -> [Job] in
                if busy {
                    busy = false
                    lock.broadcast()
                }
                waitWhileLocked(until: { !jobs.isEmpty }, for: linger)
                if let gather, !jobs.isEmpty, jobs.count < gather.below {
                    waitWhileLocked(until: { jobs.count >= gather.below }, for: gather.time)
                }
                let batch = jobs
                jobs = []
                busy = !batch.isEmpty
                if batch.isEmpty { running = false }
                return batch
            }
            if batch.isEmpty { return }
            handle(batch)
        }
    }

    /// With the lock held: waits until `condition` holds or `time` has passed.
    private func waitWhileLocked(until condition: () -> Bool, for time: Duration) {
        let deadline = ContinuousClock.now + time
        while !condition() {
            let left = deadline - .now
            if left <= .zero { return }
            lock.wait(timeout: left)
        }
    }
}
