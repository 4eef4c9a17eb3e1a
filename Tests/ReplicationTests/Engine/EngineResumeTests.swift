import Foundation
import Store
import Synchronization
import TestSupport
import Testing

@testable import Replication

@Suite struct EngineResumeTests {
    /// Cuts the owner's connection to one peer once it has served `threshold` bytes.
    final class Cutter: Sendable {
        let engine = Mutex<ReplicationEngine?>(nil)
        let served = Atomic<Int>(0)
        let fired = Atomic<Bool>(false)
        let threshold: Int

        init(threshold: Int) { self.threshold = threshold }

        func observe(_ event: ReplicationEvent) {
            guard case .dataServed(let peer, _, let count) = event else { return }
            let total = served.add(count, ordering: .relaxed).newValue
            if total >= threshold, !fired.exchange(true, ordering: .relaxed) {
                engine.withLock { $0 }?.disconnect(peer)
            }
        }
    }

    @Test func aTransferCutInTheMiddleResumesFromThePartialFile() async throws {
        let chunk = 64 << 10
        let size = 8 << 20
        let threshold = 3 << 20
        let cutter = Cutter(threshold: threshold)
        let owner = try EnginePeer("owner") { configuration in
            configuration.onEvent = { cutter.observe($0) }
        }
        cutter.engine.withLock { $0 = owner.engine }
        let participant = try EnginePeer("participant") { configuration in
            configuration.session.dataChunkSize = chunk
            configuration.session.dataWindow = 2
        }
        var random = SeededRandom(seed: 7)
        let photo = try owner.addPhoto("long.raw", bytes: random.bytes(size))
        _ = try shareZone(owner: owner, with: [participant], photo: photo)
        #expect(await eventually { try participant.shared.photo(photo)?.pending == false })
        let fired = cutter.fired.load(ordering: .relaxed)
        #expect(fired)

        let starts = participant.events.all.compactMap { event -> Int64? in
            if case .dataFetchStarted(_, _, let offset, _) = event { return offset }
            return nil
        }
        // One start, then resumes only: on a loaded machine the reconnection may briefly be
        // two connections (both sides dial), and the one closed as a duplicate may have
        // started too; every start after the first continues from the partial file.
        #expect(starts.count >= 2, "one start, at least one resume: \(starts)")
        #expect(starts.first == 0)
        for resumedAt in starts.dropFirst() {
            #expect(resumedAt >= Int64(threshold - chunk), "resumed at \(resumedAt): \(starts)")
        }
        #expect(participant.logged("resuming photo data"))
        // Nothing before the cut was sent again: at most the requests in flight at the cut.
        let served = cutter.served.load(ordering: .relaxed)
        #expect(served <= size + 2 * chunk, "served \(served) bytes for a \(size)-byte photo")
        let hash = try #require(try participant.shared.photo(photo)).sha256
        #expect(participant.shared.blobs.contains(hash))
        #expect(
            !FileManager.default.fileExists(atPath: participant.shared.blobs.root + "/tmp/\(hash).partial"))
    }
}
