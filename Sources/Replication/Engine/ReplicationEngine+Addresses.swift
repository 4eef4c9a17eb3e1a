import Store
import Support

/// Members' addresses: each peer tells the other where it listens after the hello; the
/// stores keep what members said (participants' addresses at the owner, the owner's in the
/// participant's zones), so that either side dials the other, after a restart too.
extension ReplicationEngine {
    /// Takes the members' addresses the stores know (`Membership.addresses`, read with
    /// membership). A new or changed address is dialed when due at once.
    func adoptAddresses(_ known: [PeerID: PeerAddress]) {
        let changed = state.withLock { state -> Bool in
            var changed = false
            for (peer, address) in known where state.addresses[peer] != address {
                state.addresses[peer] = address
                state.records[peer, default: PeerRecord()].nextDial = nil
                changed = true
            }
            return changed
        }
        if changed { wakeLoop() }
    }

    /// Where the connection's peer said it listens: its first address that is not a
    /// wildcard, or else a wildcard's port on the address it connected from.
    func announcedAddress(of connection: PeerConnection) -> PeerAddress? {
        let announced = connection.status.withLock { $0.announcedAddresses }
        guard var address = announced.first(where: { !$0.isWildcard }) ?? announced.first else { return nil }
        if address.isWildcard {
            guard let seen = PeerAddress(parsing: connection.tls.remoteAddress) else { return nil }
            address.host = seen.host
        }
        return address
    }

    /// Records where the connection's peer said it listens, if it is a member here; a
    /// wildcard host stands for the address it connected from.
    func recordAddress(of connection: PeerConnection) {
        guard let address = announcedAddress(of: connection) else { return }
        let peer = connection.peer
        // Other members find a participant through its record, which the owner writes.
        do {
            try library.privateStore.publishParticipantAddress(address.description, of: peer)
        } catch {
            logger.log(.warning, "cannot write the participant's address \(address): \(error)", peer: peer)
        }
        // Known already (read from the stores, or recorded on an earlier connection).
        guard state.withLock({ $0.addresses[peer] }) != address else { return }
        do {
            var recorded = false
            for store in library.stores {
                recorded = try store.recordAddress(address.description, of: peer) || recorded
            }
            guard recorded else { return }
        } catch {
            logger.log(.warning, "cannot record the peer's address \(address): \(error)", peer: peer)
            return
        }
        let changed = state.withLock { state -> Bool in
            guard state.addresses[peer] != address else { return false }
            state.addresses[peer] = address
            return true
        }
        if changed { logger.log(.info, "the peer listens at \(address)", peer: peer) }
    }
}
