import TestSupport
import Testing

@testable import Store

/// New stores have `Database.pageSize` pages; a store an earlier version wrote with 4 KiB
/// pages opens with them and goes on working.
@Suite struct PageSizeTests {
    func settings(_ store: LibraryStore) throws -> (pageSize: String?, mode: String?, logLimit: String?) {
        try store.read { db in
            (
                try db.scalarString("PRAGMA page_size"), try db.scalarString("PRAGMA journal_mode"),
                try db.scalarString("PRAGMA journal_size_limit")
            )
        }
    }

    @Test func aNewStoreHasTheLargerPagesInWALModeWithItsLogBounded() throws {
        let dir = try TestDirectory()
        let store = try openStore(dir.path + "/private.sqlite", blobs: dir.path + "/blobs")
        let (pageSize, mode, logLimit) = try settings(store)
        #expect(pageSize == "\(Database.pageSize)")
        #expect(Database.pageSize == 8_192)
        #expect(mode == "wal")
        #expect(logLimit == "\(64 << 20)")
    }

    @Test func aStoreWithTheOldPagesKeepsThemAndItsContentAndTakesWrites() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/private.sqlite"
        let photo: String
        do {
            let store = try openStore(path, blobs: dir.path + "/blobs")
            photo = try store.addPhoto(name: "kept.jpg", data: (String(repeating: "b", count: 64), 3))
            _ = try store.tag(photo: photo, name: "summer")
            store.close()
        }
        // As every version before 8 KiB pages created it.
        do {
            let db = try Database(path: path)
            defer { db.close() }
            #expect(try db.scalarString("PRAGMA journal_mode=DELETE") == "delete")
            try db.execute("PRAGMA page_size=4096; VACUUM")
            #expect(try db.scalarString("PRAGMA journal_mode=WAL") == "wal")
        }

        let reopened = try openStore(path, blobs: dir.path + "/blobs")
        let (pageSize, mode, _) = try settings(reopened)
        #expect(pageSize == "4096")
        #expect(mode == "wal")
        #expect(try reopened.photo(photo)?.name == "kept.jpg")
        #expect(try reopened.tags().map(\.name) == ["summer"])
        #expect(try reopened.history().count == 2)
        _ = try reopened.tag(photo: photo, name: "beach")
        #expect(try reopened.tags().map(\.name).sorted() == ["beach", "summer"])
        #expect(try reopened.integrityCheck() == "ok")
    }
}
