import Support
import Testing

/// `IOThread.join` may be called more than once (an engine stopped twice joins its threads
/// twice): a second `pthread_join` of the same thread is undefined behaviour.
@Suite struct IOThreadJoinTests {
    @Test func aThreadJoinedFromSeveralThreadsAndAgainReturnsEachTime() {
        let finished = Guarded(false)
        let worker = IOThread.start(name: "join-test") {
            finished.update { $0 = true }
        }
        let returned = Guarded(0)
        let joiners = (0..<4).map { _ in
            IOThread.start {
                worker.join()
                returned.update { $0 += 1 }
            }
        }
        for joiner in joiners { joiner.join() }
        worker.join()
        worker.join()
        #expect(finished.withLock { $0 })
        #expect(returned.withLock { $0 } == 4)
    }
}
