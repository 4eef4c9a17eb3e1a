import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// The signed membership log beside the share and participant records (issue 12, step 2
/// part 1): the owner issues it, every participant receives and verifies it, and `share
/// show --json` reports it on both sides.
@Suite(.serialized) struct SharingMembershipLogTests {
    /// `share show --json`'s membership object: (operations, matches_records).
    private func membership(_ peer: SharingPeer, _ share: String) throws -> (Int, Bool)? {
        guard let object = try peer.share(share)["membership"],
            let count = object["operations"]?.intValue, case .bool(let matches)? = object["matches_records"]
        else { return nil }
        return (count, matches)
    }

    /// Waits until every peer in `peers` holds `count` operations matching its records.
    private func waitForLog(
        _ count: Int, on peers: [SharingPeer], of share: String, _ what: String
    ) throws {
        try waitUntil("\(what): every copy holds \(count) matching operations", timeout: .seconds(60)) {
            try peers.allSatisfy { peer in try membership(peer, share).map { $0 == (count, true) } ?? false }
        }
    }

    @Test func everyParticipantReachesTheOwnersLogAsItsMembershipChanges() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        // create, the URL's token, bob's and carol's invitations (their accepts come with
        // part 2's join).
        try waitForLog(4, on: peers.everyone, of: shared.share, "after sharing")

        let newcomer = PeerID(digest: randomBytes(32))!.description
        _ = try alice.json("share", "invite", shared.share, newcomer)
        try waitForLog(5, on: peers.everyone, of: shared.share, "after an invitation")
        _ = try alice.json("share", "permission", shared.share, carol.id, "read-write")
        try waitForLog(6, on: peers.everyone, of: shared.share, "after a permission change")
        _ = try alice.json("share", "remove", shared.share, carol.id)
        try waitUntil("carol's copy is purged") { try carol.sees() == [:] }
        try waitForLog(7, on: [alice, bob], of: shared.share, "after a removal")

        // The stop reaches no participant (their copies are purged), and `share show` no
        // longer lists the owner's stopped share: its store holds the stop.
        _ = try alice.json("share", "stop", shared.share)
        let store = try Database(path: alice.daemon.libraryDirectory + "/private.sqlite")
        try waitUntil("the owner's log holds the stop", timeout: .seconds(60)) {
            try store.first("SELECT count(*) FROM membership_operations WHERE zone = ?", shared.share) {
                $0.int(0)
            } == 8
        }
        #expect(alice.log.contains("refused a membership operation") == false)
        #expect(bob.log.contains("refused a membership operation") == false)
        try peers.stop()
    }

    /// What schema 8 (the previous version) left: no membership log.
    private func downgradeToSchema8(_ peer: SharingPeer) throws {
        for store in ["private", "shared"] {
            let database = try Database(path: peer.daemon.libraryDirectory + "/\(store).sqlite")
            try database.execute(
                """
                DROP TABLE membership_operations;
                DROP TABLE signed_sets;
                ALTER TABLE participants DROP COLUMN address;
                DROP TABLE set_authors; DROP TABLE signed_set_tops;
                DELETE FROM stamps WHERE field = 5 AND entity = 2;
                PRAGMA user_version = 8;
                """)
        }
    }

    @Test func anOwnerWrittenBeforeTheLogIssuesItAtStartAndItsParticipantsGetIt() throws {
        let peers = try SharingPeers()
        let shared = try peers.shareBeach()
        for peer in peers.everyone { try peer.stop() }
        for peer in peers.everyone { try downgradeToSchema8(peer) }
        // Same addresses: finding peers that moved is issue 13's, not this test's.
        for peer in peers.everyone { try peer.start(sameAddress: true) }
        try waitForLog(4, on: peers.everyone, of: shared.share, "after the upgrade")
        _ = try peers.bob.json("tag", "add", shared.photo, "sea")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["sea", "summer"]], "\(peer.name)")
        }
        try peers.stop()
    }
}
