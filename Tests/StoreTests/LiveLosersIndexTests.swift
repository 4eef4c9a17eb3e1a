import TestSupport
import Testing

@testable import Store

/// Migration 20: the cleanup that follows every tag finds a zone's live losers on a partial
/// index that holds only them, instead of reading every tag of the zone. A read-only
/// replica keeps its duplicates (it never cleans up), so they are in the index; a store of
/// schema 19 holding such duplicates opens with them indexed and cleans them up when asked.
@Suite struct LiveLosersIndexTests {
    /// A read-only participant that received the same name from two writers: two live tags.
    static func readerWithDuplicates() throws -> (pair: SharedPair, loser: TagRef, winner: TagRef) {
        let pair = try SharedPair(permission: .readOnly)
        let writer = try pair.addParticipant(permission: .readWrite)
        let second = try pair.addSharedPhoto("second.jpg")
        try sync(pair.zone, from: pair.owner.priv, to: writer.shared)
        let a = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        let b = try writer.shared.tag(photo: second, name: "sunset")
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        try sync(pair.zone, from: writer.shared, to: pair.participant.shared)
        return a.uuid < b.uuid ? (pair, b, a) : (pair, a, b)
    }

    static func indexed(_ store: LibraryStore, zone: String) throws -> [String] {
        try store.read { db in
            try db.query(
                "SELECT id FROM tags INDEXED BY tags_live_losers WHERE zone = ? AND deleted = 0 AND winner != id",
                zone
            ) { $0.string(0) }
        }
    }

    @Test func theZonesCleanupReadsItsLosersOffThePartialIndex() throws {
        let (pair, loser, _) = try Self.readerWithDuplicates()
        let reader = pair.participant.shared
        #expect(try Self.indexed(reader, zone: pair.zone) == [loser.id])
        let plan = try reader.read { db in
            try db.execute(LibraryStore.dedupTablesSQL)
            return try db.query(
                "EXPLAIN QUERY PLAN " + LibraryStore.losersSQL(onlyNames: false), pair.zone, 1, 2
            ) { $0.string(3) }
        }
        #expect(plan.contains { $0.contains("USING INDEX tags_live_losers (zone=?)") }, "\(plan)")
        // The owner, which may write, merged its copy when the writer's tag came: nothing is
        // left in its index.
        #expect(try Self.indexed(pair.owner.priv, zone: pair.zone) == [])
    }

    @Test func aStoreOfSchema19HoldingDuplicatesOpensWithThemIndexedAndCleansThemUp() throws {
        let (pair, loser, winner) = try Self.readerWithDuplicates()
        let participant = pair.participant
        let before = try participant.shared.canonicalDump(zone: pair.zone)
        try participant.shared.writeLocal { db in try db.execute(SchemaDowngrade.fromLatest(to: 19)) }
        #expect(
            try participant.shared.read { db in
                try db.first("SELECT count(*) FROM sqlite_master WHERE name = 'tags_live_losers'") {
                    $0.int(0)
                }
            } == 0)
        let path = participant.directory.file("state")
        participant.library.close()

        let reopened = try Library(directory: path, localPeer: participant.peer)
        defer { reopened.close() }
        let store = reopened.sharedStore
        #expect(try isAtLatestSchema(store))
        #expect(try Self.indexed(store, zone: pair.zone) == [loser.id])
        #expect(try store.canonicalDump(zone: pair.zone) == before)
        #expect(try store.deduplicate(zone: pair.zone) == 1)
        #expect(try Self.indexed(store, zone: pair.zone) == [])
        let tags = try store.read { db in
            try db.query("SELECT id, deleted, winner FROM tags WHERE name = 'sunset' ORDER BY id") {
                "\($0.string(0)) \($0.int(1)) \($0.optionalString(2) ?? "-")"
            }
        }
        #expect(
            tags == ["\(loser.id) 2 \(winner.id)", "\(winner.id) 0 \(winner.id)"].sorted(), "\(tags)")
        #expect(try store.stampOrderDrift() == [])
    }
}
