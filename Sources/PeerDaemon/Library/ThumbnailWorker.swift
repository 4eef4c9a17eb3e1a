import Store
import Support

/// The thread that makes thumbnails, off the request path: `photo add` returns once the
/// photo and its job are committed, and this worker wakes then (and at start, for the jobs a
/// stop or a crash left) to make the thumbnails one at a time.
///
/// It runs on a `JobThread` of its own, never on the Swift concurrency pool (decoding a photo
/// blocks for tens of milliseconds), and only while there are jobs.
final class ThumbnailWorker: Sendable {
    private let thread: JobThread<Wake>
    private let stopping = StopSignal()

    /// Why the worker looks at the jobs.
    private enum Wake: Sendable {
        case start, queued
    }

    init(library: Library, logger: Logger) {
        let runner = ThumbnailJobRunner(
            library: library, logger: logger.with("component", "thumbnails"),
            maker: .besideDaemon(maxBytes: library.limits.maxThumbnailBytes), kept: Guarded([]))
        let stopping = stopping
        // A wake finds every job in the tables: several waiting wakes need one drain.
        thread = JobThread(name: "thumbnails", linger: .seconds(1)) { _ in runner.drain(until: stopping) }
        for store in library.stores {
            store.observeThumbnailJobs { [weak self] in self?.wake(.queued) }
        }
    }

    /// Drains what earlier runs left.
    func start() {
        wake(.start)
    }

    private func wake(_ reason: Wake) {
        guard !stopping.isFired else { return }
        thread.submit(reason)
    }

    /// Stops after the thumbnail in progress (its job, if not done, stays for the next start)
    /// and waits for that: the stores may close then.
    func stop() {
        stopping.fire()
        thread.waitUntilIdle()
    }
}
