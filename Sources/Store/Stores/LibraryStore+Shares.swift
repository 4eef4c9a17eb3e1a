/// Share membership as replicated data that only the owner changes.
extension LibraryStore {
    /// Creates a share zone owned by this peer and moves the photo's graph into it.
    /// Returns the zone ID.
    public func createShare(photo: String, title: String, publicPermission: Permission) throws -> String {
        try validateName(title, what: "share title")
        guard kind == .private else { throw StoreError.invalid("shares are created from photos you own") }
        let from = try livePhotoZone(photo)
        guard from == Self.defaultZone else {
            throw StoreError.invalid(
                "photo \(photo.prefix(8)) is already shared in \(from.prefix(8)); use share add to move it")
        }
        let zone = ids.next()
        var values: [(EntityField, SQLValue)] = [
            (ShareField.owner, .text(localPeer.description)), (ShareField.title, .text(title)),
            (ShareField.publicPermission, .text(publicPermission.rawValue)),
        ]
        if let person = try localPerson() {
            values.append((ShareField.ownerPerson, .text(person.description)))
        }
        try writeThenDeduplicate([Self.defaultZone, zone]) { tx in
            try createZone(zone, owner: localPeer, tx.db)
            try tx.set(.share, zone, zone: zone, values)
            try movePhoto(photo, into: zone, in: tx)
        }
        return zone
    }

    /// Moves a photo of the default zone into an existing share, then deduplicates the names
    /// of its tags there (and in the default zone it left).
    public func addToShare(photo: String, zone: String) throws {
        try requireOwnedLiveShare(zone)
        let from = try livePhotoZone(photo)
        guard from == Self.defaultZone else {
            throw StoreError.invalid("photo \(photo.prefix(8)) is already in share \(from.prefix(8))")
        }
        try writeThenDeduplicate([Self.defaultZone, zone]) { tx in try movePhoto(photo, into: zone, in: tx) }
    }

    /// Changes a share's title or public permission (nil leaves it): its owner's record,
    /// which replicates to the participants like any other change.
    public func updateShare(_ zone: String, title: String?, publicPermission: Permission?) throws {
        try requireOwnedLiveShare(zone)
        var values: [(EntityField, SQLValue)] = []
        if let title {
            try validateName(title, what: "share title")
            values.append((ShareField.title, .text(title)))
        }
        if let publicPermission {
            values.append((ShareField.publicPermission, .text(publicPermission.rawValue)))
        }
        guard !values.isEmpty else { return }
        try write(author: .local) { tx in try tx.set(.share, zone, zone: zone, values) }
    }

    /// Adds or updates a participant (invite, permission change, accept, removal).
    public func setParticipant(
        zone: String, peer: PeerID, permission: Permission? = nil, status: ParticipantStatus? = nil
    ) throws {
        try requireOwnedLiveShare(zone)
        guard peer != localPeer else {
            throw StoreError.invalid("you own this share; you cannot be its participant")
        }
        var values: [(EntityField, SQLValue)] = [(ParticipantField.peer, .text(peer.description))]
        if let permission {
            guard permission != .none else {
                throw StoreError.invalid("a participant's permission is read-only or read-write")
            }
            values.append((ParticipantField.permission, .text(permission.rawValue)))
        }
        if let status { values.append((ParticipantField.status, .text(status.rawValue))) }
        try write(author: .local) { tx in
            try tx.set(.participant, Self.participantID(zone: zone, peer: peer), zone: zone, values)
        }
    }

    /// A participant's record in this store, if any.
    public func participant(zone: String, peer: PeerID) throws -> Participant? {
        try read { db in
            try db.first(
                "SELECT peer, permission, status, person, address FROM participants WHERE id = ? AND deleted = 0",
                Self.participantID(zone: zone, peer: peer)
            ) { makeParticipant($0) } ?? nil
        }
    }

    /// Stops sharing: marks the share stopped (participants purge their copies at next
    /// contact) and moves the owner's objects back to the default zone, or deletes them.
    public func stopShare(_ zone: String, purge: Bool) throws {
        try requireOwnedLiveShare(zone)
        let hashes = try read { db in
            try db.query("SELECT DISTINCT data_hash FROM photos WHERE zone = ?", zone) {
                $0.optionalString(0)
            }
        }
        try write(author: .local) { tx in
            if purge {
                try hardDelete(zone: zone, entities: [.photo, .tag, .rating, .link], in: tx)
            } else {
                try moveZoneToDefault(zone, in: tx)
            }
            try tx.delete(.share, zone, zone: zone)
        }
        if purge { for hash in hashes.compactMap({ $0 }) { try collectBlob(hash) } }
        try deduplicate(zone: Self.defaultZone)
    }

