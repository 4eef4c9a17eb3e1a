import ControlProtocol
import Foundation
import Replication
import Store
import TestSupport
import Testing

/// The signed membership log beside the share and participant records (issue 12, step 2):
/// the owner issues it, joiners sign their accepts and leavers their leaves, every
/// participant receives and verifies it, and `share show --json` reports it on both sides.
@Suite(.serialized, .onOwnThreads) struct SharingMembershipLogTests {
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

    /// `share show --json`'s `membership.participants`: status per person ID.
    private func folded(_ peer: SharingPeer, _ share: String) throws -> [String: String] {
        guard case .array(let participants)? = try peer.share(share)["membership"]?["participants"] else {
            return [:]
        }
        var statuses: [String: String] = [:]
        for participant in participants {
            if let person = participant["person_id"]?.stringValue,
                let status = participant["status"]?.stringValue
            {
                statuses[person] = status
            }
        }
        return statuses
    }

    @Test func everyParticipantReachesTheOwnersLogAsItsMembershipChanges() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        // create, the URL's token, bob's and carol's invitations (under their device IDs)
        // and the accepts they signed with their joins.
        try waitForLog(6, on: peers.everyone, of: shared.share, "after sharing")
        // Invited under their device IDs, both stand accepted in every copy's fold.
        let invited = try [bob, carol].map { PersonID(digest: try PeerID(parsing: $0.id).bytes)!.description }
        for peer in peers.everyone {
            #expect(
                try folded(peer, shared.share) == [invited[0]: "accepted", invited[1]: "accepted"],
                "\(peer.name)")
        }

        let newcomer = PeerID(digest: randomBytes(32))!.description
        _ = try alice.json("share", "invite", shared.share, newcomer)
        try waitForLog(7, on: peers.everyone, of: shared.share, "after an invitation")
        _ = try alice.json("share", "permission", shared.share, carol.id, "read-write")
        try waitForLog(8, on: peers.everyone, of: shared.share, "after a permission change")
        _ = try alice.json("share", "remove", shared.share, carol.id)
        try waitUntil("carol's copy is purged") { try carol.sees() == [:] }
        try waitForLog(9, on: [alice, bob], of: shared.share, "after a removal")

        // The stop reaches no participant (their copies are purged), and `share show` no
        // longer lists the owner's stopped share: its store holds the stop.
        _ = try alice.json("share", "stop", shared.share)
        let store = try Database(path: alice.daemon.libraryDirectory + "/private.sqlite")
        try waitUntil("the owner's log holds the stop", timeout: .seconds(60)) {
            try store.first("SELECT count(*) FROM membership_operations WHERE zone = ?", shared.share) {
                $0.int(0)
            } == 10
        }
        #expect(alice.log.contains("refused a membership operation") == false)
        #expect(bob.log.contains("refused a membership operation") == false)
        try peers.stop()
    }

    @Test func aLeaveSignedByTheLeaverReachesTheOwnersLogAndTheOtherParticipants() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach()
        try waitForLog(6, on: peers.everyone, of: shared.share, "after sharing")
        _ = try bob.json("share", "leave", shared.share)
        // Bob's leave, not a removal by the owner: one operation more, and bob removed.
        try waitForLog(7, on: [alice, carol], of: shared.share, "after bob left")
        let bobEntry = PersonID(digest: try PeerID(parsing: bob.id).bytes)!.description
        for peer in [alice, carol] {
            #expect(try folded(peer, shared.share)[bobEntry] == "removed", "\(peer.name)")
        }
        // The operation is bob's own leave (the owner issues no removal for it).
        let store = try Database(path: alice.daemon.libraryDirectory + "/private.sqlite")
        let actions = try store.query(
            "SELECT operation FROM membership_operations WHERE zone = ?", shared.share
        ) {
            try MembershipOperation(decoding: $0.bytes(0)).action
        }
        let bobPerson = try #require(try bob.json("status")["person_id"]?.stringValue)
        #expect(actions.contains { $0 == .leave(person: try! PersonID(parsing: bobPerson)) })
        #expect(!actions.contains { if case .remove = $0 { return true } else { return false } })
        #expect(alice.log.contains("refused a membership operation") == false)
        #expect(carol.log.contains("refused a membership operation") == false)
        try peers.stop()
    }

    /// What schema 8 (the previous version) left: no membership log.
    private func downgradeToSchema8(_ peer: SharingPeer) throws {
        for store in ["private", "shared"] {
            let database = try Database(path: peer.daemon.libraryDirectory + "/\(store).sqlite")
            try database.execute(SchemaDowngrade.fromLatest(to: 18))
            try database.execute(SchemaDowngrade.toSchema17)
            try database.execute(
                """
                DROP TABLE membership_operations;
                DROP TABLE signed_sets;
                ALTER TABLE participants DROP COLUMN address;
                DROP TABLE set_authors; DROP TABLE signed_set_tops; DROP TABLE log_members; DROP TABLE address_records; DROP TABLE device_links; DROP TABLE join_requests; DROP TABLE ended_shares; DROP TABLE thumbnail_jobs; DROP INDEX photos_by_time; DROP INDEX photos_by_live_hash;
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
