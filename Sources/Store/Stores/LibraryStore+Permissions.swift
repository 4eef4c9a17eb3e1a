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

    /// What `peer` may do in `zone`: the owner anything, an accepted participant its
    /// permission, anyone else nothing. A device the records do not settle (no record, or an
    /// invitation not yet accepted) may do what the zone's signed log admits it to
    /// (`log_members`): it joined through a member while the owner was away. A removed
    /// participant's record settles it.
    func permission(of peer: PeerID, in zone: String, _ db: Database) throws -> Permission {
        // Another device of this person: what this device may do (the default zone included).
        if peer != localPeer, isSibling(peer) { return try permission(of: localPeer, in: zone, db) }
        guard let owner = try owner(of: zone, db) else { return .none }
        if peer == owner { return .readWrite }
        if try isStopped(zone, db) { return .none }
        let row = try db.first(
            "SELECT permission, status, deleted FROM participants WHERE id = ?",
            LibraryStore.participantID(zone: zone, peer: peer)
        ) { ($0.optionalString(0), $0.optionalString(1), $0.int64(2)) }
        guard let row, row.2 == 0, row.1 != ParticipantStatus.removed.rawValue else {
            return row == nil ? try logPermission(of: peer, in: zone, db) : .none
        }
        guard row.1 == ParticipantStatus.accepted.rawValue else {
            return try logPermission(of: peer, in: zone, db)
        }
        return row.0.flatMap(Permission.init(rawValue:)) ?? .none
    }

    /// Sets the other current devices of this library's person (from its checked device
    /// list; Replication calls it at start and whenever the list changes).
    public func setSiblings(_ devices: Set<PeerID>) {
        siblingDevices.withLock { $0 = devices.subtracting([localPeer]) }
    }

    /// Whether `peer` is another current device of this library's person.
    public func isSibling(_ peer: PeerID) -> Bool { siblingDevices.withLock { $0.contains(peer) } }

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
