/// Each zone's signed membership operations, as issued here or received and checked by
/// Replication (which holds the cryptography): stored unchanged, never part of a zone's
/// change sets, and deleted with the zone's copy (`purge(zone:)`).
extension LibraryStore {
    /// Stores operations of `zone` (hash and encoded bytes); ones already held are ignored.
    /// Returns how many were new.
    @discardableResult
    public func addMembershipOperations(_ operations: [(hash: [UInt8], bytes: [UInt8])], zone: String) throws
        -> Int
    {
        guard !operations.isEmpty else { return 0 }
        return try writeLocal { db in
            var added = 0
            for operation in operations {
                try db.run(
                    "INSERT OR IGNORE INTO membership_operations (zone, hash, operation) VALUES (?, ?, ?)",
                    zone, operation.hash, operation.bytes)
                added += db.changes
            }
            return added
        }
    }

    /// The hashes of the operations of `zone` held here: what a received log is compared
    /// with before any of it is checked.
    public func membershipOperationHashes(zone: String) throws -> Set<[UInt8]> {
        try read { db in
            Set(try db.query("SELECT hash FROM membership_operations WHERE zone = ?", zone) { $0.bytes(0) })
        }
    }

    /// The encoded operations of `zone`, in the order they were stored.
    public func membershipOperations(zone: String) throws -> [[UInt8]] {
        try read { db in
            try db.query(
                "SELECT operation FROM membership_operations WHERE zone = ? ORDER BY rowid", zone
            ) { $0.bytes(0) }
        }
    }

    /// A new reading of this store's hybrid logical clock: what a membership operation issued
    /// now is stamped with, so that it orders after every change this store made before.
    public func nextStamp() -> UInt64 { clock.tick() }
}

extension LibraryStore {
    /// Moves this store's hybrid clock past `stamp`, another peer's reading (an owner saying
    /// a joiner's accept was dated too early), so that the next `nextStamp()` orders after
    /// it. Returns false, moving nothing, for a reading further ahead of the wall clock than
    /// the store accepts of any change (`StoreLimits.maxClockAheadMilliseconds`).
    public func moveClock(past stamp: UInt64) -> Bool {
        guard stamp <= limits.aheadLimit(wall: clock.wall()) else { return false }
        clock.observe(stamp)
        return true
    }
}
