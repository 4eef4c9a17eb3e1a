import Foundation
import TestSupport
import Testing

/// Issue 10 item 4: photo data goes from every peer when no photo refers to it any more,
/// whoever deleted the photo (the kill -9 run found 401 and 450 orphan files after 863
/// remote deletes).
@Suite(.onOwnThreads) struct SharingDataCleanupTests {
    /// The photo data files a peer holds, by hash, in either store.
    static func dataFiles(_ peer: SharingPeer) -> Set<String> {
        var hashes: Set<String> = []
        for store in ["private", "shared"] {
            let root = peer.daemon.libraryDirectory + "/blobs/" + store
            for directory in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
            where directory.count == 2 {
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + directory)) ?? []
                hashes.formUnion(names)
            }
        }
        return hashes
    }

    @Test func dataOfAPhotoDeletedByAnotherPeerIsRemovedEverywhere() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-write", size: 20_000)
        let file = try bob.directory.write("second.jpg", bytes: randomBytes(30_000))
        let second = try #require(
            try bob.json("photo", "add", file, "--share", shared.share)["id"]?.stringValue)
        try peers.settle()
        let beachHash = try #require(try alice.json("photo", "show", shared.photo)["sha256"]?.stringValue)
        let secondHash = try #require(try carol.json("photo", "show", second)["sha256"]?.stringValue)
        for peer in peers.everyone {
            #expect(Self.dataFiles(peer).isSuperset(of: [beachHash, secondHash]), "\(peer.name)")
        }

        // A participant deletes the owner's photo, the owner deletes the participant's.
        _ = try carol.json("photo", "delete", shared.photo)
        _ = try alice.json("photo", "delete", second)
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees(share: shared.share) == [:], "\(peer.name)")
            #expect(Self.dataFiles(peer).isDisjoint(with: [beachHash, secondHash]), "\(peer.name)")
        }
        try peers.stop()
    }
}
