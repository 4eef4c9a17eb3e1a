import CSQLite

/// A prepared statement, owned by one `Database` and never handed out of it.
///
/// Statements are cached by SQL text in the connection, so the same query prepared twice
/// costs one `sqlite3_prepare_v3`.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let database: Database

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

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1…n.
    func bind(_ values: [any SQLBindable]) throws(DatabaseError) {
        try bind(sqlValues: values.map(\.sqlValue))
    }

    /// Resets the statement and binds `values` to parameters 1…n.
    func bind(sqlValues values: [SQLValue]) throws(DatabaseError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
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
            rc = text.withUTF8 { utf8 in
                sqlite3_bind_text(
                    handle, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
                    Int32(utf8.count), peershare_sqlite_transient())
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                rc = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                rc = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(
                        handle, index, raw.baseAddress, Int32(raw.count), peershare_sqlite_transient())
                }
            }
        }
        guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
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
