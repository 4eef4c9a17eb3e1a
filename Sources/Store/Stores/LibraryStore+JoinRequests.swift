/// Join requests (SPEC §15): on the owner's side, an accept of a private share by a device
/// holding a valid URL but no invitation is kept for the owner to approve (`share approve`,
/// which invites it) or deny. Local bookkeeping in the private store, never replicated.
extension LibraryStore {
    /// What became of an uninvited accept.
    public enum JoinRequestOutcome: Equatable, Sendable {
        /// Kept (or already kept) for the owner.
        case recorded
        /// The owner denied this device's request before.
        case denied
        /// The share has `StoreLimits.maxJoinRequests` waiting already (`max_join_requests`).
        case full
    }

    /// Keeps `device`'s request to join `zone` (with its proven `person`, if any).
    func recordJoinRequest(zone: String, device: PeerID, person: PersonID?) throws -> JoinRequestOutcome {
        try writeLocal { db in
            let denied = try db.first(
                "SELECT denied_at IS NOT NULL FROM join_requests WHERE zone = ? AND device = ?", zone,
                device.description
            ) { $0.bool(0) }
            if let denied { return denied ? .denied : .recorded }
            let waiting =
                try db.first("SELECT count(*) FROM join_requests WHERE zone = ? AND denied_at IS NULL", zone)
            {
                $0.int(0)
            } ?? 0
            guard waiting < limits.maxJoinRequests else { return .full }
            try db.run(
                "INSERT INTO join_requests (zone, device, person, requested_at) VALUES (?, ?, ?, ?)", zone,
                device.description, person?.description,
                Int64(bitPattern: HybridLogicalClock.wallMilliseconds()))
            return .recorded
        }
    }

    /// The requests of `zone` waiting for an answer, oldest first.
    public func pendingJoinRequests(zone: String) throws -> [JoinRequestRecord] {
        try read { db in
            try db.query(
                """
                SELECT device, person, requested_at FROM join_requests
                WHERE zone = ? AND denied_at IS NULL ORDER BY requested_at, device
                """, zone
            ) { row in
                (try? PeerID(parsing: row.string(0))).map {
                    JoinRequestRecord(
                        zone: zone, device: $0,
                        person: row.optionalString(1).flatMap { try? PersonID(parsing: $0) },
                        requestedAt: UInt64(row.int64(2)))
                }
            }.compactMap { $0 }
        }
    }

    /// Approves a waiting request: invites its person (or its device, without one) with
    /// `permission`, and forgets the request. The device joins at its next accept.
    public func approveJoinRequest(_ request: JoinRequestRecord, permission: Permission) throws {
        let invited = request.person.map { PeerID(digest: $0.bytes)! } ?? request.device
        _ = try invite(zone: request.zone, member: invited, permission: permission)
        try writeLocal { db in
            try db.run(
                "DELETE FROM join_requests WHERE zone = ? AND device = ?", request.zone,
                request.device.description)
        }
    }

    /// Denies a waiting request: kept as denied, so the device's next accept is refused
    /// without asking the owner again (an invitation still lets it in).
    public func denyJoinRequest(_ request: JoinRequestRecord) throws {
        try writeLocal { db in
            try db.run(
                "UPDATE join_requests SET denied_at = ? WHERE zone = ? AND device = ?",
                Int64(bitPattern: HybridLogicalClock.wallMilliseconds()), request.zone,
                request.device.description)
        }
    }
}

/// A device's request to join a private share it holds the URL of, waiting for the owner.
public struct JoinRequestRecord: Hashable, Sendable {
    public let zone: String
    public let device: PeerID
    /// The person the device proved it belongs to, if it did.
    public let person: PersonID?
    /// Wall-clock milliseconds on the owner's clock.
    public let requestedAt: UInt64
}
