import ControlProtocol
import Foundation
import Store
import TestSupport
import Testing

/// Shares owned by, and shared with, persons (SPEC §12): an invitation, a permission change
/// or a removal names a person ID or a device ID of that person; each participant record
/// carries its device's person; and shares written before persons gain them on upgrade.
@Suite(.serialized, .onOwnThreads) struct SharingPersonTests {
    @Test func aPersonIsInvitedAdministeredAndRemovedByPersonIDOrDeviceID() throws {
        let peers = try SharingPeers()
        let (alice, bob, carol) = (peers.alice, peers.bob, peers.carol)
        let beach = try alice.addPhoto("beach.jpg", bytes: randomBytes(3000), tags: ["summer"])
        let created = try alice.json("share", "create", beach, "--title", "Holidays")
        let share = try #require(created["share"]?.stringValue)
        let url = try #require(created["url"]?.stringValue)
        #expect(try alice.share(share)["owner_person_id"] == .string(alice.person))

        // Nobody invites themselves, by device or by person.
        for own in [alice.id, alice.person] {
            #expect(
                try alice.refusal("share", "invite", share, own)
                    == ControlError(
                        "invalid_arguments",
                        "share.invite: you own this share; invite someone else's person ID"))
        }
        // Bob's person is invited; carol, with the same URL, is not.
        _ = try alice.json("share", "invite", share, bob.person)
        #expect(
            try carol.refusal("accept", url)
                == ControlError(
                    "join_requested",
                    "the owner has your request to join: this share is private and you are not invited yet: your "
                        + "request to join went to the owner; accept the URL again once they approve it (or invite "
                        + "your person ID (\(carol.person)))"
                ))
        _ = try bob.json("accept", url)
        try peers.settleAddresses(of: share)
        let bobsDevice = try #require(try bob.json("id")["device_name"]?.stringValue)
        let accepted: JSON = [
            "id": .string(bob.id), "peer_id": .string(bob.id), "person_id": .string(bob.person),
            "devices": [.string(bob.id)], "permission": "read-only", "status": "accepted",
            "address": .string(bob.address),
            "person_name": .null, "device_name": .string(bobsDevice),
        ]
        #expect(try alice.share(share)["participants"] == [accepted])
        #expect(try bob.sees() == ["beach.jpg": ["summer"]])
        #expect(try carol.sees() == [:])
        #expect(
            try alice.cli("share", "show", share).stdout.contains(
                "\n  person \(bob.person) (device \(bob.id.prefix(7)) \"\(bobsDevice)\")  read-only  accepted"
            ))

        // Read-only until the owner raises the person (by a prefix of the person ID).
        #expect(try bob.refusal("tag", "add", beach, "sea").code == "permission_denied")
        let raised = try alice.json("share", "permission", share, String(bob.person.prefix(9)), "read-write")
        #expect(raised["person_id"] == .string(bob.person) && raised["permission"] == "read-write")
        try bob.syncWait()
        _ = try bob.json("tag", "add", beach, "sea")
        try peers.settle()
        #expect(try alice.sees() == ["beach.jpg": ["sea", "summer"]])

        // Removed by the device ID: the person's records all go, and bob's copy is purged.
        let removed = try alice.json("share", "remove", share, bob.id)
        #expect(removed["status"] == "removed" && removed["person_id"] == .string(bob.person))
        try waitUntil("bob's copy of the share is purged") { try bob.sees() == [:] }
        #expect(
            try alice.refusal("share", "permission", share, "ZZZZ", "read-only")
                == ControlError("not_found", "no participant matches 'ZZZZ'"))
        try peers.stop()
    }

    /// What schema 7 left: no persons on shares or participants, no membership log.
    private func downgradeToSchema7(_ peer: SharingPeer) throws {
        for store in ["private", "shared"] {
            let database = try Database(path: peer.daemon.libraryDirectory + "/\(store).sqlite")
            try database.execute(SchemaDowngrade.fromLatest(to: 18))
            try database.execute(SchemaDowngrade.toSchema17)
            try database.execute(
                """
                ALTER TABLE shares DROP COLUMN owner_person;
                ALTER TABLE participants DROP COLUMN person;
                DROP TABLE device_persons;
                DROP TABLE membership_operations;
                DROP TABLE signed_sets;
                ALTER TABLE participants DROP COLUMN address;
                DROP TABLE set_authors; DROP TABLE signed_set_tops; DROP TABLE log_members; DROP TABLE address_records; DROP TABLE device_links; DROP TABLE join_requests; DROP TABLE ended_shares; DROP TABLE thumbnail_jobs; DROP INDEX photos_by_time; DROP INDEX photos_by_live_hash;
                DELETE FROM stamps WHERE field IN (4, 5) AND entity IN (1, 2);
                PRAGMA user_version = 7;
                """)
        }
    }

    @Test func sharesWrittenBeforePersonsKeepWorkingAndGainTheirPersons() throws {
        let peers = try SharingPeers()
        let (alice, bob) = (peers.alice, peers.bob)
        let shared = try peers.shareBeach()
        for peer in peers.everyone { try peer.stop() }
        for peer in peers.everyone { try downgradeToSchema7(peer) }
        // Same addresses: finding peers that moved is issue 13's, not this test's.
        for peer in peers.everyone { try peer.start(sameAddress: true) }
        #expect(try alice.share(shared.share)["title"] == "Holidays")

        // The owner names its person on its shares at start, and each participant's person
        // once it connects; both reach the participants.
        try waitUntil("every copy of the share names every person", timeout: .seconds(60)) {
            try peers.everyone.allSatisfy { peer in
                let view = try peer.share(shared.share)
                let persons = view["participants"]?.arrayValue?.compactMap { $0["person_id"]?.stringValue }
                return view["owner_person_id"] == .string(alice.person)
                    && Set(persons ?? []) == [bob.person, peers.carol.person]
            }
        }
        _ = try bob.json("tag", "add", shared.photo, "sea")
        try peers.settle()
        for peer in peers.everyone {
            #expect(try peer.sees() == ["beach.jpg": ["sea", "summer"]], "\(peer.name)")
        }
        try peers.stop()
    }
}
