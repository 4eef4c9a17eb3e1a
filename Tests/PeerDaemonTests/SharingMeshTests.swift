import ControlProtocol
import Foundation
import Replication
import Store
import Support
import TestSupport
import Testing

/// The mesh between real daemons (issue 12, SPEC §13): the participants of a share sync with
/// each other directly, so that with the owner's daemon stopped they keep exchanging tags,
/// ratings and photo data, and the owner catches up when it returns. A participant takes
/// from another only what that one wrote, and only while the records it holds let it write.
@Suite(.onOwnThreads) struct SharingMeshTests {
    @Test func withTheOwnerStoppedParticipantsExchangeChangesAndPhotoDataAndTheOwnerCatchesUp() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-write")
        try alice.stop()

        _ = try bob.json("tag", "add", shared.photo, "from-bob")
        _ = try carol.json("rate", shared.photo, "4")
        let bobBytes = randomBytes(30_000)
        let carolBytes = randomBytes(40_000)
        let bobPhoto = try bob.addPhoto("bob.jpg", bytes: bobBytes, share: shared.share, tags: ["dunes"])
        let carolPhoto = try carol.addPhoto("carol.jpg", bytes: carolBytes, share: shared.share)
        let expected: [String: [String]] = [
            "beach.jpg": ["from-bob", "summer"], "bob.jpg": ["dunes"], "carol.jpg": [],
        ]
        for peer in [bob, carol] {
            try waitUntil("\(peer.name) to see both participants' changes") {
                try peer.sees(share: shared.share) == expected
            }
            // In sync with the other participant; the owner is down.
            try peer.syncWait(unreachable: [alice])
            #expect(try peer.exported(bobPhoto) == bobBytes, "\(peer.name)")
            #expect(try peer.exported(carolPhoto) == carolBytes, "\(peer.name)")
            #expect(try peer.ratings(of: shared.photo) == [4], "\(peer.name)")
        }

        try alice.start(sameAddress: true)
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees(share: shared.share) == expected, "\(peer.name)")
            #expect(try peer.exported(bobPhoto) == bobBytes, "\(peer.name)")
            #expect(try peer.exported(carolPhoto) == carolBytes, "\(peer.name)")
            #expect(try peer.ratings(of: shared.photo) == [4], "\(peer.name)")
        }
        // The same tags everywhere (each peer says which of its stores holds them).
        let tags = try peers.everyone.map {
            (try $0.json("tag", "list", "--share", shared.share).arrayValue ?? []).map { tag in
                ["id", "uuid", "name", "zone", "photo_count"].map { tag[$0] ?? .null }
            }
        }
        #expect(tags[0] == tags[1], "\(tags[0]) vs \(tags[1])")
        #expect(tags[0] == tags[2], "\(tags[0]) vs \(tags[2])")
        try peers.stop()
    }

    /// Bob takes from carol only what carol wrote and may write: a change carol forges under
    /// alice's name is dropped, one written while carol is read-only is refused, and a removed
    /// carol is not let in at all. Nothing of it reaches alice when she returns.
    @Test func aParticipantTakesFromAnotherOnlyItsOwnAllowedChanges() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-only")
        let aliceID = try PeerID(parsing: alice.id)
        try alice.stop()
        try carol.stop()
        let before = try bob.state()

        let forger = try ForgingPeer(identityDirectory: carol.daemon.stateDirectory + "/identity")
        // Stamped as alice's: not carol's to deliver, so bob drops it unread.
        let asAlice = try forger.send(to: bob, zone: shared.share) { _ in
            let stamp = Stamp(hlc: HybridLogicalClock().tick(), peer: aliceID)
            return [Self.rename(shared.photo, to: "as-alice.jpg", stamp)]
        }
        #expect(asAlice.type == .changeSetAck, "bob answers the set")
        // Carol's own, but carol is read-only: refused.
        let readOnly = try forger.send(to: bob, zone: shared.share) { stamp in
            [Self.rename(shared.photo, to: "read-only.jpg", stamp)]
        }
        #expect(readOnly.type == .changeSetAck, "bob answers the set (and refuses what is in it)")
        try bob.daemon.waitForLogLine(
            "<4>refused from the peer in zone \(shared.share): photo \(shared.photo): "
                + "\(carol.id.prefix(7)) may not write")
        #expect(try bob.state() == before)

        // Removed (alice back, bob told), carol is no longer let in by bob.
        try alice.start(sameAddress: true)
        _ = try alice.json("share", "remove", shared.share, carol.id)
        try bob.syncWait(unreachable: [])
        try waitUntil("bob to hold carol's removal") {
            try bob.participantStatus(carol, in: shared.share) == "removed"
        }
        #expect(throws: (any Error).self) {
            try forger.send(to: bob, zone: shared.share) { stamp in
                [Self.rename(shared.photo, to: "removed.jpg", stamp)]
            }
        }
        try bob.syncWait()
        for peer in [alice, bob] {
            #expect(try peer.sees(share: shared.share) == ["beach.jpg": ["summer"]], "\(peer.name)")
        }
        try alice.stop()
        try bob.stop()
    }

    private static func rename(_ photo: String, to name: String, _ stamp: Stamp) -> ObjectChange {
        ObjectChange(
            entity: .photo, id: photo,
            fields: [FieldChange(field: PhotoField.name, value: .text(name), stamp: stamp)])
    }
}

extension SharingPeer {
    /// A photo's data as `photo export` writes it.
    func exported(_ photo: String) throws -> [UInt8] {
        let path = directory.path + "/export-\(photo)"
        _ = try json("photo", "export", photo, path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A photo's rating values, sorted.
    func ratings(of photo: String) throws -> [Int] {
        (try json("rating", "list", photo).arrayValue ?? []).compactMap { $0["value"]?.intValue }.sorted()
    }

    /// Adds a photo to `share` and returns its ID.
    func addPhoto(_ name: String, bytes: [UInt8], share: String, tags: [String] = []) throws -> String {
        let file = try directory.write(name, bytes: bytes)
        let added = try daemon.json(
            ["photo", "add", file, "--share", share] + tags.flatMap { ["--tag", $0] })
        guard let id = added["id"]?.stringValue else { throw HarnessError("photo add answered \(added)") }
        return id
    }
}
