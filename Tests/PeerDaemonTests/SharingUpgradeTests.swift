import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// A library written by the previous release (schema 10, before the mesh gave participant
/// records an address) opens, keeps its shares, and syncs (issue 12): three real daemons
/// taken back to schema 10 and started again on the same addresses.
@Suite(.onOwnThreads) struct SharingUpgradeTests {
    /// What schema 10 (the previous release) left: participant records without an address
    /// (no column, no stamps of participant field 5), no certificates of other devices' sets.
    private func downgradeToSchema10(_ peer: SharingPeer) throws {
        for store in ["private", "shared"] {
            let database = try Database(path: peer.daemon.libraryDirectory + "/\(store).sqlite")
            try database.execute(SchemaDowngrade.fromLatest(to: 18))
            try database.execute(SchemaDowngrade.toSchema17)
            try database.execute(
                """
                ALTER TABLE participants DROP COLUMN address;
                DROP TABLE set_authors; DROP TABLE signed_set_tops; DROP TABLE log_members; DROP TABLE address_records; DROP TABLE device_links; DROP TABLE join_requests; DROP TABLE ended_shares; DROP TABLE thumbnail_jobs; DROP INDEX photos_by_time; DROP INDEX photos_by_live_hash;
                DELETE FROM stamps WHERE field = 5 AND entity = 2;
                PRAGMA user_version = 10;
                """)
        }
    }

    /// The schema version of each of `peer`'s stores.
    private func schemaVersions(_ peer: SharingPeer) throws -> [Int] {
        try ["private", "shared"].map { store in
            let database = try Database(path: peer.daemon.libraryDirectory + "/\(store).sqlite")
            return try database.first("PRAGMA user_version") { $0.int(0) } ?? 0
        }
    }

    /// `share show --json` without the participants' addresses, which schema 10 lacks.
    private func withoutAddresses(_ view: JSON) -> JSON {
        guard case .object(var members) = view, let participants = view["participants"]?.arrayValue else {
            return view
        }
        members["participants"] = .array(
            participants.map { participant in
                guard case .object(var fields) = participant else { return participant }
                fields["address"] = nil
                return .object(fields)
            })
        return .object(members)
    }

    /// What a peer shows of the share's content: photos with their tags, and the tags.
    private func content(_ peer: SharingPeer, _ share: String) throws -> [JSON] {
        [try peer.json("photo", "list", "--share", share), try peer.json("tag", "list", "--share", share)]
    }

    @Test func aLibraryFromBeforeTheMeshOpensKeepsItsSharesAndSyncsThroughTheOwnerAndTheMesh() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let shared = try peers.shareBeach(carolPermission: "read-write")
        let shows = try peers.everyone.map { try $0.share(shared.share) }
        let contents = try peers.everyone.map { try content($0, shared.share) }
        try peers.stop()
        for peer in peers.everyone {
            try downgradeToSchema10(peer)
            #expect(try schemaVersions(peer) == [10, 10], "\(peer.name)")
        }

        // Same addresses: finding peers that moved is issue 13's, not this test's.
        for peer in peers.everyone { try peer.start(sameAddress: true) }
        for (peer, show) in zip(peers.everyone, shows) {
            #expect(try schemaVersions(peer).allSatisfy { $0 > 10 }, "\(peer.name)")
            #expect(try withoutAddresses(peer.share(shared.share)) == withoutAddresses(show), "\(peer.name)")
        }
        // The owner writes every participant's address again once it connects, and the
        // records reach everyone: then each shows the share as it did before.
        try peers.settleAddresses(of: shared.share)
        for (index, peer) in peers.everyone.enumerated() {
            #expect(try peer.share(shared.share) == shows[index], "\(peer.name)")
            #expect(try content(peer, shared.share) == contents[index], "\(peer.name)")
        }

        // Syncs through the owner.
        _ = try bob.json("tag", "add", shared.photo, "sea")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees(share: shared.share) == ["beach.jpg": ["sea", "summer"]], "\(peer.name)")
        }

        // And through the mesh: with alice stopped, carol's tag reaches bob directly, at the
        // address bob read in carol's record as alice wrote it after the upgrade.
        try alice.stop()
        _ = try carol.json("tag", "add", shared.photo, "dunes")
        try waitUntil("bob to see carol's tag with alice stopped", timeout: .seconds(60)) {
            try bob.sees(share: shared.share) == ["beach.jpg": ["dunes", "sea", "summer"]]
        }
        try carol.syncWait(unreachable: [alice])
        try bob.stop()
        try carol.stop()
    }
}
