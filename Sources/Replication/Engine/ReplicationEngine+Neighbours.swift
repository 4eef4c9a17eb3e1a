import Store

/// Neighbours: each member tells the peers it replicates with which members it is connected
/// to (`NeighboursMessage`, docs/PROTOCOL.md §7.9; at most once per loop tick), so that a member relaying others' signed
/// sets while the owner is away passes them only to peers that are not connected to the
/// sets' authors (an author pushes its own sets to every connection). Without it, every
/// member passes every set to every connection: members × connections messages per change.
extension ReplicationEngine {
    /// Tells each current connection's peer the members this side is connected to now,
    /// among the members of the zones it replicates with that peer (nobody else's
    /// connections are its business), when that changed since it was last told.
    func announceNeighbours() {
        let plan = state.withLock { state -> [(PeerConnection, Set<PeerID>)] in
            let current = state.current
            return current.map { connection in
                let shared = Set(state.membership.zones(with: connection.peer).map(\.zone))
                let devices = current.map(\.peer).filter { peer in
                    peer != connection.peer
                        && state.membership.zones(with: peer).contains { shared.contains($0.zone) }
                }
                return (connection, Set(devices))
            }
        }
        for (connection, devices) in plan {
            let changed = connection.status.withLock { status -> Bool in
                guard status.toldNeighbours != devices else { return false }
                status.toldNeighbours = devices
                return true
            }
            if changed { connection.post(.sendNeighbours(devices.sorted())) }
        }
    }

    /// The peer told which members it is connected to. One it is no longer connected to may
    /// have taken sets from that member directly that it now lacks: this side checks again
    /// what the peer lacks of every zone they replicate whose owner is away (with the owner
    /// connected, its deltas bring everything).
    func neighboursAnnounced(_ devices: Set<PeerID>, on connection: PeerConnection) {
        let (lost, zones) = connection.status.withLock { status -> (Bool, Set<String>) in
            let lost = status.neighbours.map { !$0.subtracting(devices).isEmpty } ?? false
            status.neighbours = devices
            return (lost, status.zones)
        }
        guard lost else { return }
        for zone in zones where !ownerConnected(zone: zone) { connection.post(.setsChanged(zone: zone)) }
    }

    /// Whether `connection`'s peer, by what it last said, is connected to every one of
    /// `authors` (or is one of them): then it has their sets from them directly.
    func reachesDirectly(_ authors: Set<PeerID>, _ connection: PeerConnection) -> Bool {
        guard !authors.isEmpty else { return false }
        let neighbours = connection.status.withLock { $0.neighbours }
        guard let neighbours else { return false }
        return authors.allSatisfy { $0 == connection.peer || neighbours.contains($0) }
    }
}

extension ReplicationEngine {
    /// Whether this side is to pass sets of `authors` taken in `zone` to `connection`'s peer,
    /// which did not say it is connected to all of them: for an author the peer is not
    /// connected to, whether `RelayElection` elects this side among the peer's neighbours that
    /// are the author's too. Where this side does not know both lists (it is not connected to
    /// the author, or a peer has not said yet), or one names a device of the zone's owner
    /// (members connected to the owner relay nothing, and this side cannot tell which they
    /// are), it passes them on.
    func electedToRelay(_ authors: Set<PeerID>, in zone: String, to connection: PeerConnection) -> Bool {
        let peer = connection.peer
        guard let peerNeighbours = connection.status.withLock({ $0.neighbours }) else { return true }
        let (authorConnections, owners) = state.withLock { state in
            (
                authors.map { ($0, state.records[$0]?.current) },
                Set(
                    state.membership.zonesByPeer.compactMap { device, zones in
                        zones.contains { $0.zone == zone && $0.peerIsOwner } ? device : nil
                    })
            )
        }
        guard peerNeighbours.isDisjoint(with: owners) else { return true }
        for (author, authorConnection) in authorConnections
        where author != peer && !peerNeighbours.contains(author) {
            guard let authorNeighbours = authorConnection?.status.withLock({ $0.neighbours }),
                authorNeighbours.isDisjoint(with: owners)
            else { return true }
            let candidates = peerNeighbours.intersection(authorNeighbours)
            if RelayElection.elects(localPeer, toPass: author, to: peer, among: candidates) { return true }
        }
        return false
    }
}

extension ReplicationEngine {
    /// The connections to send this side's own new sets of `zone` at once, while its owner is
    /// away: for each member of the zone this side is not connected to, the two that
    /// `RelayElection` elects among the connections whose peer said it is connected to that
    /// member, as those members themselves compute it (`electedToRelay`). Nil when a
    /// connection's peer has not said its neighbours yet.
    func firstRelayers(of zone: String) -> Set<ObjectIdentifier>? {
        let (connections, members) = state.withLock { state in
            (
                state.current,
                state.membership.zonesByPeer.compactMap { peer, zones in
                    zones.contains { $0.zone == zone } ? peer : nil
                }
            )
        }
        var replicating: [(PeerConnection, Set<PeerID>)] = []
        for connection in connections {
            let (zones, neighbours) = connection.status.withLock { ($0.zones, $0.neighbours) }
            guard zones.contains(zone) else { continue }
            guard let neighbours else { return nil }
            replicating.append((connection, neighbours))
        }
        let connected = Set(connections.map(\.peer))
        var relayers = Set<ObjectIdentifier>()
        for member in members where member != localPeer && !connected.contains(member) {
            let candidates = replicating.filter { $0.1.contains(member) }.map(\.0)
            let elected = RelayElection.elected(toPass: localPeer, to: member, among: candidates.map(\.peer))
            for connection in candidates where elected.contains(connection.peer) {
                relayers.insert(ObjectIdentifier(connection))
            }
        }
        return relayers
    }
}
