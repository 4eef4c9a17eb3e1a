import TestSupport
import Testing

@testable import Store

/// Membership operations as the stores keep them (schema 9), and the libraries written before.
@Suite struct MembershipOperationStoreTests {
    @Test func aLibraryOfSchema8OpensWithTheOperationsTableAndItsSharesIntact() throws {
        let dir = try TestDirectory()
        let state = dir.path + "/state"
        try BlobStore.makeDirectory(state)
        let owner = randomPeer()
        do {
            let db = try Database(path: state + "/private.sqlite")
            for migration in Migrations.all.prefix(8) { try migration.run(db) }
            try db.execute("PRAGMA user_version = 8")
            try db.run("INSERT INTO zones (id, owner, created_at) VALUES ('z1', ?, 1)", owner.description)
            try db.run(
                "INSERT INTO shares (id, zone, owner, title, public_permission) VALUES ('z1', 'z1', ?, 'Old', 'none')",
                owner.description)
        }
        let library = try Library(directory: state, localPeer: owner)
        for name in ["private", "shared"] {
            let db = try Database(path: state + "/\(name).sqlite")
            #expect(try db.first("PRAGMA user_version") { $0.int(0) } == Migrations.all.count)
            let tables = try db.query(
                """
                SELECT name FROM sqlite_master WHERE type = 'table'
                AND name IN ('membership_operations', 'signed_sets') ORDER BY name
                """
            ) { $0.string(0) }
            #expect(tables == ["membership_operations", "signed_sets"], "\(name) store")
        }
        #expect(try library.privateStore.share("z1")?.title == "Old")
        #expect(try library.privateStore.membershipOperations(zone: "z1").isEmpty)
    }

    @Test func operationsAreAddedOnceReadInOrderAndPurgedWithTheZone() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        let first: (hash: [UInt8], bytes: [UInt8]) = ([1, 2], [10, 11])
        let second: (hash: [UInt8], bytes: [UInt8]) = ([3], [12])
        #expect(try store.addMembershipOperations([first, second], zone: pair.zone) == 2)
        #expect(try store.addMembershipOperations([first], zone: pair.zone) == 0, "idempotent")
        #expect(try store.addMembershipOperations([first], zone: "other") == 1, "per zone")
        #expect(try store.membershipOperations(zone: pair.zone) == [[10, 11], [12]])
        try store.purge(zone: pair.zone)
        #expect(try store.membershipOperations(zone: pair.zone).isEmpty)
        #expect(try store.membershipOperations(zone: "other") == [[10, 11]])
    }

    @Test func stampsFollowTheStoresClock() throws {
        let library = try TestLibrary()
        let first = library.priv.nextStamp()
        _ = try library.addPhoto("a.jpg")
        #expect(library.priv.nextStamp() > first)
    }
}
