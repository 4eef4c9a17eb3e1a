import TestSupport
import Testing

@testable import Store

/// Migration 18 (issue 17): a store written by schema 17 — one stamp row per field, history
/// changes in rows of their own — opens with one stamp row per object and stamp, the same
/// content, the same delta for a peer, and its history intact; writes go on from there.
@Suite struct StampGroupMigrationTests {
    @Test func aStoreOfSchema17KeepsItsStampsDeltaAndHistoryInTheGroupedLayout() throws {
        let library = try TestLibrary()
        let store = library.priv
        let zone = LibraryStore.defaultZone
        let photo = try library.addPhoto("beach.jpg", tags: ["sea"])
        try store.renamePhoto(photo, to: "shore.jpg")
        _ = try store.tag(photo: photo, name: "summer")
        let dump = try store.canonicalDump(zone: zone)
        let delta = try store.changes(zone: zone, since: VectorClock())
        let stampRows = try store.read { db in
            try db.first("SELECT count(*) FROM stamp_order WHERE object = ?", photo) { $0.int(0) }
        }
        // Created in one transaction, renamed in a second: two stamps, so two rows.
        #expect(stampRows == 2)
        // Back to schema 17, with one entry of history as schema 17 wrote it.
        try store.writeLocal { db in
            try db.execute(SchemaDowngrade.fromLatest(to: 18))
            try db.execute(SchemaDowngrade.toSchema17)
            try db.run("INSERT INTO history (author, timestamp) VALUES ('local', 1)")
            try db.run(
                "INSERT INTO history_changes (token, entity, object, zone, type) VALUES (?, 'photo', ?, ?, 'update')",
                db.lastInsertRowID, photo, zone)
        }
        let fieldRows = try store.read { db in
            try db.first("SELECT count(*) FROM stamps WHERE object = ?", photo) { $0.int(0) }
        }
        #expect(fieldRows ?? 0 > 2)
        let reopened = try library.reopen()
        defer { reopened.close() }
        let upgraded = reopened.privateStore
        #expect(try isAtLatestSchema(upgraded))
        #expect(
            try upgraded.read { db in
                try db.first("SELECT count(*) FROM stamp_order WHERE object = ?", photo) { $0.int(0) }
            } == 2)
        #expect(try upgraded.canonicalDump(zone: zone) == dump)
        #expect(try upgraded.changes(zone: zone, since: VectorClock()) == delta)
        let old = try #require(try upgraded.history().last)
        #expect(old.changes == [HistoryChange(entity: "photo", id: photo, zone: zone, type: .update)])
        // Writing goes on in the new layout: the name's bit moves to the new stamp's row.
        try upgraded.renamePhoto(photo, to: "coast.jpg")
        #expect(
            try upgraded.read { db in
                try db.first("SELECT count(*) FROM stamp_order WHERE object = ?", photo) { $0.int(0) }
            } == 2)
        #expect(try upgraded.photo(photo)?.name == "coast.jpg")
        let latest = try #require(try upgraded.history().last)
        #expect(latest.changes == [HistoryChange(entity: "photo", id: photo, zone: zone, type: .update)])
        #expect(try upgraded.integrityCheck() == "ok")
    }

    @Test func packedHistoryChangesReadBackAsWritten() throws {
        let changes = [
            HistoryChange(entity: "photo", id: "p1", zone: "z1", type: .insert),
            HistoryChange(entity: "photo_tag", id: "p1/t1", zone: "z1", type: .update),
            HistoryChange(
                entity: "tag", id: String(repeating: "t", count: 300), zone: "default", type: .delete),
        ]
        let packed = HistoryPacking.pack(changes)
        #expect(HistoryPacking.unpack(packed) == changes)
        #expect(HistoryPacking.unpack(HistoryPacking.pack([])) == [])
        // A truncated or foreign blob is not read as something else.
        #expect(HistoryPacking.unpack(Array(packed.dropLast())) == nil)
        #expect(HistoryPacking.unpack([2] + packed.dropFirst()) == nil)
    }
}
