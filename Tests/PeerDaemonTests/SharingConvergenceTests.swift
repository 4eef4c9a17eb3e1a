import ControlProtocol
import Foundation
import TestSupport
import Testing

/// Concurrent edits between three real daemons converge to the same result everywhere.
@Suite(.onOwnThreads) struct SharingConvergenceTests {
    @Test func concurrentSameNameTagsConvergeToTheOneWithTheSmallestUUIDEverywhere() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-only")
        let city = try alice.addPhoto("city.jpg", bytes: randomBytes(200))
        _ = try alice.json("share", "add", city, shared.share)
        try peers.settle()

        // While replication is paused, alice and bob each make a "sunset" tag of their own.
        #expect(try alice.json("pause") == ["paused": true, "peer_id": nil])
        #expect(try bob.cli("pause").stdout == "paused all peers\n")
        #expect(try alice.json("peers").arrayValue?.allSatisfy { $0["paused"] == true } == true)
        let ours = try alice.json("tag", "add", shared.photo, "sunset")
        let theirs = try bob.json("tag", "add", shared.photo, "sunset")
        // Bob's second photo gets his tag too: that link must survive deduplication.
        #expect(try bob.json("tag", "add", city, "sunset")["id"] == theirs["id"])
        let uuids = [ours, theirs].compactMap { $0["uuid"]?.stringValue }
        #expect(uuids.count == 2 && uuids[0] != uuids[1])
        let winner = try #require([ours, theirs].min { $0["uuid"]!.stringValue! < $1["uuid"]!.stringValue! })

        #expect(try alice.json("resume") == ["paused": false, "peer_id": nil])
        #expect(try bob.cli("resume").stdout == "resumed all peers\n")
        try peers.settle()
        for peer in peers.everyone {
            let tags = try #require(try peer.json("tag", "list", "--share", shared.share).arrayValue)
            let sunsets = tags.filter { $0["name"] == "sunset" }
            #expect(sunsets.count == 1, "\(peer.name): \(tags)")
            #expect(sunsets.first?["uuid"] == winner["uuid"], "\(peer.name)")
            #expect(sunsets.first?["id"] == winner["id"], "\(peer.name)")
            #expect(sunsets.first?["photo_count"] == 2, "\(peer.name)")
            #expect(
                try peer.sees(share: shared.share) == [
                    "beach.jpg": ["summer", "sunset"], "city.jpg": ["sunset"],
                ],
                "\(peer.name)")
        }
        // Carol only reads: she shows the canonical result without writing anything.
        let carolsOwn = try carol.json("history", "--store", "shared", "--exclude-author", "sync")
        #expect(carolsOwn == [], "\(carolsOwn)")
        try peers.stop()
    }
}
