import CSQLite
import FoundationEssentials
import Glibc

/// One SQLite connection: the only door to the C API.
///
/// A `Database` is used from one thread at a time. A `LibraryStore` keeps its connection
/// private and hands it only to the closures of its `read`, `write` and `writeLocal`, under
/// its lock, so no statement runs outside the lock; `transaction` makes every write one
/// SQLite transaction that a throw rolls back. Prepared statements stay inside the
/// connection (`Row` is valid only during the closure that reads it).
public final class Database: @unchecked Sendable {
    let handle: OpaquePointer
    /// The file this connection opened, for messages.
    public let path: String
    private var statements: [String: Statement] = [:]
    /// The same statements by the address of their text's bytes: the writes of an apply run
    /// a few statements per object whose text is a literal or a string kept in a table, and
    /// hashing that text for every lookup was a twentieth of the apply (issue 17). An entry
    /// keeps its string, so its bytes cannot be freed and another text cannot take the address;
    /// the map is emptied when it reaches 1,024 entries.
    private var statementsByAddress: [UInt: (sql: String, statement: Statement)] = [:]
    private var transactionDepth = 0

    /// Opens (creating if needed) the database at `path`, in WAL mode with foreign keys on.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(DatabaseError) {
        Self.configureOnce
        Self.createPrivately(path)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw DatabaseError(code: rc, message: "\(message) (\(path))")
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        StampFunctions.register(on: db)
        // Takes effect only while the file is empty: a new store. One an earlier version
        // created keeps its 4 KiB pages (rewriting it takes a VACUUM: 17 s for a library of
        // 100,000 photos with their thumbnails, and twice its size on disk, at start-up).
        try execute("PRAGMA page_size=\(Self.pageSize)")
        let mode = try scalarString("PRAGMA journal_mode=WAL")
        guard mode == "wal" else {
            throw DatabaseError(
                code: SQLITE_ERROR, message: "WAL mode refused (got \(mode ?? "nil")) for \(path)")
        }
        try execute("PRAGMA foreign_keys=ON")
        try execute("PRAGMA synchronous=NORMAL")
        // 8 MiB of cached pages per connection (allocated only when used): what a daemon's
        // memory budget allows beside its libraries (SPEC §11: 64 MiB while it takes a
        // 100,000-photo zone). 16 MiB was no faster for big applies (issue 17, the same
        // machine, runs interleaved: a joiner's apply of 100,000 photos 4.48–4.58 s against
        // 4.22–4.40 s, the apply bench 182,000–196,000 against 196,000–204,000 changes/s) and
        // held 8 MiB more of each store's memory.
        try execute("PRAGMA cache_size=-8192")
        try execute("PRAGMA temp_store=MEMORY")
        // The log file is cut back to 64 MiB when it restarts: a large apply can grow it to
        // 128 MiB (`Checkpointer.catchUpPages` of 8 KiB), which it would otherwise keep.
        try execute("PRAGMA journal_size_limit=\(64 << 20)")
    }

    /// Process-wide settings, made before the first connection opens (SQLite takes them only
    /// then): no memory statistics (nothing reads them, and they put a global mutex around
    /// each of SQLite's allocations: 2 % of an apply's instructions).
    private static let configureOnce: Void = {
        _ = peershare_sqlite_disable_memory_statistics()
    }()

    /// Bytes per page of a new store. Every commit writes each page it changed into the log
    /// whole, and each page read or written costs a system call and a copy, so the costs that
    /// count per page fall with larger pages, while each small commit writes more bytes.
    /// Measured on the bench machine (issue 17, interleaved release runs, medians of three):
    /// with 8 KiB pages instead of 4, changes applied 205,300 → 242,800/s, deduplicating
    /// 100,000 tags 0.41 → 0.38 s, a tag at the other peer 0.65 → 0.76 ms p50, the fan-out to
    /// 50 participants within its spread. 16 KiB pages applied no faster than 8 and added 2–4 ms
    /// to the fan-out's p50 in three pairs of three; 1 and 2 KiB pages were slower than 4.
    static let pageSize = 8_192

    deinit {
        close()
    }

    /// Frees the cached pages no statement holds (they are read again when needed).
    func releaseMemory() {
        _ = sqlite3_db_release_memory(handle)
    }

    /// Creates the database file with mode 0600 before SQLite opens it, and makes an
    /// existing one 0600: SQLite creates the `-wal` and `-shm` files with the main file's
    /// mode, so this keeps all three private whatever the process umask. Best effort: when
    /// this fails, opening fails too and SQLite's message says why.
    static func createPrivately(_ path: String) {
        // SQLite's special names are not files: an in-memory or temporary database, a URI.
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = fchmod(fd, 0o600)
        Glibc.close(fd)
    }

    /// Pages in the write-ahead log after the last commit, once `takeOverCheckpoints` ran.
    public private(set) var walPages: Int32 = 0

    /// Replaces SQLite's automatic checkpoint (run inside the commit that fills the log)
    /// with bookkeeping: after each commit `walPages` says how large the log is, and the
    /// owner checkpoints when and where it likes (see `Checkpointer`).
    func takeOverCheckpoints() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            handle,
            { context, _, _, pages in
                Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue().walPages = pages
                return SQLITE_OK
            }, context)
    }

    private var isClosed = false

    /// Closes the connection (checkpointing the write-ahead log when it is the last one);
    /// every later call fails with a "closed" error.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        statementsByAddress.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ rc: Int32, sql: String?) -> DatabaseError {
        DatabaseError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    private func statement(_ sql: String) throws(DatabaseError) -> Statement {
        // Short strings are stored inline, at no lasting address: they take the text's hash.
        let address =
            sql.utf8.count > 15
            ? sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0 : 0
        if address != 0, let hit = statementsByAddress[address], hit.sql.utf8.count == sql.utf8.count {
            return hit.statement
        }
        let stmt: Statement
        if let cached = statements[sql] {
            stmt = cached
        } else {
            guard !isClosed else {
                throw DatabaseError(code: SQLITE_MISUSE, message: "the database \(path) is closed", sql: sql)
            }
            stmt = try Statement(database: self, sql: sql)
            statements[sql] = stmt
        }
        if address != 0 {
            // Texts formatted for each call come with new addresses: starting over now and
            // then keeps them from piling up while the hot ones come back at their next use.
            if statementsByAddress.count >= 1_024 { statementsByAddress.removeAll(keepingCapacity: true) }
            statementsByAddress[address] = (sql, stmt)
        }
        return stmt
    }

    /// Runs one or more statements that take no parameters and return no rows.
    public func execute(_ sql: String) throws(DatabaseError) {
        guard !isClosed else {
            throw DatabaseError(code: SQLITE_MISUSE, message: "the database \(path) is closed", sql: sql)
        }
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw DatabaseError(code: rc, message: text, sql: sql)
        }
    }

    /// Runs one statement with parameters, ignoring any rows.
    public func run(_ sql: String, _ values: any SQLBindable...) throws(DatabaseError) {
        try run(sql, values: values)
    }

    public func run(_ sql: String, values: [any SQLBindable]) throws(DatabaseError) {
        try run(sql, sqlValues: values.map(\.sqlValue))
    }

    /// Runs one statement with plain values, ignoring any rows: the hot path of writes, which
    /// builds its values without boxing each one in an existential.
    public func run(_ sql: String, sqlValues: [SQLValue]) throws(DatabaseError) {
        let stmt = try statement(sql)
        try stmt.bind(sqlValues: sqlValues)
        while try stmt.step() {}
        sqlite3_reset(stmt.handle)
    }

    /// Calls `body` for every row of the query.
    public func forEach(
        _ sql: String, _ values: any SQLBindable..., body: (Row) throws -> Void
    ) throws {
        try forEach(sql, values: values, body: body)
    }

    public func forEach(
        _ sql: String, values: [any SQLBindable], body: (Row) throws -> Void
    ) throws {
        try forEachWhile(sql, values: values) { row in
            try body(row)
            return true
        }
    }

    /// Calls `body` for the rows of the query until it returns false: SQLite steps no further,
    /// so a reader that needs only the first rows of a long range pays for those alone.
    public func forEachWhile(
        _ sql: String, _ values: any SQLBindable..., body: (Row) throws -> Bool
    ) throws {
        try forEachWhile(sql, values: values, body: body)
    }

    public func forEachWhile(
        _ sql: String, values: [any SQLBindable], body: (Row) throws -> Bool
    ) throws {
        let stmt = try statement(sql)
        try stmt.bind(values)
        defer { sqlite3_reset(stmt.handle) }
        while try stmt.step() {
            guard try body(Row(handle: stmt.handle)) else { return }
        }
    }

    /// Maps every row of the query.
    public func query<T>(
        _ sql: String, _ values: any SQLBindable..., map: (Row) throws -> T
    ) throws -> [T] {
        var result: [T] = []
        try forEach(sql, values: values) { row in result.append(try map(row)) }
        return result
    }

    public func query<T>(
        _ sql: String, values: [any SQLBindable], map: (Row) throws -> T
    ) throws -> [T] {
        var result: [T] = []
        try forEach(sql, values: values) { row in result.append(try map(row)) }
        return result
    }

    /// Maps the first row of the query, if any.
    public func first<T>(
        _ sql: String, _ values: any SQLBindable..., map: (Row) throws -> T
    ) throws -> T? {
        var result: T?
        let stmt = try statement(sql)
        try stmt.bind(values)
        defer { sqlite3_reset(stmt.handle) }
        if try stmt.step() { result = try map(Row(handle: stmt.handle)) }
        return result
    }

    func scalarString(_ sql: String) throws(DatabaseError) -> String? {
        let stmt = try Statement(database: self, sql: sql)
        try stmt.bind([])
        guard try stmt.step() else { return nil }
        return Row(handle: stmt.handle).optionalString(0)
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }
    /// Rows this connection has inserted, updated or deleted since it opened: it moves with
    /// every write (a rolled-back one too), so what was read at one value still holds while
    /// it stays.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`); a throw rolls everything back.
    /// Nested calls join the outer transaction through a savepoint.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if transactionDepth > 0 {
            let name = "sp\(transactionDepth)"
            try execute("SAVEPOINT \(name)")
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in one read transaction (`BEGIN DEFERRED`) unless one is open already:
    /// its statements see one snapshot, and the WAL read lock is taken once rather than once
    /// per statement (a pair of `fcntl` calls each: a tenth of computing a delta). A statement
    /// of `body` that writes makes it a write transaction; what `body` did before a throw is
    /// committed, as it was statement by statement without the transaction.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard transactionDepth == 0, sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN DEFERRED")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        let result: T
        do {
            result = try body()
        } catch {
            if (try? execute("COMMIT")) == nil { try? execute("ROLLBACK") }
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// `PRAGMA integrity_check`'s verdict: "ok" on a healthy file.
    public func integrityCheck() throws -> String {
        try query("PRAGMA integrity_check") { $0.string(0) }.joined(separator: "; ")
    }
}
