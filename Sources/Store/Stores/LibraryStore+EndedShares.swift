/// Shares that ended for this participant (SPEC §15): when the owner stops a share or removes
/// this person, the copy is purged as before, and the share stays listed, with why, until
/// `share dismiss`. Local bookkeeping in the shared store, never replicated.
extension LibraryStore {
    /// Why a participant's share ended.
    public enum EndReason: String, Sendable {
        /// The owner stopped sharing it.
        case stopped
        /// The owner removed this participant.
        case removed
        /// The owner no longer knows this participant or the share.
        case ended
    }

    /// Purges this participant's copy of `zone` and keeps a note of it (title, owner, why)
    /// for `share list`, when the copy held the share's record.
    public func endShare(_ zone: String, reason: EndReason, message: String) throws {
        let share = kind == .shared ? try share(zone) : nil
        try purge(zone: zone)
        guard let share else { return }
        try writeLocal { db in
            try db.run(
                """
                INSERT OR REPLACE INTO ended_shares (zone, title, owner, owner_person, reason, message, ended_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, zone, share.title, share.owner.description, share.ownerPerson?.description,
                reason.rawValue, message, Int64(bitPattern: HybridLogicalClock.wallMilliseconds()))
        }
    }

    /// The shares that ended for this participant and are not dismissed, newest first.
    public func endedShares() throws -> [EndedShare] {
        try read { db in
            try db.query(
                """
                SELECT zone, title, owner, owner_person, reason, message, ended_at FROM ended_shares
                ORDER BY ended_at DESC, zone
                """
            ) { row in
                (try? PeerID(parsing: row.string(2))).map {
                    EndedShare(
                        zone: row.string(0), title: row.string(1), owner: $0,
                        ownerPerson: row.optionalString(3).flatMap { try? PersonID(parsing: $0) },
                        reason: EndReason(rawValue: row.string(4)) ?? .ended, message: row.string(5),
                        endedAt: row.uint64(6))
                }
            }.compactMap { $0 }
        }
    }

    /// Forgets an ended share (`share dismiss`); false when there was none.
    @discardableResult
    public func dismissEndedShare(_ zone: String) throws -> Bool {
        try writeLocal { db in
            try db.run("DELETE FROM ended_shares WHERE zone = ?", zone)
            return db.changes > 0
        }
    }
}

/// A share that ended for this participant: what `share list` shows until it is dismissed.
public struct EndedShare: Hashable, Sendable {
    public let zone: String
    public let title: String
    public let owner: PeerID
    public let ownerPerson: PersonID?
    public let reason: LibraryStore.EndReason
    /// What the owner, or this daemon, said.
    public let message: String
    /// Wall-clock milliseconds.
    public let endedAt: UInt64
}
