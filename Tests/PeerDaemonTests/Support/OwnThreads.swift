import Foundation
import Testing

/// Runs each test of a suite on threads of its own instead of Swift concurrency's
/// cooperative pool.
///
/// End-to-end tests block: they wait for child processes, poll with `usleep`, read
/// sockets. A synchronous test function runs on a cooperative thread, and the pool has one
/// thread per core — two on the CI machine — so two such tests in flight starve every async
/// test of the same process (the replication engine's, which hold TLS connections that the
/// other side closes after a 10 s hello timeout). With this trait the blocking happens on
/// threads the pool does not count, a few tests at a time.
///
///     @Suite(.onOwnThreads) struct SharingFlowTests { … }
struct OnOwnThreads: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OnOwnThreads {
    /// The suite's tests run on threads of their own, never blocking the cooperative pool.
    static var onOwnThreads: Self { OnOwnThreads() }
}

/// A task executor with a few threads of its own, for tests that block.
///
/// It also bounds how many end-to-end tests run at once (a job of a synchronous test is
/// the whole test): each starts daemons and CLIs, and a two-core machine running dozens of
/// them together would turn their generous timeouts into failures.
final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = BlockingTestExecutor(
        threads: max(4, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for _ in 0..<threads {
            let thread = Thread { [unowned self] in work() }
            // Room for deep test call stacks (the default for secondary threads is 512 KiB).
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func work() {
        Thread.current.name = "blocking-test"
        let executor = asUnownedTaskExecutor()
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: executor)
        }
    }
}
