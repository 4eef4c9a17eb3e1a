import TestSupport
import Testing

@testable import Store

/// Members' addresses as the stores keep them (schema 5), and the libraries written before.
@Suite struct PeerAddressTests {
    func addresses(_ store: LibraryStore) throws -> [String] {
        try store.participantAddresses().map { "\($0.peer)=\($0.address)" }
    }

    @Test func aLibraryWrittenBeforeAddressesWereKeptOpensUpgradedWithItsSharesIntact() throws {
        let dir = try TestDirectory()
        let state = dir.path + "/state"
        try BlobStore.makeDirectory(state)
        let owner = randomPeer()
        let participant = randomPeer()
        // A private store as the previous version left it: schema 4, one share, one participant.
        do {
            let db = try Database(path: state + "/private.sqlite")
            for migration in Migrations.all.prefix(4) { try migration.run(db) }
            try db.execute("PRAGMA user_version = 4")
            try db.run("INSERT INTO zones (id, owner, created_at) VALUES ('z1', ?, 1)", owner.description)
            try db.run(
                "INSERT INTO shares (id, zone, owner, title, public_permission) VALUES ('z1', 'z1', ?, 'Old', 'none')",
                owner.description)
            try db.run(
                "INSERT INTO participants (id, zone, peer, permission, status) VALUES (?, 'z1', ?, 'read-only', 'accepted')",
                "z1/\(participant)", participant.description)
        }
        let library = try Library(directory: state, localPeer: owner)
        let version = try Database(path: state + "/private.sqlite").first("PRAGMA user_version") { $0.int(0) }
        #expect(version == Migrations.all.count && Migrations.all.count >= 6)
        let share = try #require(try library.privateStore.share("z1"))
        #expect(share.title == "Old" && share.participants.map(\.status) == [.accepted])
        #expect(try addresses(library.privateStore).isEmpty)
        #expect(try library.privateStore.recordAddress("192.0.2.7:7733", of: participant))
        #expect(try addresses(library.privateStore) == ["\(participant)=192.0.2.7:7733"])
        #expect(try library.privateStore.integrityCheck() == "ok")
    }

    @Test func onlyMembersAddressesAreKeptAndTheLatestWins() throws {
        let owner = try TestLibrary()
        let participant = randomPeer()
        let photo = try owner.addPhoto("beach.jpg")
        let zone = try owner.priv.createShare(photo: photo, title: "Beach", publicPermission: .none)
        #expect(try !owner.priv.recordAddress("192.0.2.1:1", of: participant), "not invited: dropped")
        try owner.priv.setParticipant(zone: zone, peer: participant, permission: .readOnly, status: .pending)
        #expect(try owner.priv.recordAddress("192.0.2.1:1", of: participant))
        #expect(try owner.priv.recordAddress("[2001:db8::1]:7733", of: participant))
        #expect(try addresses(owner.priv) == ["\(participant)=[2001:db8::1]:7733"])
        try owner.priv.setParticipant(zone: zone, peer: participant, status: .removed)
        #expect(try !owner.priv.recordAddress("192.0.2.9:9", of: participant), "removed: dropped")

        // A participant keeps its owner's address with the zone.
        let other = try TestLibrary()
        try other.shared.prepareParticipantZone(zone, owner: owner.peer, address: "192.0.2.5:5")
        #expect(try other.shared.recordAddress("192.0.2.6:6", of: owner.peer))
        #expect(try other.shared.zoneOwners().map(\.address) == ["192.0.2.6:6"])
        #expect(try !other.shared.recordAddress("192.0.2.6:6", of: randomPeer()))
    }
}
