import Store

/// The end of a membership, on both sides of a live connection: the owner tells a peer that
/// still holds a copy of a zone it no longer takes part in (`zoneRevoked`, with the reason),
/// and the peer, hearing it from the zone's authenticated owner, purges its copy.
///
/// This is what purges a removed participant that stays connected to the owner for other
/// zones (`MembershipUpkeep` checks only with owners it is not connected to), and what
/// makes a stopped share's participants purge at once.
extension ReplicationEngine {
    /// If `zone` is a share this peer owns and the connection's peer no longer takes part in
    /// it (removed, left, or the share stopped), stops replicating it on that connection and
    /// tells the peer. Reads the store, not the membership in memory, so a peer accepted a
    /// moment ago is never told otherwise. Returns true when the peer was told.
    @discardableResult
    func revokeIfEnded(_ zone: String, on connection: PeerConnection) -> Bool {
        let ended: MembershipEnd?
        do {
            ended = try library.privateStore.membershipEnd(zone: zone, peer: connection.peer)
        } catch {
            logger.log(
                .warning, "cannot check the membership of zone \(zone): \(error)", peer: connection.peer)
            return false
        }
        guard let ended else { return false }
        logger.log(
            .info, "telling the peer its copy of zone \(zone) is revoked (\(ended.rawValue))",
            peer: connection.peer)
        connection.post(.revoke(zone: zone, reason: Self.revocationReason(ended)))
        return true
    }

    static func revocationReason(_ ended: MembershipEnd) -> String {
        switch ended {
        case .stopped: return "the owner stopped sharing this share"
        case .removed: return "the owner removed you from this share"
        }
    }

    /// Why a share ended, from the reason its owner's notice gives (`revocationReason`).
    static func endReason(of text: String) -> LibraryStore.EndReason {
        if text == revocationReason(.stopped) { return .stopped }
        if text == revocationReason(.removed) { return .removed }
        return .ended
    }

    /// A `zoneRevoked` notice from `peer`: purges this peer's copy of the zone if `peer` owns
    /// it here; from anyone else it is ignored (only the owner ends a membership).
    func revoked(_ frame: Frame, by peer: PeerID) {
        let notice: ZoneNotice
        do {
            notice = try ZoneNotice(frame: frame)
        } catch {
            logger.log(.warning, "ignored a malformed zone revocation: \(error)", peer: peer)
            return
        }
        do {
            guard try library.sharedStore.speaksForOwner(peer, in: notice.zone) else {
                logger.log(
                    .notice, "ignored a revocation of zone \(notice.zone), which the peer does not own here",
                    peer: peer)
                return
            }
            let reason = notice.reason.isEmpty ? "the owner revoked it" : notice.reason
            try library.sharedStore.endShare(
                notice.zone, reason: Self.endReason(of: notice.reason), message: reason)
            logger.log(
                .info, "purged this peer's copy of a share: \(reason) (zone \(notice.zone))", peer: peer)
        } catch {
            logger.log(.error, "cannot purge the copy of share \(notice.zone): \(error)", peer: peer)
        }
    }
}
