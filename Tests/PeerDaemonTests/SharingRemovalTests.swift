import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// `share remove` between real daemons: the removed participant's copy is purged, its URL
/// no longer lets it in, and only a new invitation does.
@Suite(.onOwnThreads) struct SharingRemovalTests {
    @Test func aRemovedParticipantsCopyIsPurgedAndItsOldURLNoLongerLetsItBackIn() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        let blob = bob.daemon.blobPath(sha256Hex(shared.bytes), store: .shared)
        #expect(FileManager.default.fileExists(atPath: blob))

        let removed = try alice.json("share", "remove", shared.share, String(bob.id.prefix(10)))
        #expect(removed["status"] == "removed" && removed["peer_id"] == .string(bob.id))
        try waitUntil("bob's copy to be purged", timeout: .seconds(30)) {
            try bob.json("photo", "list") == [] && bob.liveShares() == []
        }
        #expect(!FileManager.default.fileExists(atPath: blob))
        let purge = try bob.json("history", "--store", "shared").arrayValue?.last
        #expect(purge?["author"] == "purge")
        try bob.daemon.waitForLogLine("<6>purged this peer's copy of a share", containing: shared.share)

        // The URL bob accepted before does not let him back in, and changes nothing.
        let before = try peers.everyone.map { try $0.state() }
        #expect(
            try bob.refusal("accept", shared.url)
                == ControlError(
                    "permission_denied",
                    "the owner refused: you were removed from this share: the owner must invite you again"))
        #expect(try peers.everyone.map { try $0.state() } == before)

        // What alice does next reaches carol, not bob.
        _ = try alice.json("tag", "add", shared.photo, "after")
        try peers.settle()
        #expect(try carol.sees() == ["beach.jpg": ["after", "summer"]])
        #expect(try bob.sees() == [:])
        #expect(try alice.participantStatus(bob, in: shared.share) == "removed")

        // Invited again, bob may accept the same URL.
        _ = try alice.json("share", "invite", shared.share, bob.id)
        #expect(try bob.json("accept", shared.url)["permission"] == "read-only")
        try peers.settle()
        #expect(try bob.sees() == ["beach.jpg": ["after", "summer"]])
        try peers.stop()
    }

    @Test func participantsRemovedOrStoppedWhileOfflinePurgeTheirCopyAtTheirNextContact() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()

        try carol.stop()
        _ = try alice.json("share", "remove", shared.share, carol.id)
        try carol.start()
        try waitUntil("carol's copy to be purged", timeout: .seconds(30)) {
            try carol.json("photo", "list") == [] && carol.liveShares() == []
        }
        #expect(try bob.sees() == ["beach.jpg": ["summer"]])

        try bob.stop()
        _ = try alice.json("share", "stop", shared.share)
        try bob.start()
        try waitUntil("bob's copy to be purged", timeout: .seconds(30)) {
            try bob.json("photo", "list") == [] && bob.liveShares() == []
        }
        #expect(try alice.sees(share: "default") == ["beach.jpg": ["summer"]])
        try peers.stop()
    }

    @Test func aParticipantThatLeavesWhileTheOwnerIsOfflineIsSeenAsRemovedOnceItIsBack() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let shared = try peers.shareBeach()
        try alice.stop()
        _ = try bob.json("share", "leave", shared.share)
        #expect(try bob.json("photo", "list") == [])
        try alice.start(sameAddress: true)
        // Bob's daemon retries telling alice every 15 s; alice dialing bob (refused: bob is no
        // longer a member) makes it tell her at once, and so does bob's `sync`.
        try bob.syncWait()
        try waitUntil("alice to see bob as removed", timeout: .seconds(30)) {
            try alice.participantStatus(bob, in: shared.share) == "removed"
        }
        try bob.daemon.waitForLogLine("<6>told the owner this peer left the share", containing: shared.share)
        try peers.stop()
    }
}
