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
/// threads the pool does not count.
///
///     @Suite(.onOwnThreads) struct SharingFlowTests { … }
struct OnOwnThreads: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OnOwnThreads {
    /// The suite's tests run on threads of their own, never blocking the cooperative pool.
    static var onOwnThreads: Self { OnOwnThreads() }
}

/// A task executor that runs every job it is given on a new thread: jobs of blocking tests
/// are few and long, so a thread each costs nothing next to what they wait for.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            Thread.current.name = "test-own-thread"
            job.runSynchronously(on: executor)
        }
        // Room for deep test call stacks (the default for secondary threads is 512 KiB).
        thread.stackSize = 8 << 20
        thread.start()
    }
}
