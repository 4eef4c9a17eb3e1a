/// Where the members of this store's zones listen, as they said on their connections: the
/// owner of a share dials its participants at these addresses, a participant its owners.
/// Local bookkeeping, never replicated, and kept only for peers that are members.
extension LibraryStore {
    /// Records that `peer` listens at `address` (HOST:PORT), if it is a participant of a
    /// share this store owns (invited or accepted), or the owner of a zone this store takes
    /// part in, or a member its zones' signed logs admit (`log_members`). Returns true when
    /// something was recorded.
    @discardableResult
    public func recordAddress(_ address: String, of peer: PeerID) throws -> Bool {
        let text = peer.description
        return try writeLocal { db in
            var recorded = false
            let participant =
                try db.first(
                    """
                    SELECT 1 FROM participants p JOIN zones z ON z.id = p.zone
                    WHERE p.peer = ? AND p.deleted = 0 AND p.status != ? AND ? = 1 LIMIT 1
                    """, text, ParticipantStatus.removed.rawValue, ownsItsZones
                ) { _ in true } ?? false
            if participant {
                try db.run(
                    """
                    INSERT INTO peer_addresses (peer, address, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (peer) DO UPDATE SET address = excluded.address,
                    updated_at = excluded.updated_at
                    """, text, address, Int64(HybridLogicalClock.wallMilliseconds()))
                recorded = true
            }
            if peer != localPeer {
                try db.run(
                    "UPDATE zones SET address = ? WHERE owner = ? AND id != ?", address, text,
                    Self.defaultZone)
                recorded = recorded || db.changes > 0
                // A member the signed log admits that the records do not name yet.
                try db.run(
                    "UPDATE log_members SET address = ? WHERE device = ? AND permission IS NOT NULL", address,
                    text)
                recorded = recorded || db.changes > 0
            }
            return recorded
        }
    }

    /// The addresses of the participants of shares this store owns, as they last gave them.
    public func participantAddresses() throws -> [MemberAddress] {
        try read { db in
            try db.query("SELECT peer, address FROM peer_addresses ORDER BY peer") { row in
                (try? PeerID(parsing: row.string(0))).map { MemberAddress(peer: $0, address: row.string(1)) }
            }.compactMap { $0 }
        }
    }
}

extension LibraryStore {
    /// Writes `address` into the records of `peer` as a participant of the live shares this
    /// store owns (accepted: an invitation is nobody's business yet) where they say otherwise: the replicated field through
    /// which the share's other members find it. Returns the number of records written.
    @discardableResult
    public func publishParticipantAddress(_ address: String, of peer: PeerID) throws -> Int {
        guard kind == .private, peer != localPeer else { return 0 }
        let zones = try read { db in
            try db.query(
                """
                SELECT p.zone FROM participants p JOIN zones z ON z.id = p.zone JOIN shares s ON s.id = p.zone
                WHERE p.peer = ? AND p.deleted = 0 AND p.status = ? AND ? = 1 AND s.deleted = 0
                AND p.address IS NOT ?
                """, peer.description, ParticipantStatus.accepted.rawValue, ownsItsZones, address
            ) { $0.string(0) }
        }
        guard !zones.isEmpty else { return 0 }
        try write(author: .local) { tx in
            for zone in zones {
                try tx.set(
                    .participant, Self.participantID(zone: zone, peer: peer), zone: zone,
                    [(ParticipantField.address, .text(address))])
            }
        }
        return zones.count
    }
}
