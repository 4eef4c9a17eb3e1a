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

    /// Whether this side passes sets of `authors` (each with the neighbours it said, if
    /// this side is connected to it) to `peer`, which said it is connected to `neighbours`
    /// (nil: it has not said). A peer connected to every author (or one of them) has their
    /// sets from them directly. For an author the peer is not connected to, this side sends
    /// when `RelayElection` elects it among the peer's neighbours that are the author's too.
    /// Where this side does not know both lists, or one names one of `owners` (the zone's
    /// owner devices: members connected to the owner relay nothing, and this side cannot tell
    /// which they are), it sends.
    func relays(
        _ authors: [(author: PeerID, neighbours: Set<PeerID>?)], to peer: PeerID, neighbours: Set<PeerID>?,
        owners: Set<PeerID>
    ) -> Bool {
        guard let neighbours else { return true }
        let unreached = authors.filter { $0.author != peer && !neighbours.contains($0.author) }
        if !authors.isEmpty && unreached.isEmpty { return false }
        guard neighbours.isDisjoint(with: owners) else { return true }
        for (author, authorNeighbours) in unreached {
            guard let authorNeighbours, authorNeighbours.isDisjoint(with: owners) else { return true }
            let candidates = neighbours.intersection(authorNeighbours)
            if RelayElection.elects(localPeer, toPass: author, to: peer, among: candidates) { return true }
        }
        return false
    }
}

extension ReplicationEngine {
    /// The connections to send this side's own new sets of `zone` at once, while its owner is
    /// away: for each member of the zone this side is not connected to, the two that
    /// `RelayElection` elects among the connections whose peer said it is connected to that
    /// member, as those members themselves compute it (`relays`). Nil when a
    /// connection's peer has not said its neighbours yet.
    func firstRelayers(of zone: String) -> Set<ObjectIdentifier>? {
        let (connections, members) = state.withLock { state in
            (state.current, Set(state.membership.peers(replicating: zone).map(\.peer)))
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
