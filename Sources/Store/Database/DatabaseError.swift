import CSQLite

/// The one error every SQLite failure becomes, so callers can see what failed and on which
/// statement without ever seeing bound values (which may be photo bytes or secrets).
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The SQLite primary or extended result code.
    public let code: Int32
    /// SQLite's own message for the failure.
    public let message: String
    /// The SQL text that failed, if any; never the bound values.
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }

    /// True when the failure is a constraint violation (unique, foreign key, check).
    public var isConstraintViolation: Bool { code & 0xFF == SQLITE_CONSTRAINT }
    /// True when the disk or the database file is full.
    public var isDiskFull: Bool { code & 0xFF == SQLITE_FULL }
}
