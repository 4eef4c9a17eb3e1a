/// The signed accepts this device sent with a join a member admitted while the owner was
/// away (migration 23): what it shows the owner to be ratified when the zone's log holds no
/// accept of its own.
extension LibraryStore {
    /// Keeps `accepts` (encoded operations) as this device's join of `zone`, in place of any
    /// kept before.
    public func keepJoinAccepts(_ accepts: [[UInt8]], zone: String) throws {
        try writeLocal { db in
            try db.run("DELETE FROM join_accepts WHERE zone = ?", zone)
            for accept in accepts {
                try db.run("INSERT OR IGNORE INTO join_accepts (zone, accept) VALUES (?, ?)", zone, accept)
            }
        }
    }

    /// The accepts kept for `zone`, in no particular order.
    public func joinAccepts(zone: String) throws -> [[UInt8]] {
        try read { db in
            try db.query("SELECT accept FROM join_accepts WHERE zone = ?", zone) { $0.bytes(0) }
        }
    }
}
