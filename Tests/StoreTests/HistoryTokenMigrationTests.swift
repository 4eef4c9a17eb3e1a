import TestSupport
import Testing

@testable import Store

/// Migration 21: history tokens are a plain `INTEGER PRIMARY KEY`, so a commit that records
/// history no longer writes `sqlite_sequence` too. A store of schema 20, with entries of both
/// forms (packed, and an old one whose changes are rows of `history_changes`), opens with
/// every entry under its token, and the next entry takes the token after the last.
@Suite struct HistoryTokenMigrationTests {
    static func sequenceRows(_ store: LibraryStore) throws -> Int? {
        try store.read { db in
            try db.first("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'") { $0.int(0) }
                == 0
                ? 0 : db.first("SELECT count(*) FROM sqlite_sequence WHERE name = 'history'") { $0.int(0) }
        }
    }

    @Test func aStoreOfSchema20KeepsEveryEntryAndItsTokensAndCountsOnFromTheLast() throws {
        let library = try TestLibrary()
        let store = library.priv
        let photo = try library.addPhoto("beach.jpg", tags: ["sand"])
        try store.renamePhoto(photo, to: "shore.jpg")
        let zone = LibraryStore.defaultZone
        try store.writeLocal { db in
            try db.execute(SchemaDowngrade.fromLatest(to: 20))
            // An entry as versions before migration 18 wrote it: its changes in rows.
            try db.run("INSERT INTO history (author, timestamp) VALUES ('local', 1)")
            try db.run(
                "INSERT INTO history_changes (token, entity, object, zone, type) VALUES (?, 'photo', ?, ?, 'update')",
                db.lastInsertRowID, photo, zone)
        }
        #expect(try Self.sequenceRows(store) == 1)
        let before = try store.history()
        #expect(before.count >= 3)
        let reopened = try library.reopen()
        defer { reopened.close() }
        let upgraded = reopened.privateStore
        #expect(try isAtLatestSchema(upgraded))
        #expect(try upgraded.history() == before)
        #expect(
            before.last?.changes == [HistoryChange(entity: "photo", id: photo, zone: zone, type: .update)])
        let schema = try upgraded.read { db in
            try db.first("SELECT sql FROM sqlite_master WHERE name = 'history'") { $0.string(0) }
        }
        #expect(schema?.contains("AUTOINCREMENT") == false, "\(schema ?? "no history table")")

        // The next entry takes the token after the last, and nothing is kept for it elsewhere.
        let last = try #require(before.last?.token)
        try upgraded.renamePhoto(photo, to: "dunes.jpg")
        let next = try upgraded.history(since: last)
        #expect(next.map(\.token) == [last + 1])
        #expect(next.first?.changes == [HistoryChange(entity: "photo", id: photo, zone: zone, type: .update)])
        #expect(try Self.sequenceRows(upgraded) == 0)
        #expect(try upgraded.read { db in try db.first("PRAGMA integrity_check") { $0.string(0) } } == "ok")
        #expect(try upgraded.read { db in try db.query("PRAGMA foreign_key_check") { $0.string(0) } } == [])
    }

    @Test func aNewStoreKeepsNoSequenceForItsHistory() throws {
        let library = try TestLibrary()
        _ = try library.addPhoto("a.jpg", tags: ["one"])
        #expect(try Self.sequenceRows(library.priv) == 0)
        #expect(try library.priv.lastHistoryToken() == library.priv.history().last?.token)
    }
}
