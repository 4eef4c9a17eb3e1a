import ControlProtocol
import Foundation
import TestSupport
import Testing

/// What `sync --wait` promises on the owner: every member that is reachable has been
/// reached since the last resume, restart or `sync` and agrees; a member that cannot be
/// reached is reported instead of waited on for ever.
@Suite(.onOwnThreads) struct SyncWaitTests {
    @Test func afterResumeTheOwnersSyncWaitReturnsOnlyOnceItHoldsWhatAParticipantDidMeanwhile() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let shared = try peers.shareBeach()
        _ = try alice.json("pause")
        _ = try bob.json("tag", "add", shared.photo, "while-paused")
        _ = try alice.json("resume")
        // Answered "in sync" at once before: the owner dialed no one.
        try alice.syncWait()
        #expect(try alice.sees() == ["beach.jpg": ["summer", "while-paused"]])
        try peers.stop()
    }

    @Test func afterARestartTheOwnersSyncWaitReturnsOnlyOnceItHoldsWhatAParticipantDidMeanwhile() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let shared = try peers.shareBeach()
        try alice.stop()
        _ = try bob.json("tag", "add", shared.photo, "while-down")
        // On a new port: the participants cannot find the owner, only the owner them.
        try alice.start()
        try alice.syncWait()
        #expect(try alice.sees() == ["beach.jpg": ["summer", "while-down"]])
        // The participants learnt the owner's new address from its connection.
        let known = try #require(
            try bob.json("peers").arrayValue?.first { $0["peer_id"]?.stringValue == alice.id })
        #expect(known["address"] == .string(alice.address))
        try peers.stop()
    }

    @Test func theOwnersSyncWaitReportsAStoppedParticipantAsUnreachableInsteadOfWaitingForIt() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        try carol.stop()
        _ = try bob.json("tag", "add", shared.photo, "dusk")

        let started = ContinuousClock.now
        let result = try alice.json("sync", "--wait", "--timeout", "30")
        #expect(.now - started < .seconds(25), "sync --wait waited for the stopped participant")
        #expect(result["in_sync"] == true)
        let unreachable = try #require(result["unreachable"]?.arrayValue)
        #expect(unreachable.map { $0["peer_id"] } == [.string(carol.id)], "\(result)")
        #expect(unreachable.first?["reason"]?.stringValue?.isEmpty == false)
        #expect(try alice.sees() == ["beach.jpg": ["dusk", "summer"]])

        let plain = try alice.cli("sync", "--wait", "--timeout", "30")
        #expect(plain.status == 0)
        #expect(
            plain.stdout.hasPrefix("in sync with every reachable peer; unreachable: \(carol.id.prefix(15))"))
        try alice.stop()
        try bob.stop()
    }

    /// The store has the last word: a session may look idle while a photo's data is still
    /// missing (its fetch died with a connection that another replaced, say). Here the data
    /// goes missing after it arrived; `sync --wait` fetches it again before answering.
    @Test func syncWaitAnswersInSyncOnlyOnceEveryPhotosDataIsHere() throws {
        let peers = try SharingPeers()
        let bob = peers.bob
        let shared = try peers.shareBeach()
        let blob = bob.daemon.blobPath(sha256Hex(shared.bytes), store: .shared)
        #expect(FileManager.default.fileExists(atPath: blob))
        try FileManager.default.removeItem(atPath: blob)
        #expect(try bob.json("photo", "show", shared.photo)["pending"] == true)
        try bob.syncWait()
        #expect(try bob.json("photo", "show", shared.photo)["pending"] == false)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: blob))) == shared.bytes)
        try peers.stop()
    }
}
