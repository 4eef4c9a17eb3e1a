import CSQLite

/// A prepared statement, owned by one `Database` and never handed out of it.
///
/// Statements are cached by SQL text in the connection, so the same query prepared twice
/// costs one `sqlite3_prepare_v3`.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let database: Database
    /// Where the texts and blobs of the current bindings are copied, bound without SQLite
    /// making its own copy (an allocation and a free for each: a twentieth of an apply). It
    /// is rewritten only by the next `bind`, which first resets the statement and rebinds or
    /// clears every parameter.
    private var arena = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// Where the current bind's next text or blob goes in `arena`; nil while the bind's
    /// values are too large for it together.
    private var arenaOffset: Int?
    /// Values larger than this together are bound as SQLite's own copies instead.
    private static let arenaLimit = 16 << 10

    init(database: Database, sql: String) throws(DatabaseError) {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(
            database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw database.error(rc, sql: sql)
        }
        self.handle = stmt
        self.sql = sql
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
        arena.deallocate()
    }

    /// Resets the statement and binds `values` to parameters 1…n.
    func bind(_ values: [any SQLBindable]) throws(DatabaseError) {
        try bind(sqlValues: values.map(\.sqlValue))
    }

    /// Resets the statement and binds `values` to parameters 1…n.
    func bind(sqlValues values: [SQLValue]) throws(DatabaseError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        var needed = 0
        for value in values {
            if case .text(let text) = value { needed += text.utf8.count }
            if case .blob(let bytes) = value { needed += bytes.count }
        }
        arenaOffset = needed <= Self.arenaLimit ? 0 : nil
        if arenaOffset != nil && needed > arena.count {
            arena.deallocate()
            arena = .allocate(byteCount: max(needed, 256), alignment: 8)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) throws(DatabaseError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            var text = v
            rc = text.withUTF8 {
                bindBytes(UnsafeRawBufferPointer($0), at: index, asText: true)
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                rc = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                rc = bytes.withUnsafeBytes { bindBytes($0, at: index, asText: false) }
            }
        }
        guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
    }

    /// Binds `bytes` as a text or a blob: copied into the arena at `arenaOffset` (then moved
    /// past them) and bound as they lie there, or, without an offset, as SQLite's own copy.
    private func bindBytes(_ bytes: UnsafeRawBufferPointer, at index: Int32, asText: Bool) -> Int32 {
        var pointer = bytes.baseAddress
        var destructor = peershare_sqlite_transient()
        if let offset = arenaOffset, let source = bytes.baseAddress, !bytes.isEmpty {
            let target = arena.baseAddress! + offset
            target.copyMemory(from: source, byteCount: bytes.count)
            pointer = UnsafeRawPointer(target)
            destructor = nil  // SQLITE_STATIC: the arena outlives the binding.
            arenaOffset = offset + bytes.count
        }
        return asText
            ? sqlite3_bind_text(
                handle, index, pointer?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), destructor)
            : sqlite3_bind_blob(handle, index, pointer, Int32(bytes.count), destructor)
    }

    /// Advances one row; false when done.
    func step() throws(DatabaseError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error(rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }
}

/// One result row, valid only until the statement steps again.
public struct Row {
    let handle: OpaquePointer

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func isNull(_ i: Int) -> Bool { sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL }
    public func int64(_ i: Int) -> Int64 { sqlite3_column_int64(handle, Int32(i)) }
    public func int(_ i: Int) -> Int { Int(sqlite3_column_int64(handle, Int32(i))) }
    public func uint64(_ i: Int) -> UInt64 { UInt64(bitPattern: sqlite3_column_int64(handle, Int32(i))) }
    public func bool(_ i: Int) -> Bool { sqlite3_column_int64(handle, Int32(i)) != 0 }
    public func double(_ i: Int) -> Double { sqlite3_column_double(handle, Int32(i)) }

    public func string(_ i: Int) -> String {
        guard let text = sqlite3_column_text(handle, Int32(i)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    public func optionalString(_ i: Int) -> String? { isNull(i) ? nil : string(i) }

    public func bytes(_ i: Int) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        guard count > 0, let base = sqlite3_column_blob(handle, Int32(i)) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: base, count: count))
    }

    public func optionalBytes(_ i: Int) -> [UInt8]? { isNull(i) ? nil : bytes(i) }

    public func value(_ i: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: return .integer(int64(i))
        case SQLITE_FLOAT: return .real(double(i))
        case SQLITE_TEXT: return .text(string(i))
        case SQLITE_BLOB: return .blob(bytes(i))
        default: return .null
        }
    }
}
