import TestSupport
import Testing

@testable import Store

/// Schema versions: migrations run once, in order, and a newer file is refused untouched.
@Suite struct MigrationTests {
    func userVersion(_ path: String) throws -> Int? {
        try Database(path: path).first("PRAGMA user_version") { $0.int(0) }
    }

    @Test func aNewStoreIsAtTheLatestSchemaVersion() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/private.sqlite"
        _ = try openStore(path, blobs: dir.path + "/blobs")
        #expect(try userVersion(path) == Migrations.all.count)
    }

    @Test func reopeningAStoreKeepsItsDataAndDoesNotMigrateAgain() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/private.sqlite"
        let photo: String
        do {
            let store = try openStore(path, blobs: dir.path + "/blobs")
            photo = try store.addPhoto(name: "kept.jpg", data: (String(repeating: "a", count: 64), 3))
            try store.read { db in try db.run("INSERT INTO meta (key, value) VALUES ('marker', 'first')") }
        }
        let reopened = try openStore(path, blobs: dir.path + "/blobs")
        #expect(try userVersion(path) == Migrations.all.count)
        #expect(try reopened.photo(photo)?.name == "kept.jpg")
        let marker = try reopened.read { db in
            try db.first("SELECT value FROM meta WHERE key = 'marker'") { $0.string(0) }
        }
        #expect(marker == "first")
        #expect(try reopened.history().count == 1)
        #expect(try reopened.integrityCheck() == "ok")
    }

    @Test func aStoreWrittenByANewerVersionIsRefusedWithAnActionableMessage() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/private.sqlite"
        let newer = Migrations.all.count + 1
        try Database(path: path).execute("PRAGMA user_version = \(newer)")
        let error = try #require(throws: StoreError.self) {
            try openStore(path, blobs: dir.path + "/blobs")
        }
        #expect(error == .schemaTooNew(path: path, version: newer, supported: Migrations.all.count))
        #expect(
            error.description
                == "\(path) was written by a newer PeerShare (schema \(newer), this one knows "
                + "\(Migrations.all.count)): upgrade peershared")
        #expect(error.code == "schema_too_new")
        // Nothing was created in, nor changed of, the newer file.
        #expect(try userVersion(path) == newer)
        #expect(try Database(path: path).query("SELECT name FROM sqlite_master") { $0.string(0) }.isEmpty)
    }

    @Test func everyColumnOfTheFieldTablesExistsInTheMigratedSchema() throws {
        let dir = try TestDirectory()
        let db = try Database(path: dir.path + "/store.sqlite")
        try Migrations.migrate(db)
        for entity in Entity.allCases {
            #expect(try SchemaCheck.missingColumns(of: entity, db) == [], "\(entity.table)")
        }
    }

    @Test func aStoreLackingTheColumnOfAFieldIsRefusedNamingItBeforeAnythingIsWritten() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/private.sqlite"
        do {
            let store = try openStore(path, blobs: dir.path + "/blobs")
            _ = try store.addPhoto(name: "kept.jpg", data: (String(repeating: "a", count: 64), 3))
            store.close()
        }
        do {
            let db = try Database(path: path)
            try db.execute("ALTER TABLE photos DROP COLUMN thumbnail; DELETE FROM zones WHERE id = 'default'")
            db.close()
        }
        let error = try #require(throws: StoreError.self) {
            try openStore(path, blobs: dir.path + "/blobs")
        }
        #expect(error == .schemaMismatch(path: path, table: "photos", missing: ["thumbnail"]))
        #expect(error.code == "schema_mismatch")
        #expect(
            error.description
                == "\(path): table photos lacks the column thumbnail this PeerShare stores fields in; the "
                + "file was changed outside PeerShare or this build lacks a migration: restore the file from a "
                + "backup or reinstall peershared")
        // Opening wrote nothing: not even the default zone a private store always creates.
        let zones = try Database(path: path).query("SELECT id FROM zones") { $0.string(0) }
        #expect(zones.isEmpty)
    }

    @Test func aLibraryWithANewerPrivateStoreDoesNotOpen() throws {
        let dir = try TestDirectory()
        try BlobStore.makeDirectory(dir.path + "/state")
        let path = dir.path + "/state/private.sqlite"
        try Database(path: path).execute("PRAGMA user_version = 99")
        #expect(throws: StoreError.schemaTooNew(path: path, version: 99, supported: Migrations.all.count)) {
            try Library(directory: dir.path + "/state", localPeer: randomPeer())
        }
    }
}
