import Support
import TestSupport
import Testing

@testable import Replication

/// Stopping an engine more than once (a daemon told to stop by a signal while it is already
/// stopping, a test that stops one before its owner does) is harmless: the later calls wait
/// for the first and return.
@Suite struct EngineStopTests {
    @Test func anEngineStoppedFromTwoThreadsAndAgainStopsOnce() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        _ = try shareZone(owner: owner, with: [participant])
        await expectInSync([owner, participant])
        let stoppers = (0..<2).map { _ in IOThread.start { owner.engine.stop() } }
        for stopper in stoppers { stopper.join() }
        owner.engine.stop()
        #expect(owner.engine.peers().allSatisfy { !$0.connected })
        #expect(owner.engine.state.withLock { $0.connections.isEmpty && !$0.running })
    }
}
