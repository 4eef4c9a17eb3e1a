/// Reading persistent history: transactions after a token, optionally without one author.
extension LibraryStore {
    /// Committed transactions with a token greater than `since`, oldest first.
    /// `excludingAuthor` drops one author ("dedup", "purge", "sync:PEER", "local:CLIENT"), or
    /// a family: "sync" for every peer, "local" for every local command (named clients' too).
    public func history(since: Int64 = 0, excludingAuthor: String? = nil, limit: Int = 10_000) throws
        -> [HistoryEntry]
    {
        try read { db in
            var sql = "SELECT token, author, timestamp, changes FROM history WHERE token > ?"
            var values: [any SQLBindable] = [since]
            if let excluded = excludingAuthor {
                sql += " AND author != ?"
                values.append(excluded)
                if excluded == "sync" || excluded == "local" {
                    sql += " AND author NOT LIKE ?"
                    values.append(excluded + ":%")
                }
            }
            sql += " ORDER BY token LIMIT ?"
            values.append(limit)
            let entries = try db.query(sql, values: values) {
                ($0.int64(0), $0.string(1), $0.int64(2), $0.isNull(3) ? nil : $0.bytes(3))
            }
            return try entries.map { token, author, timestamp, packed in
                // Entries of versions before migration 18 have their changes in rows of their own.
                let changes =
                    try packed.map { HistoryPacking.unpack($0) ?? [] }
                    ?? db.query(
                        "SELECT entity, object, zone, type FROM history_changes WHERE token = ? ORDER BY rowid",
                        token
                    ) {
                        HistoryChange(
                            entity: $0.string(0), id: $0.string(1), zone: $0.string(2),
                            type: ChangeType(rawValue: $0.string(3)) ?? .update)
                    }
                return HistoryEntry(
                    token: token, author: author, store: kind, timestamp: timestamp, changes: changes)
            }
        }
    }

    /// The newest token, 0 when nothing was ever committed.
    public func lastHistoryToken() throws -> Int64 {
        try read { db in try db.first("SELECT max(token) FROM history") { $0.int64(0) } ?? 0 }
    }
}
