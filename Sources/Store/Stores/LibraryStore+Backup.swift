/// A consistent copy of a store for a backup, taken while the daemon goes on writing.
extension LibraryStore {
    /// What a store's snapshot holds: its live photos and the data they refer to.
    public struct Snapshot: Sendable {
        public let photos: Int
        /// The data live photos of the snapshot refer to (held here or still pending).
        public let data: [DataReference]
    }

    /// Writes the store as of one moment into a new file at `destination`, through a
    /// connection of its own in one read transaction (SQLite's online backup), so writers are
    /// not held up; returns what that moment held. Call it inside `holdingBlobs`, so the data
    /// it refers to is still there when it is copied.
    public func snapshot(into destination: String) throws -> Snapshot {
        let connection = try Database(path: try read { $0.path })
        defer { connection.close() }
        try connection.execute("BEGIN DEFERRED")
        do {
            // The first read starts the transaction's snapshot; the backup copies that same one.
            let photos =
                try connection.first("SELECT count(*) FROM photos WHERE deleted = 0") { $0.int(0) } ?? 0
            let data = try connection.query(
                """
                SELECT DISTINCT data_hash, data_size FROM photos
                WHERE deleted = 0 AND data_hash IS NOT NULL ORDER BY data_hash
                """
            ) { DataReference(hash: $0.string(0), size: $0.int64(1)) }
            try connection.backup(into: destination)
            try connection.execute("COMMIT")
            return Snapshot(photos: photos, data: data)
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Bytes of data live photos refer to now: what a backup is about to copy, for progress.
    public func liveDataBytes() throws -> Int64 {
        try read { db in
            try db.first(
                """
                SELECT coalesce(sum(data_size), 0) FROM
                (SELECT DISTINCT data_hash, data_size FROM photos WHERE deleted = 0 AND data_hash IS NOT NULL)
                """
            ) { $0.int64(0) } ?? 0
        }
    }
}
