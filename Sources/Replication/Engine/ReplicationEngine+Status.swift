import Store

/// What the engine can tell about its peers: connection, traffic, and whether every shared
/// zone is in sync (what `peershare peers` and `peershare sync --wait` show).
extension ReplicationEngine {
    /// Every peer known from membership or addresses: a stranger that connected is not
    /// listed.
    public func peers() -> [PeerStatus] {
        let snapshot = state.withLock { state in (peers: state.knownPeers, state: state) }
        return snapshot.peers.subtracting([localPeer]).sorted().map { status(of: $0, snapshot.state) }
    }

    /// The status of one peer.
    public func status(of peer: PeerID) -> PeerStatus {
        status(of: peer, state.withLock { $0 })
    }

    private func status(of peer: PeerID, _ state: EngineState) -> PeerStatus {
        let record = state.records[peer] ?? PeerRecord()
        let zones = state.membership.zones(with: peer).map(\.zone)
        let current = record.current
        let live = current.map {
            (
                $0.status.withLock { $0 }, $0.bytesIn.load(ordering: .relaxed),
                $0.bytesOut.load(ordering: .relaxed)
            )
        }
        var lastSeen = record.lastSeen
        if let seen = current?.lastReceived { lastSeen = max(lastSeen ?? 0, seen) }
        return PeerStatus(
            peer: peer, address: state.addresses[peer], connected: current != nil,
            paused: state.isPaused(peer),
            lastSeen: lastSeen, connectedSince: record.connectedSince,
            bytesIn: record.bytesIn + (live?.1 ?? 0),
            bytesOut: record.bytesOut + (live?.2 ?? 0), zones: zones,
            inSync: current.map { inSync($0, zones: zones) } ?? false, pendingData: live?.0.pendingData ?? 0,
            lastError: record.lastError)
    }

    /// True when every peer this side dials is connected (unless paused), and every
    /// connection is idle with both sides holding the same clock for every shared zone.
    public func isInSync() -> Bool {
        let (targets, records, membership) = state.withLock { state in
            (
                state.dialTargets.filter { !state.isPaused($0) && state.addresses[$0] != nil }, state.records,
                state.membership
            )
        }
        for peer in targets where records[peer]?.current == nil { return false }
        for (peer, record) in records {
            guard let connection = record.current else { continue }
            guard inSync(connection, zones: membership.zones(with: peer).map(\.zone)) else { return false }
        }
        return true
    }

    private func inSync(_ connection: PeerConnection, zones: [String]) -> Bool {
        let status = connection.status.withLock { $0 }
        guard status.idle, status.pendingData == 0 else { return false }
        for zone in zones {
            guard let remote = status.remoteClocks[zone] ?? nil,
                let kind = state.withLock({
                    $0.membership.zones(with: connection.peer).first { $0.zone == zone }?.store
                }),
                let local = try? library.store(kind).clock(of: zone), local == remote
            else { return false }
        }
        return true
    }

    /// Waits until `isInSync()` holds; false when `timeout` passes first. The checks read
    /// the stores, so they run on an I/O thread, not on the concurrency pool.
    public func waitUntilInSync(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let inSync = (try? await IOThread.run { [self] in isInSync() }) ?? false
            if inSync { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
