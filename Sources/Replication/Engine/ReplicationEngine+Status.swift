import Store
import Support

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
        let replicated = state.membership.zones(with: peer)
        let zones = replicated.map(\.zone)
        let current = record.current
        let live = current.map {
            (
                $0.status.withLock { $0 }, $0.bytesIn.load(ordering: .relaxed),
                $0.bytesOut.load(ordering: .relaxed)
            )
        }
        var lastSeen = record.lastSeen
        if let seen = current?.lastReceived { lastSeen = max(lastSeen ?? 0, seen) }
        let behind = current.flatMap { behindReason($0, zones: replicated) }
        return PeerStatus(
            peer: peer, address: state.addresses[peer], connected: current != nil,
            paused: state.isPaused(peer),
            lastSeen: lastSeen, connectedSince: record.connectedSince,
            bytesIn: record.bytesIn + (live?.1 ?? 0),
            bytesOut: record.bytesOut + (live?.2 ?? 0), zones: zones,
            behind: behind,
            pendingData: live?.0.pendingData ?? 0,
            lastError: record.lastError, addresses: knownAddresses(of: peer, state),
            neighbours: live?.0.neighbours.map { $0.sorted() })
    }

    private func knownAddresses(of peer: PeerID, _ state: EngineState) -> [KnownAddress] {
        let entry = state.book.entry(peer)
        return state.dialAddresses(peer).map { address in
            let source =
                if entry?.record?.addresses.contains(address) == true {
                    "record"
                } else if entry?.discovered[address] != nil {
                    "lan"
                } else if entry?.hinted.contains(address) == true {
                    "url"
                } else if state.addresses[peer] == address {
                    "stored"
                } else {
                    "confirmed"
                }
            return KnownAddress(
                address: address, source: source,
                inUse: entry?.inUse == address && state.records[peer]?.current != nil,
                lastConfirmed: entry?.confirmed[address])
        }
    }

    /// Whether every member that can be reached has been reached and agrees: every peer this
    /// side dials (unless paused; fellow participants only when connected) is connected, or a dial of it made since the last resume,
    /// restart or `sync` failed (then it is listed as unreachable instead); and every
    /// connection is idle with both sides holding the same clock of every shared zone and no
    /// photo data left to fetch.
    public func syncStatus() -> SyncStatus {
        let (targets, records, membership, round) = state.withLock { state in
            (
                // Fellow participants count once connected: the owner reaches everyone, and a
                // fellow that moved is found again through it.
                state.dialTargets.filter {
                    !state.isPaused($0) && state.addresses[$0] != nil
                        && !state.membership.fellows.contains($0)
                }, state.records,
                state.membership, state.syncRound
            )
        }
        var behind: [PeerID: String] = [:]
        var unreachable: [SyncStatus.Unreachable] = []
        for peer in targets.sorted() where records[peer]?.current == nil {
            if let record = records[peer], record.unreachableRound == round {
                unreachable.append(.init(peer: peer, reason: record.lastError ?? "it cannot be reached"))
            } else {
                behind[peer] = "not connected yet"
            }
        }
        for (peer, record) in records {
            guard let connection = record.current else { continue }
            behind[peer] = behindReason(connection, zones: membership.zones(with: peer))
        }
        if behind.isEmpty { behind = peersLackingData(records: records, membership: membership) }
        return SyncStatus(inSync: behind.isEmpty, unreachable: unreachable, reasons: behind)
    }

    /// The last word on "in sync" is the store's: photo data a replicated zone refers to and
    /// this library lacks. Every connection's session may be idle with data still missing
    /// (its fetch died with a connection that another replaced, say); the connections
    /// replicating such a zone are asked to fetch it, and their peers count as behind.
    private func peersLackingData(records: [PeerID: PeerRecord], membership: Membership) -> [PeerID: String] {
        var behind: [PeerID: String] = [:]
        var checked: [String: [DataItem]] = [:]
        for (peer, record) in records {
            guard let connection = record.current else { continue }
            var wanted: [DataItem] = []
            for zone in membership.zones(with: peer) {
                if checked[zone.zone] == nil {
                    checked[zone.zone] = library.store(zone.store).missingDataItems(zone: zone.zone)
                }
                wanted += checked[zone.zone] ?? []
            }
            guard !wanted.isEmpty else { continue }
            connection.post(.dataWanted(wanted))
            behind[peer] = "the data of \(wanted.count) photo(s) is missing here"
        }
        return behind
    }

    /// `syncStatus().inSync`.
    public func isInSync() -> Bool { syncStatus().inSync }

    /// Nil when the connection is idle and both sides hold the same changes of every zone it
    /// replicates (the same clock with a zone's owner; a fellow participant, to which this
    /// side sends only what it wrote, holds all of that); otherwise why not, for a person.
    private func behindReason(_ connection: PeerConnection, zones: [Membership.Zone]) -> String? {
        let status = connection.status.withLock { $0 }
        // Photo data still to fetch makes the session busy too (`SessionBusy.fetchingData`).
        guard status.idle else { return "busy: \(status.busy)" }
        for zone in zones {
            guard let remote = status.remoteClocks[zone.zone] ?? nil else {
                return "zone \(zone.zone) not exchanged with the peer yet"
            }
            guard let local = try? library.store(zone.store).clock(of: zone.zone) else {
                return "zone \(zone.zone) cannot be read here"
            }
            if zone.localIsOwner || zone.peerIsOwner {
                guard local == remote else {
                    let side =
                        switch local.compare(remote) {
                        case .after: "the peer lacks changes held here"
                        case .before: "the peer holds changes not here yet"
                        default: "each side holds changes the other lacks"
                        }
                    return "zone \(zone.zone): \(side)"
                }
            } else {
                // Its own entry is the fellow's to check: an author's clock may claim past
                // what anyone holds of it (a change refused and undone), which only the owner
                // takes on.
                guard remote[localPeer] >= local[localPeer] else {
                    return "zone \(zone.zone): the peer lacks changes made here"
                }
            }
        }
        return nil
    }

    /// Changes made here that peers refused (and that were undone) since the last call,
    /// oldest first (at most the last 1,000): what `sync` reports instead of "in sync".
    public func takeRefusedChanges() -> [RefusedChange] {
        state.withLock { state in
            defer { state.refusedChanges = [] }
            return state.refusedChanges
        }
    }

    /// Waits until `syncStatus()` says in sync, and returns it; when `timeout` passes first,
    /// returns a status read after it passed (not in sync). The checks read the stores, so
    /// they run on an I/O thread, not on the concurrency pool.
    ///
    /// The deadline is looked at before each check, not after it: a caller resumed late (the
    /// pool busy with other tasks for longer than `timeout`) would otherwise be handed a status
    /// read before the wait was over, "not connected yet" for a peer connected since.
    public func waitForSync(timeout: Duration) async -> SyncStatus {
        await Self.poll(timeout: timeout) {
            (try? await IOThread.run { [self] in syncStatus() })
                ?? SyncStatus(inSync: false, unreachable: [], reasons: [:])
        }
    }

    /// Calls `check` every 10 ms until it says in sync or `timeout` has passed; a status not
    /// in sync is returned only from a check begun after the deadline.
    static func poll(timeout: Duration, _ check: () async -> SyncStatus) async -> SyncStatus {
        let deadline = ContinuousClock.now + timeout
        while true {
            let last = ContinuousClock.now >= deadline
            let status = await check()
            if status.inSync || last { return status }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits until in sync; false when `timeout` passes first.
    public func waitUntilInSync(timeout: Duration) async -> Bool {
        await waitForSync(timeout: timeout).inSync
    }
}
