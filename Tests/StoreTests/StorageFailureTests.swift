import TestSupport
import Testing

@testable import Store

/// A storage failure in the middle of a transaction (disk full, I/O error), injected with a
/// temporary trigger: nothing half-done becomes visible, in the file or in memory, and the
/// next attempt succeeds.
@Suite struct StorageFailureTests {
    /// Makes every insert into `table` fail on this connection until `heal` is called.
    static func breakInserts(into table: String, of store: LibraryStore) throws {
        try store.read { db in
            try db.execute(
                """
                CREATE TEMP TRIGGER fail_\(table) BEFORE INSERT ON main.\(table)
                BEGIN SELECT RAISE(ABORT, 'database or disk is full (simulated)'); END
                """)
        }
    }

    static func heal(_ table: String, of store: LibraryStore) throws {
        try store.read { db in try db.execute("DROP TRIGGER temp.fail_\(table)") }
    }

    @Test func aPhotoWhoseWriteFailsLeavesNoRowNoHistoryAndNoData() throws {
        let lib = try TestLibrary()
        try Self.breakInserts(into: "history", of: lib.priv)
        let file = try lib.directory.write("a.jpg", bytes: pseudoRandomBytes(count: 5_000, seed: 21))
        let error = try #require(throws: DatabaseError.self) {
            try lib.library.addPhoto(file: file, tags: ["sunset"])
        }
        #expect(error.description.contains("database or disk is full (simulated)"))
        #expect(try lib.priv.photos().isEmpty)
        #expect(try lib.priv.tags().isEmpty)
        #expect(try lib.priv.lastHistoryToken() == 0)
        #expect(try lib.priv.clock(of: LibraryStore.defaultZone) == VectorClock())
        #expect(files(under: lib.blobRoot(.private)).isEmpty)

        try Self.heal("history", of: lib.priv)
        let id = try lib.library.addPhoto(file: file, tags: ["sunset"])
        #expect(try lib.priv.photo(id)?.tags.map(\.name) == ["sunset"])
        #expect(try lib.priv.history().count == 1)
        #expect(try lib.priv.integrityCheck() == "ok")
    }

    @Test func aSyncThatFailsMidwayLeavesNothingAndResumes() throws {
        let pair = try SharedPair()
        _ = try pair.owner.priv.tag(photo: pair.photo, name: "sea")
        _ = try pair.owner.priv.rate(photo: pair.photo, value: 5)
        let store = pair.participant.shared
        let dump = try store.canonicalDump(zone: pair.zone)
        let clock = try store.clock(of: pair.zone)
        let token = try store.lastHistoryToken()

        try Self.breakInserts(into: "history", of: store)
        #expect(throws: DatabaseError.self) { try sync(pair.zone, from: pair.owner.priv, to: store) }
        #expect(try store.canonicalDump(zone: pair.zone) == dump)
        #expect(try store.clock(of: pair.zone) == clock)
        #expect(try store.lastHistoryToken() == token)

        try Self.heal("history", of: store)
        try sync(pair.zone, from: pair.owner.priv, to: store)
        #expect(try store.canonicalDump(zone: pair.zone) == pair.owner.priv.canonicalDump(zone: pair.zone))
        #expect(try store.clock(of: pair.zone) == pair.owner.priv.clock(of: pair.zone))
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func aPeerFirstSeenInAFailedSyncKeepsItsOwnIdentity() throws {
        // The failed transaction registered the sender in the peers table, then rolled back;
        // the next new peer must not inherit its number, nor its changes be counted as
        // that other peer's.
        let pair = try SharedPair()
        let other = try pair.addParticipant(permission: .readWrite)
        let owner = pair.owner.priv
        let p = pair.participant
        _ = try p.shared.tag(photo: pair.photo, name: "from p")

        try Self.breakInserts(into: "clocks", of: owner)
        #expect(throws: DatabaseError.self) { try sync(pair.zone, from: p.shared, to: owner) }
        try Self.heal("clocks", of: owner)

        _ = try other.shared.tag(photo: pair.photo, name: "from other")
        try sync(pair.zone, from: other.shared, to: owner)
        try sync(pair.zone, from: p.shared, to: owner)

        let clock = try owner.clock(of: pair.zone)
        #expect(
            clock[p.peer] == (try p.shared.clock(of: pair.zone))[p.peer],
            "owner's clock \(clock); p = \(p.peer.short), other = \(other.peer.short)")
        #expect(clock[other.peer] == (try other.shared.clock(of: pair.zone))[other.peer])
        let stamps = try owner.changes(zone: pair.zone, since: VectorClock())
            .flatMap(\.objects).filter { $0.entity == .tag }
            .map { ($0.fields.first?.stamp.peer, $0.id) }
        let fromP = try #require(try owner.tags(named: "from p").first)
        let fromOther = try #require(try owner.tags(named: "from other").first)
        #expect(
            stamps.contains { $0.0 == p.peer && $0.1 == fromP.id },
            "p's tag is stamped by \(stamps.first { $0.1 == fromP.id }?.0?.short ?? "nobody")")
        #expect(stamps.contains { $0.0 == other.peer && $0.1 == fromOther.id })

        // The same holds for a store opened afresh from the file.
        let reopened = try LibraryStore(
            path: pair.owner.directory.path + "/state/private.sqlite", kind: .private,
            localPeer: pair.owner.peer,
            blobs: try BlobStore(root: pair.owner.blobRoot(.private)), clock: HybridLogicalClock())
        #expect(try reopened.clock(of: pair.zone) == clock)
    }
}
