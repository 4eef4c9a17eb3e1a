/// Leaving a share ("Remove Me"): the participant's copy is purged at once, and the owner is
/// told at the next contact, which the departure record remembers until then.
extension LibraryStore {
    /// Purges this participant's copy of `zone` and records that its owner must be told (in
    /// one transaction: the copy never goes without the departure), with the stamp of the
    /// leave to tell it: read from the clock now, so that the leave is dated when the
    /// participant left, however late the owner hears of it.
    public func leave(zone: String) throws {
        guard kind == .shared, let owner = try read({ db in try owner(of: zone, db) }) else {
            throw StoreError.unknownZone(zone)
        }
        let address = try read { db in
            try db.first("SELECT address FROM zones WHERE id = ?", zone) { $0.optionalString(0) } ?? nil
        }
        let stamp = nextStamp()
        try purge(zone: zone) { db in
            try db.run(
                "INSERT OR REPLACE INTO departures (zone, owner, address, stamp) VALUES (?, ?, ?, ?)", zone,
                owner.description, address, Int64(bitPattern: stamp))
        }
    }

    /// Shares this participant left whose owner `owner` has not acknowledged yet.
    public func departures(toldTo owner: PeerID) throws -> [String] {
        try read { db in
            try db.query("SELECT zone FROM departures WHERE owner = ?", owner.description) { $0.string(0) }
        }
    }

    /// Every departure not yet acknowledged, by zone.
    public func pendingDepartures() throws -> [Departure] {
        try read { db in
            try db.query("SELECT zone, owner, address, stamp FROM departures ORDER BY zone") { row in
                (try? PeerID(parsing: row.string(1))).map {
                    Departure(
                        zone: row.string(0), owner: $0, address: row.optionalString(2),
                        stamp: row.isNull(3) ? nil : UInt64(bitPattern: row.int64(3)))
                }
            }.compactMap { $0 }
        }
    }

    /// Forgets a departure once the owner has acknowledged it.
    public func departureAcknowledged(zone: String) throws {
        try writeLocal { db in try db.run("DELETE FROM departures WHERE zone = ?", zone) }
    }

    /// The owner's side: marks `peer` as having left `zone`.
    public func participantLeft(zone: String, peer: PeerID) throws {
        guard try participant(zone: zone, peer: peer) != nil else { return }
        try setParticipant(zone: zone, peer: peer, status: .removed)
    }
}
