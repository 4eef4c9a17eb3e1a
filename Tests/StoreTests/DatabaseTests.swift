import CSQLite
import Foundation
import TestSupport
import Testing

@testable import Store

/// The SQLite layer: connection settings, transactions and savepoints, errors, values.
@Suite struct DatabaseTests {
    struct Failure: Error, Equatable {}

    /// A fresh database file in its own temp directory, with one table of values.
    final class Fixture {
        let dir: TestDirectory
        let db: Database

        init() throws {
            dir = try TestDirectory()
            db = try Database(path: dir.path + "/test.sqlite")
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, secret TEXT, data BLOB)")
        }

        func ids() throws -> [Int] { try db.query("SELECT id FROM t ORDER BY id") { $0.int(0) } }
    }

    /// Texts and blobs are bound from the statement's own copy while they fit in it, and as
    /// SQLite's copy when they do not: either way what is stored is what was bound, empty and
    /// non-ASCII values included, however the same statement was used before.
    @Test func boundTextsAndBlobsAreStoredExactlyWhateverTheirSizes() throws {
        let f = try Fixture()
        let cases: [(String, [UInt8])] = [
            ("short", [1, 2, 3]),
            ("", []),
            (String(repeating: "é", count: 9_000), [UInt8](repeating: 7, count: 20_000)),
            ("x", [UInt8](repeating: 9, count: 300)),
            (String(repeating: "a", count: 16_380), [0, 0]),
        ]
        for (id, (text, bytes)) in cases.enumerated() {
            try f.db.run(
                "INSERT INTO t (id, secret, data) VALUES (?, ?, ?)",
                sqlValues: [.integer(Int64(id)), .text(text), .blob(bytes)])
        }
        let stored = try f.db.query("SELECT secret, data, typeof(secret) FROM t ORDER BY id") {
            ($0.string(0), $0.bytes(1), $0.string(2))
        }
        #expect(stored.map(\.0) == cases.map(\.0))
        #expect(stored.map(\.1) == cases.map(\.1))
        #expect(stored.map(\.2) == Array(repeating: "text", count: cases.count))
        // A query's text parameter, bound the same way, finds each row.
        for (id, (text, _)) in cases.enumerated() {
            #expect(try f.db.first("SELECT id FROM t WHERE secret = ?", text) { $0.int(0) } == id)
        }
    }

    @Test func forEachWhileStopsAtTheFirstFalseAndLeavesTheStatementReusable() throws {
        let f = try Fixture()
        for id in 1...10 { try f.db.run("INSERT INTO t (id) VALUES (?)", id) }
        var seen: [Int] = []
        try f.db.forEachWhile("SELECT id FROM t WHERE id > ? ORDER BY id", 2) { row in
            seen.append(row.int(0))
            return seen.count < 3
        }
        #expect(seen == [3, 4, 5])
        // The same (cached) statement, asked again, starts from its first row.
        var again: [Int] = []
        try f.db.forEachWhile("SELECT id FROM t WHERE id > ? ORDER BY id", 8) { row in
            again.append(row.int(0))
            return true
        }
        #expect(again == [9, 10])
    }

    @Test func aFileDatabaseIsInWALModeWithForeignKeysOn() throws {
        let f = try Fixture()
        #expect(try f.db.first("PRAGMA journal_mode") { $0.string(0) } == "wal")
        #expect(try f.db.first("PRAGMA foreign_keys") { $0.int(0) } == 1)
        #expect(try f.db.integrityCheck() == "ok")
    }

    @Test func aDatabaseThatCannotUseWALIsRefused() throws {
        let error = try #require(throws: DatabaseError.self) { try Database(path: ":memory:") }
        #expect(
            error.description == "SQLite error \(SQLITE_ERROR): WAL mode refused (got memory) for :memory:")
        // A special name, not a file: nothing is created in the working directory.
        #expect(!FileManager.default.fileExists(atPath: ":memory:"))
    }

    @Test func aFileInAMissingDirectoryNamesThePath() throws {
        let dir = try TestDirectory()
        let path = dir.path + "/missing/test.sqlite"
        let error = try #require(throws: DatabaseError.self) { try Database(path: path) }
        #expect(error.code == SQLITE_CANTOPEN)
        #expect(error.description.hasSuffix("(\(path))"))
    }

    @Test func aForeignKeyViolationIsRefused() throws {
        let f = try Fixture()
        try f.db.execute("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t(id))")
        let error = try #require(throws: DatabaseError.self) {
            try f.db.run("INSERT INTO child (id, parent) VALUES (1, 42)")
        }
        #expect(error.isConstraintViolation)
        #expect(error.code == SQLITE_CONSTRAINT | (3 << 8))  // SQLITE_CONSTRAINT_FOREIGNKEY
        #expect(try f.db.query("SELECT id FROM child") { $0.int(0) }.isEmpty)
    }

    @Test func aThrowInsideATransactionRollsEverythingBack() throws {
        let f = try Fixture()
        try f.db.run("INSERT INTO t (id) VALUES (1)")
        #expect(throws: Failure()) {
            try f.db.transaction {
                try f.db.run("INSERT INTO t (id) VALUES (2)")
                try f.db.run("UPDATE t SET secret = 'changed' WHERE id = 1")
                try f.db.run("DELETE FROM t WHERE id = 1")
                throw Failure()
            }
        }
        #expect(try f.ids() == [1])
        #expect(try f.db.first("SELECT secret FROM t WHERE id = 1") { $0.optionalString(0) } == .some(nil))
        // The connection is usable afterwards: the next transaction commits.
        try f.db.transaction { try f.db.run("INSERT INTO t (id) VALUES (3)") }
        #expect(try f.ids() == [1, 3])
    }

    @Test func aFailingNestedTransactionRollsBackOnlyItsSavepoint() throws {
        let f = try Fixture()
        try f.db.transaction {
            try f.db.run("INSERT INTO t (id) VALUES (1)")
            #expect(throws: Failure()) {
                try f.db.transaction {
                    try f.db.run("INSERT INTO t (id) VALUES (2)")
                    throw Failure()
                }
            }
            try f.db.transaction { try f.db.run("INSERT INTO t (id) VALUES (3)") }
            try f.db.run("INSERT INTO t (id) VALUES (4)")
        }
        #expect(try f.ids() == [1, 3, 4])
    }

    @Test func anOuterThrowRollsBackACommittedSavepoint() throws {
        let f = try Fixture()
        #expect(throws: Failure()) {
            try f.db.transaction {
                try f.db.transaction { try f.db.run("INSERT INTO t (id) VALUES (1)") }
                throw Failure()
            }
        }
        #expect(try f.ids().isEmpty)
    }

    @Test func anErrorNamesTheSQLButNeverTheBoundValues() throws {
        let f = try Fixture()
        let sql = "INSERT INTO t (id, secret, data) VALUES (?, ?, ?)"
        try f.db.run(sql, 1, "hunter2-first", [UInt8](repeating: 0xAB, count: 4))
        let error = try #require(throws: DatabaseError.self) {
            try f.db.run(sql, 1, "hunter2-second", [UInt8](repeating: 0xAB, count: 4))
        }
        #expect(error.isConstraintViolation)
        #expect(error.sql == sql)
        #expect(error.description.hasPrefix("SQLite error \(SQLITE_CONSTRAINT | (6 << 8)): "))
        #expect(error.description.contains("(while running: \(sql))"))
        #expect(error.description.contains("UNIQUE constraint failed: t.id"))
        #expect(!error.description.contains("hunter2"))
        #expect(!error.description.lowercased().contains("abab"))
    }

    @Test func aSyntaxErrorNamesTheStatement() throws {
        let f = try Fixture()
        let error = try #require(throws: DatabaseError.self) {
            try f.db.run("SELEKT id FROM t WHERE secret = ?", "hunter2")
        }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.description.contains("syntax error"))
        #expect(error.description.contains("SELEKT id FROM t WHERE secret = ?"))
        #expect(!error.description.contains("hunter2"))
    }

    @Test(arguments: [
        [UInt8](), [0], [0, 1, 2, 255], pseudoRandomBytes(count: 70_000, seed: 7),
    ])
    func blobsRoundTripByteForByte(bytes: [UInt8]) throws {
        let f = try Fixture()
        try f.db.run("INSERT INTO t (id, data) VALUES (1, ?)", bytes)
        #expect(try f.db.first("SELECT data FROM t") { $0.bytes(0) } == bytes)
        #expect(try f.db.first("SELECT data FROM t") { $0.value(0) } == .blob(bytes))
        #expect(try f.db.first("SELECT length(data) FROM t") { $0.int(0) } == bytes.count)
        // An empty blob is still a blob, not NULL.
        #expect(try f.db.first("SELECT data IS NULL FROM t") { $0.bool(0) } == false)
    }

    @Test(arguments: ["", "plain", "naïve café", "日本語のタグ", "🏖️👨‍👩‍👧 sunset", "tab\tand\nnewline"])
    func textRoundTrips(text: String) throws {
        let f = try Fixture()
        try f.db.run("INSERT INTO t (id, secret) VALUES (1, ?)", text)
        #expect(try f.db.first("SELECT secret FROM t") { $0.string(0) } == text)
        #expect(try f.db.first("SELECT secret FROM t") { $0.value(0) } == .text(text))
        #expect(try f.db.first("SELECT length(CAST(secret AS BLOB)) FROM t") { $0.int(0) } == text.utf8.count)
    }

    @Test func textWithAnEmbeddedNULRoundTrips() throws {
        let f = try Fixture()
        let text = "before\u{0}after"
        try f.db.run("INSERT INTO t (id, secret) VALUES (1, ?)", text)
        let storedBytes = try f.db.first("SELECT length(CAST(secret AS BLOB)) FROM t") { $0.int(0) }
        #expect(storedBytes == text.utf8.count, "SQLite holds \(storedBytes ?? -1) bytes")
        let read = try f.db.first("SELECT secret FROM t") { Array($0.string(0).utf8) }
        #expect(read == Array(text.utf8))
    }

    @Test func otherValuesRoundTrip() throws {
        let f = try Fixture()
        try f.db.execute("CREATE TABLE v (i INTEGER, r REAL, n TEXT)")
        try f.db.run("INSERT INTO v VALUES (?, ?, ?)", Int64.min, 0.25, String?.none)
        try f.db.run("INSERT INTO v VALUES (?, ?, ?)", UInt64.max >> 1, -1.5, "x")
        let rows = try f.db.query("SELECT i, r, n FROM v ORDER BY rowid") {
            [$0.value(0), $0.value(1), $0.value(2)]
        }
        #expect(
            rows == [
                [.integer(.min), .real(0.25), .null],
                [.integer(.max), .real(-1.5), .text("x")],
            ])
    }

    @Test func changesCountsTheRowsOfTheLastStatement() throws {
        let f = try Fixture()
        for id in 1...3 { try f.db.run("INSERT INTO t (id) VALUES (?)", id) }
        #expect(f.db.lastInsertRowID == 3)
        try f.db.run("UPDATE t SET secret = 'x' WHERE id >= ?", 2)
        #expect(f.db.changes == 2)
    }
}
