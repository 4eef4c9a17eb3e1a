/// Members of shared zones that the owner's records do not name yet: the devices the zone's
/// signed membership log admits (a person who joined through a member while the owner was
/// away), and the member this device itself joined through. Local bookkeeping, never
/// replicated; Replication checks the log and writes here, the permission check reads it
/// (`permission(of:in:)`), and the owner's records win as soon as they name the device.
extension LibraryStore {
    /// One such member of one zone.
    public struct LogMember: Equatable, Sendable {
        public var zone: String
        public var device: PeerID
        /// What the log lets the device do; nil for a member known only by where it listens.
        public var permission: Permission?
        /// Where it listens, for a member this device joined through or admitted.
        public var address: String?

        public init(zone: String, device: PeerID, permission: Permission? = nil, address: String? = nil) {
            self.zone = zone
            self.device = device
            self.permission = permission
            self.address = address
        }
    }

    /// Adds or updates one member of `zone`; a nil permission or address keeps what is held.
    public func addLogMember(_ member: LogMember) throws {
        try writeLocal { db in
            try db.run(
                """
                INSERT INTO log_members (zone, device, permission, address) VALUES (?, ?, ?, ?)
                ON CONFLICT (zone, device) DO UPDATE SET
                    permission = coalesce(excluded.permission, permission),
                    address = coalesce(excluded.address, address)
                """, member.zone, member.device.description, member.permission?.rawValue, member.address)
        }
    }

    /// Sets the permissions of `zone`'s members to what the zone's log now admits
    /// (`admitted`): a device the log no longer admits keeps only its address, if it has one.
    public func replaceLogMembers(zone: String, admitted: [PeerID: Permission]) throws {
        try writeLocal { db in
            try db.run("UPDATE log_members SET permission = NULL WHERE zone = ?", zone)
            for (device, permission) in admitted {
                try db.run(
                    """
                    INSERT INTO log_members (zone, device, permission) VALUES (?, ?, ?)
                    ON CONFLICT (zone, device) DO UPDATE SET permission = excluded.permission
                    """, zone, device.description, permission.rawValue)
            }
            try db.run(
                "DELETE FROM log_members WHERE zone = ? AND permission IS NULL AND address IS NULL", zone)
        }
    }

    /// Every such member of every zone of this store, by zone then device.
    public func logMembers() throws -> [LogMember] {
        try read { db in
            try db.query("SELECT zone, device, permission, address FROM log_members ORDER BY zone, device") {
                row -> LogMember? in
                guard let device = try? PeerID(parsing: row.string(1)) else { return nil }
                return LogMember(
                    zone: row.string(0), device: device,
                    permission: row.optionalString(2).flatMap(Permission.init(rawValue:)),
                    address: row.optionalString(3))
            }.compactMap { $0 }
        }
    }

    /// What the log lets `peer` do in `zone`, read by `permission(of:in:)` when the records
    /// do not settle it.
    func logPermission(of peer: PeerID, in zone: String, _ db: Database) throws -> Permission {
        let text = try db.first(
            "SELECT permission FROM log_members WHERE zone = ? AND device = ?", zone, peer.description
        ) { $0.optionalString(0) }
        return text.flatMap { $0.flatMap(Permission.init(rawValue:)) } ?? .none
    }
}
