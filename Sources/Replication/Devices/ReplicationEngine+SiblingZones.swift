import Store
import Support

/// A person's devices tell each other which shares they hold, so that each creates the
/// zones it lacks and the whole library replicates (SPEC §12): the shares the person owns
/// go into the private store, those it takes part in into the shared store.
extension ReplicationEngine {
    /// The zones this library holds besides the default one.
    func siblingZones() -> SiblingZonesMessage {
        var entries: [SiblingZonesMessage.Entry] = []
        for store in library.stores {
            let stopped = Set(((try? store.shares()) ?? []).filter(\.stopped).map(\.zone))
            for zone in (try? store.zoneOwners()) ?? [] where !stopped.contains(zone.id) {
                entries.append(
                    .init(
                        zone: zone.id, shared: store.kind == .shared, owner: zone.owner,
                        address: zone.address ?? ""))
            }
        }
        return SiblingZonesMessage(entries)
    }

    /// Tells each connected device of this person the zones this library holds.
    func announceZonesToSiblings() {
        let message = siblingZones()
        let siblings = state.withLock { state in
            state.current.filter { state.membership.siblings.contains($0.peer) }
        }
        for connection in siblings { connection.post(.sendSiblingZones(message)) }
    }

    /// Another device of this person holds `frame`'s zones: those this library lacks are
    /// created (in the store the sender keeps them in) and replicate from then on. From
    /// any other peer the message is ignored: only the person's devices hold its library.
    func receivedSiblingZones(_ frame: Frame, from connection: PeerConnection) {
        let peer = connection.peer
        guard state.withLock({ $0.membership.siblings.contains(peer) }) else {
            logger.log(
                .notice, "ignored a zone list from a device that is not one of this person's", peer: peer)
            return
        }
        let message: SiblingZonesMessage
        do {
            message = try SiblingZonesMessage(frame: frame)
        } catch {
            logger.log(.warning, "ignored a malformed zone list: \(error)", peer: peer)
            return
        }
        // The zones held here, read once (either store: a zone is never in both).
        let held: Set<String>
        do {
            held = Set(try library.stores.flatMap { try $0.zoneOwners().map(\.id) })
        } catch {
            logger.log(.warning, "could not read this library's zones: \(error)", peer: peer)
            return
        }
        var created = 0
        for entry in message.zones where entry.zone != LibraryStore.defaultZone && !held.contains(entry.zone)
        {
            let store = entry.shared ? library.sharedStore : library.privateStore
            do {
                let address = entry.address.isEmpty ? nil : entry.address
                try store.prepareSiblingZone(entry.zone, owner: entry.owner, address: address)
                created += 1
            } catch {
                logger.log(
                    .warning, "could not create zone \(entry.zone) held by another device: \(error)",
                    peer: peer)
            }
        }
        guard created > 0 else { return }
        logger.log(.info, "holds \(created) more zones of this person's library", peer: peer)
        applyMembership()
    }
}
