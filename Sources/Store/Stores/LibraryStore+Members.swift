/// A share's members as persons: an invitation, a permission change or a removal names a
/// person or one of its devices, and applies to every participant record of that person.
///
/// Participant records stay per device (the device is what connects and writes); each
/// carries its device's person once the owner has checked the device's list. An invitation
/// of an ID nobody has presented yet is a record under that ID, pending: the first device
/// that joins as that ID, or as a device of that person, takes it over.
extension LibraryStore {
    /// The participant records (their peer keys) that `member` names in `zone`: the record
    /// under that ID, every record whose person it is, and, when it is a device whose
    /// person is known, every record of that person.
    public func participantKeys(zone: String, member: PeerID) throws -> [PeerID] {
        try read { db in
            var persons: Set<String> = [member.description]
            if let person = try personOf(device: member, db) { persons.insert(person.description) }
            var keys: Set<PeerID> = []
            for person in persons {
                let rows = try db.query(
                    "SELECT peer FROM participants WHERE zone = ? AND deleted = 0 AND (peer = ? OR person = ?)",
                    zone, person, person
                ) { try? PeerID(parsing: $0.string(0)) }
                keys.formUnion(rows.compactMap { $0 })
            }
            return keys.sorted()
        }
    }

    /// Invites `member` (a person ID or a device ID) to `zone` with `permission`: its
    /// records take the permission (an accepted one stays accepted, a removed one becomes
    /// pending again), or, for an ID without records, a pending record is made under it.
    /// Returns the records it touched.
    @discardableResult
    public func invite(zone: String, member: PeerID, permission: Permission) throws -> [PeerID] {
        try requireOwnedLiveShare(zone)
        let keys = try participantKeys(zone: zone, member: member)
        guard !keys.isEmpty else {
            try setParticipant(zone: zone, peer: member, permission: permission, status: .pending)
            return [member]
        }
        for key in keys {
            let accepted = try participant(zone: zone, peer: key)?.status == .accepted
            try setParticipant(
                zone: zone, peer: key, permission: permission, status: accepted ? .accepted : .pending)
        }
        return keys
    }

    /// Sets the permission, or the status, of every record `member` names in `zone`;
    /// `StoreError.notFound` for a member the share has no record of.
    @discardableResult
    public func updateMember(
        zone: String, member: PeerID, permission: Permission? = nil, status: ParticipantStatus? = nil
    ) throws -> [PeerID] {
        try requireOwnedLiveShare(zone)
        let keys = try participantKeys(zone: zone, member: member)
        guard !keys.isEmpty else {
            throw StoreError.notFound(kind: "participant", reference: member.description)
        }
        for key in keys { try setParticipant(zone: zone, peer: key, permission: permission, status: status) }
        return keys
    }

    /// Remembers that `device` belongs to `person` (its device list was checked), and, as
    /// the owner, writes the person into the device's participant records that lack it.
    public func notePerson(_ person: PersonID, of device: PeerID) throws {
        let owned = try read { db in
            try db.query(
                """
                SELECT p.zone FROM participants p JOIN zones z ON z.id = p.zone
                WHERE p.peer = ? AND p.deleted = 0 AND p.person IS NULL AND ? = 1
                """, device.description, ownsItsZones
            ) { $0.string(0) }
        }
        let known = try read { db in try personOf(device: device, db) }
        if known != person {
            try writeLocal { db in
                try db.run(
                    "INSERT OR REPLACE INTO device_persons (device, person) VALUES (?, ?)",
                    device.description, person.description)
            }
        }
        guard kind == .private, !owned.isEmpty else { return }
        try write(author: .local) { tx in
            for zone in owned {
                try tx.set(
                    .participant, Self.participantID(zone: zone, peer: device), zone: zone,
                    [
                        (ParticipantField.peer, .text(device.description)),
                        (ParticipantField.person, .text(person.description)),
                    ])
            }
        }
    }

    /// The person `device` belongs to, if this library has checked its device list.
    public func person(of device: PeerID) throws -> PersonID? {
        try read { db in try personOf(device: device, db) }
    }

    /// Writes this library's person into the shares it owns that were made before persons.
    public func claimOwnedShares(for person: PersonID) throws {
        guard kind == .private else { return }
        let zones = try read { db in
            try db.query(
                """
                SELECT s.id FROM shares s JOIN zones z ON z.id = s.id
                WHERE ? = 1 AND s.deleted = 0 AND s.owner_person IS NULL
                """, ownsItsZones
            ) { $0.string(0) }
        }
        guard !zones.isEmpty else { return }
        try write(author: .local) { tx in
            for zone in zones {
                try tx.set(.share, zone, zone: zone, [(ShareField.ownerPerson, .text(person.description))])
            }
        }
    }

    private func personOf(device: PeerID, _ db: Database) throws -> PersonID? {
        try db.first("SELECT person FROM device_persons WHERE device = ?", device.description) {
            try? PersonID(parsing: $0.string(0))
        } ?? nil
    }
}
