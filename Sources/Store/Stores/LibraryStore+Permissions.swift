/// Who may do what in a zone, read from the replicated share record.
extension LibraryStore {
    /// The zone's owner, or nil for a zone this store does not hold.
    func owner(of zone: String, _ db: Database) throws -> PeerID? {
        guard let text = try db.first("SELECT owner FROM zones WHERE id = ?", zone, map: { $0.string(0) })
        else {
            return nil
        }
        return try? PeerID(parsing: text)
    }

    /// Who speaks for `zone`'s owner, or nil for a zone this store does not hold. In the
    /// default zone (this person's own library): this device and the person's other devices.
    func ownerSide(of zone: String, _ db: Database) throws -> OwnerSide? {
        guard let owner = try owner(of: zone, db) else { return nil }
        let groups = deviceGroups.withLock { $0 }
        if zone == Self.defaultZone {
            let siblings = groups.local.flatMap { groups.current[$0] } ?? []
            return OwnerSide(device: owner, devices: siblings.union([localPeer]), former: [])
        }
        let named =
            try db.first("SELECT owner_person FROM shares WHERE id = ?", zone) {
                $0.optionalString(0).flatMap { try? PersonID(parsing: $0) }
            } ?? nil
        guard let person = named ?? groups.proven[owner], let devices = groups.current[person] else {
            return OwnerSide(device: owner, devices: nil, former: [])
        }
        return OwnerSide(device: owner, devices: devices, former: groups.ever[person] ?? [])
    }

    /// What `peer` may do in `zone`: any current device of the owner anything, an accepted
    /// participant its permission, anyone else nothing. A device the records do not settle
    /// (no record, or an invitation not yet accepted) may do what an accepted record of its
    /// person gives (another device of a participant), else what the zone's signed log
    /// admits it to (`log_members`: it joined through a member while the owner was away). A
    /// removed participant's record settles it.
    func permission(of peer: PeerID, in zone: String, _ db: Database) throws -> Permission {
        // Another device of this person: what this device may (the default zone included).
        if peer != localPeer, isSibling(peer) { return try permission(of: localPeer, in: zone, db) }
        guard let side = try ownerSide(of: zone, db) else { return .none }
        if side.includes(peer) { return .readWrite }
        if try isStopped(zone, db) { return .none }
        let row = try db.first(
            "SELECT permission, status, deleted FROM participants WHERE id = ?",
            LibraryStore.participantID(zone: zone, peer: peer)
        ) { ($0.optionalString(0), $0.optionalString(1), $0.int64(2)) }
        if let row, row.2 == 0, row.1 == ParticipantStatus.accepted.rawValue {
            return row.0.flatMap(Permission.init(rawValue:)) ?? .none
        }
        if let row, row.2 != 0 || row.1 == ParticipantStatus.removed.rawValue { return .none }
        if let byPerson = try personPermission(of: peer, in: zone, db) { return byPerson }
        return try logPermission(of: peer, in: zone, db)
    }

    /// The best permission an accepted record of a person whose current list names `peer`
    /// gives (another device of a participant), or nil when there is none.
    private func personPermission(of peer: PeerID, in zone: String, _ db: Database) throws -> Permission? {
        var best: Permission?
        for person in deviceGroups.withLock({ $0.persons(of: peer) }) {
            let granted = try db.query(
                "SELECT permission FROM participants WHERE zone = ? AND person = ? AND deleted = 0 AND status = ?",
                zone, person.description, ParticipantStatus.accepted.rawValue
            ) { $0.optionalString(0).flatMap(Permission.init(rawValue:)) }
            for permission in granted.compactMap({ $0 }) where best != .readWrite { best = permission }
        }
        return best
    }

    /// Sets which devices are whose, from the device lists Replication checked (at start
    /// and whenever one changes).
    public func setDeviceGroups(_ groups: DeviceGroups) {
        deviceGroups.withLock { $0 = groups }
    }

    /// 1 in the private store, whose zones (the shares besides the default zone) are all
    /// this person's, made on this device or another of its devices; 0 in the shared
    /// store: a value SQL conditions on "a zone owned here" bind.
    var ownsItsZones: Int { kind == .private ? 1 : 0 }

    /// The persons whose current device list (as Replication last set it) names `device`.
    public func personsListing(_ device: PeerID) -> [PersonID] {
        deviceGroups.withLock { $0.persons(of: device) }
    }

    /// Whether `peer` is another current device of this library's person.
    public func isSibling(_ peer: PeerID) -> Bool {
        guard peer != localPeer else { return false }
        return deviceGroups.withLock { groups in
            groups.local.flatMap { groups.current[$0]?.contains(peer) } ?? false
        }
    }

    /// Whether `peer` is a current device of `zone`'s owner (this device included, for a
    /// zone this person owns).
    public func speaksForOwner(_ peer: PeerID, in zone: String) throws -> Bool {
        try read { db in try ownerSide(of: zone, db)?.includes(peer) ?? false }
    }

    func isStopped(_ zone: String, _ db: Database) throws -> Bool {
        try db.first("SELECT deleted FROM shares WHERE id = ?", zone) { $0.int64(0) != 0 } ?? false
    }

    /// Refuses at once a local write the local peer is not allowed to make in `zone`.
    func requireWrite(_ zone: String, action: String, _ db: Database) throws {
        if try isStopped(zone, db) { throw StoreError.invalid("share \(zone.prefix(8)) has been stopped") }
        let permission = try permission(of: localPeer, in: zone, db)
        guard permission == .readWrite else {
            let why =
                permission == .readOnly
                ? "you have read-only access to this share" : "you are not a member of this share"
            throw StoreError.permissionDenied("cannot \(action): \(why)")
        }
    }

    /// The object ID of a participant record.
    public static func participantID(zone: String, peer: PeerID) -> String { "\(zone)/\(peer)" }
}
