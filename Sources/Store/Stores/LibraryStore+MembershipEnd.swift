/// Why a peer no longer takes part in a share this store owns: what the owner tells a peer
/// that still holds a copy, so that it purges it.
public enum MembershipEnd: String, Sendable, Equatable {
    /// The owner stopped sharing the zone.
    case stopped
    /// The owner removed the peer, or the peer left (or it never was a participant).
    case removed
}

extension LibraryStore {
    /// Why `peer` does not take part in `zone`, a share this store owns; nil while it does
    /// (invited or accepted), and for zones this store does not own.
    public func membershipEnd(zone: String, peer: PeerID) throws -> MembershipEnd? {
        try read { db in
            // Not for a device that speaks for the owner itself (another device of this person).
            guard zone != Self.defaultZone, let side = try ownerSide(of: zone, db), side.includes(localPeer),
                !side.includes(peer), !isSibling(peer)
            else {
                return nil
            }
            if try isStopped(zone, db) { return .stopped }
            let status = try db.first(
                "SELECT status FROM participants WHERE id = ? AND deleted = 0",
                Self.participantID(zone: zone, peer: peer)
            ) { $0.optionalString(0) }
            switch status.flatMap({ $0 }).flatMap(ParticipantStatus.init(rawValue:)) {
            case .accepted, .pending: return nil
            case .removed, nil: return .removed
            }
        }
    }
}