    /// Records, in the shared store, a zone being accepted from its owner, who listens at
    /// `address` (HOST:PORT).
    public func prepareParticipantZone(_ zone: String, owner: PeerID, address: String? = nil) throws {
        guard kind == .shared else { throw StoreError.invalid("accepted shares live in the shared store") }
        try write(author: .local) { tx in
            try createZone(zone, owner: owner, tx.db)
            if let address { try tx.db.run("UPDATE zones SET address = ? WHERE id = ?", address, zone) }
        }
    }

    /// Creates the zone of a share another device of this person owns or takes part in, so
    /// that it replicates here (its records and content then arrive from that device).
    /// Nothing happens for a zone this store holds already.
    public func prepareSiblingZone(_ zone: String, owner: PeerID, address: String? = nil) throws {
        guard zone != Self.defaultZone else {
            throw StoreError.invalid("the default zone is every library's own")
        }
        try write(author: .local) { tx in
            guard try self.owner(of: zone, tx.db) == nil else { return }
            try createZone(zone, owner: owner, tx.db)
            if let address { try tx.db.run("UPDATE zones SET address = ? WHERE id = ?", address, zone) }
        }
    }

    /// Zones of this store but the default one, with their owner and the owner's address
    /// where known, by ID.
    public func zoneOwners() throws -> [ZoneRecord] {
        try read { db in
            try db.query(
                "SELECT id, owner, address FROM zones WHERE id != ? ORDER BY id", Self.defaultZone,
                map: Self.zoneRecord
            ).compactMap { $0 }
        }
    }

    /// A `zones` row (id, owner, address); nil for an owner that is not a peer ID, which
    /// this store never writes.
    static func zoneRecord(_ row: Row) -> ZoneRecord? {
        guard let owner = try? PeerID(parsing: row.string(1)) else { return nil }
        return ZoneRecord(id: row.string(0), owner: owner, address: row.optionalString(2))
    }

    /// Every share record this store holds.
    public func shares() throws -> [ShareInfo] {
        try read { db in
            let rows = try db.query(
                """
                SELECT z.id, z.owner, s.title, s.public_permission, s.deleted, s.owner_person FROM zones z
                LEFT JOIN shares s ON s.id = z.id WHERE z.id != ? ORDER BY z.created_at, z.id
                """, Self.defaultZone
            ) { row in
                (try? PeerID(parsing: row.string(1))).map {
                    (
                        row.string(0), $0, row.optionalString(2), row.optionalString(3), row.int64(4),
                        row.optionalString(5).flatMap { try? PersonID(parsing: $0) }
                    )
                }
            }
            return try rows.compactMap { $0 }.map { row in
                let participants = try db.query(
                    """
                    SELECT peer, permission, status, person, address FROM participants
                    WHERE zone = ? AND deleted = 0
                    ORDER BY peer
                    """,
                    row.0
                ) { makeParticipant($0) }.compactMap { $0 }
                return ShareInfo(
                    zone: row.0, store: kind, owner: row.1, title: row.2 ?? "",
                    publicPermission: row.3.flatMap(Permission.init(rawValue:)) ?? .none, stopped: row.4 != 0,
                    participants: participants, ownerPerson: row.5)
            }
        }
    }

    public func share(_ zone: String) throws -> ShareInfo? {
        try shares().first { $0.zone == zone }
    }

    /// A participant row (peer, permission, status, person, address); nil for a peer that is not a
    /// peer ID, which validation keeps out of the store.
    func makeParticipant(_ row: Row) -> Participant? {
        guard let peer = try? PeerID(parsing: row.string(0)) else { return nil }
        return Participant(
            peer: peer, permission: Permission(rawValue: row.optionalString(1) ?? "") ?? .none,
            status: ParticipantStatus(rawValue: row.optionalString(2) ?? "") ?? .pending,
            person: row.optionalString(3).flatMap { try? PersonID(parsing: $0) },
            address: row.optionalString(4))
    }

    func requireOwnedLiveShare(_ zone: String) throws {
        try read { db in
            guard let owner = try ownerSide(of: zone, db), zone != Self.defaultZone else {
                throw StoreError.unknownZone(zone)
            }
            guard owner.includes(localPeer) else {
                throw StoreError.permissionDenied(
                    "only the share's owner can change its membership or add photos to it")
            }
            if try isStopped(zone, db) {
                throw StoreError.invalid("share \(zone.prefix(8)) has been stopped")
            }
        }
    }
}
