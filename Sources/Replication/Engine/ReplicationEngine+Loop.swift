import Store
import Support

/// The engine's own thread: timer ticks for every connection, redials when due, membership
/// refreshes; and the fan-out of local commits to the connections that replicate them.
extension ReplicationEngine {
    func wakeLoop() {
        loopCondition.withLock {
            state.withLock { $0.loopWake = true }
            loopCondition.broadcast()
        }
    }

    func runLoop() {
        var nextTick = ContinuousClock.now + configuration.tickInterval
        var nextRefresh = ContinuousClock.now + configuration.membershipRefreshInterval
        var nextAddressCheck = ContinuousClock.now + configuration.addressCheckInterval
        // Shares made before the log get theirs now; the others catch up on what changed.
        issueMembership(zones: nil)
        while true {
            let held = state.withLock { $0.heldOwnSetsDue } ?? nextTick
            let wait = min(nextTick, nextRefresh, nextAddressCheck, nextDialDue() ?? nextTick, held) - .now
            loopCondition.withLock {
                if !state.withLock({ $0.loopWake }) && wait > .zero { loopCondition.wait(timeout: wait) }
                state.withLock { $0.loopWake = false }
            }
            let (running, refresh, touched) = state.withLock { state -> (Bool, Bool, Set<String>) in
                defer {
                    state.refreshRequested = false
                    state.membershipTouched = []
                }
                return (state.running, state.refreshRequested, state.membershipTouched)
            }
            guard running else { return }
            let now = ContinuousClock.now
            if refresh || now >= nextRefresh {
                applyMembership()
                nextRefresh = now + configuration.membershipRefreshInterval
            }
            if !touched.isEmpty { issueMembership(zones: touched) }
            offerHeldOwnSets(dueBy: now)
            if now >= nextAddressCheck {
                refreshOwnRecord()
                nextAddressCheck = now + configuration.addressCheckInterval
            }
            if now >= nextTick {
                for connection in state.withLock({ Array($0.connections.values) }) { connection.post(.tick) }
                closeOverdueGuests()
                releaseMemoryWhenQuiet()
                if state.withLock({ state in
                    defer { state.neighboursChanged = false }
                    return state.neighboursChanged
                }) {
                    announceNeighbours()
                }
                nextTick = now + configuration.tickInterval
            }
            startDueDials()
        }
    }

    /// When the earliest waiting redial is due.
    private func nextDialDue() -> ContinuousClock.Instant? {
        state.withLock { state in
            state.dialTargets.compactMap { peer -> ContinuousClock.Instant? in
                let record = state.records[peer] ?? PeerRecord()
                guard record.current == nil, !record.dialing, !state.isPaused(peer), state.hasAddress(peer)
                else { return nil }
                return record.nextDial ?? .now
            }.min()
        }
    }

    private func startDueDials() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [(PeerID, [PeerAddress])] in
            guard state.running else { return [] }
            var due: [(PeerID, [PeerAddress])] = []
            for peer in state.dialTargets.sorted() {
                var record = state.records[peer] ?? PeerRecord()
                let addresses = state.dialAddresses(peer)
                guard record.current == nil, !record.dialing, !state.isPaused(peer), !addresses.isEmpty,
                    (record.nextDial ?? now) <= now
                else { continue }
                record.dialing = true
                record.dialRound = state.syncRound
                state.records[peer] = record
                due.append((peer, addresses))
            }
            return due
        }
        for (peer, addresses) in due {
            logger.log(.debug, "dialing \(addresses.map(\.description).joined(separator: ", "))", peer: peer)
            IOThread.detach(name: "peer-dial") { [self] in dial(peer, at: addresses) }
        }
    }

    /// Reads membership (and members' addresses) from the stores and brings open
    /// connections in line with it. A participant whose membership of a zone this peer owns
    /// ended is told on its connection (`zoneRevoked`), so that it purges its copy even
    /// while it stays connected for other zones.
    func applyMembership() {
        let read = state.withLock { state -> Int in
            state.membershipReadsStarted += 1
            return state.membershipReadsStarted
        }
        let membership: Membership
        do {
            membership = try Membership.load(
                from: library, meshDials: configuration.maxMeshDials, groups: deviceGroups.withLock { $0 })
        } catch {
            logger.log(.error, "cannot read share membership: \(error)")
            return
        }
        let applied = state.withLock { state -> ([PeerConnection], Membership)? in
            // A read started later has been taken already: it saw the stores as they are now,
            // or later (two threads refreshing at once used to put an older membership back,
            // and connections kept its zones until the next change).
            guard read > state.membershipReadTaken else { return nil }
            state.membershipReadTaken = read
            let previous = state.membership
            state.membership = membership
            // A peer that became a member is dialed at once: an earlier refusal (it was no
            // member then) must not leave it backed off.
            for peer in membership.admitted.subtracting(previous.admitted)
            where state.records[peer]?.current == nil {
                state.records[peer]?.nextDial = nil
            }
            state.book.keep(only: membership.peers)
            for peer in Array(state.records.keys) { state.forgetIfStranger(peer) }
            return (state.current, previous)
        }
        guard let (connections, previous) = applied else { return }
        adoptAddresses(membership.addresses)
        if previous != membership {
            takeEarlyRecords()
            if membership.siblings.contains(where: { previous.zones(with: $0) != membership.zones(with: $0) })
            {
                announceZonesToSiblings()
            }
        }
        // Every connection is checked, membership changed or not: one that missed an update
        // would otherwise keep too few zones until membership changed again.
        for connection in connections {
            let peer = connection.peer
            let kept = Set(membership.zones(with: peer).map(\.zone))
            let ended = previous.zones(with: peer).filter { $0.localIsOwner && !kept.contains($0.zone) }
            let revoked = ended.filter { revokeIfEnded($0.zone, on: connection) }
            // Guests (a stranger joining, say) are not in `state.current`: a replication
            // connection needs membership.
            guard membership.admitted.contains(peer) else {
                let reason = "no longer a member of any zone shared here"
                // After the revocations, not before them (`close` skips what is queued).
                if revoked.isEmpty {
                    connection.close(.notMember, reason)
                } else {
                    connection.post(.closeRequested(.notMember, reason))
                }
                continue
            }
            if kept != connection.status.withLock({ $0.zones }) {
                connection.post(.zonesChanged(sessionZones(for: peer)))
            }
        }
    }

    /// A zone's clock moved with nothing committed: every connection replicating it checks
    /// whether its peer now lacks something (at least the new clock).
    func clockMoved(_ zone: String) {
        for connection in state.withLock({ Array($0.connections.values) })
        where connection.status.withLock({ $0.zones.contains(zone) }) {
            connection.post(.localCommit(zone: zone))
        }
    }

    /// A store committed: every connection replicating a touched zone pushes, except the one
    /// the changes came from; a membership change is re-read on the loop thread. Changes
    /// received in a zone this library takes part in (`relays` false: the shared store) are
    /// not pushed as changes: a participant sends only what it wrote (the signed sets it
    /// takes are passed on by `relaySets`).
    func committed(_ entry: HistoryEntry, relays: Bool) {
        let zones = Set(entry.changes.map(\.zone))
        let membershipZones = Set(
            entry.changes.lazy.filter { $0.entity == "share" || $0.entity == "participant" }.map(\.zone))
        let membershipTouched = !membershipZones.isEmpty
        let connections = state.withLock { state -> [PeerConnection] in
            if membershipTouched {
                state.refreshRequested = true
                state.membershipTouched.formUnion(membershipZones)
            }
            return Array(state.connections.values)
        }
        // This side's own commit: its new signed sets go to every connection a moment later
        // (`ownSetsDelay`), but at once to the members that are to relay them.
        let own = !entry.author.hasPrefix("sync:")
        if !own && !relays { return finishCommitted(membershipTouched) }
        let (held, early) = own ? holdOwnSets(of: zones) : ([], [])
        let isEarly = { (connection: PeerConnection) in early.contains(ObjectIdentifier(connection)) }
        let ordered =
            early.isEmpty ? connections : connections.filter(isEarly) + connections.filter { !isEarly($0) }
        for connection in ordered where entry.author != connection.syncAuthor {
            let replicated = connection.status.withLock { $0.zones }
            for zone in zones.intersection(replicated).sorted() {
                connection.post(.localCommit(zone: zone))
                if own && (!held.contains(zone) || isEarly(connection)) {
                    connection.post(.setsChanged(zone: zone))
                }
            }
        }
        finishCommitted(membershipTouched)
    }

    /// Of `zones`, those whose own sets the loop offers the peers after `ownSetsDelay`
    /// (`held`; the sets of the others go at once), and the connections that get them at once
    /// all the same (`early`). With the owner here or connected, every connection waits: the
    /// changes went at commit, and no member relays. With the owner away, the members
    /// elected to relay them to members this side is not connected to get them at once
    /// (`firstRelayers`); the rest, which the changes reached at commit, after the delay,
    /// so that they do not take each change twice while the relays are under way. When a
    /// connection's neighbours are not known yet, every connection gets them at once.
    private func holdOwnSets(of zones: Set<String>) -> (held: Set<String>, early: Set<ObjectIdentifier>) {
        guard configuration.ownSetsDelay > .zero else { return ([], []) }
        var held = Set<String>()
        var early = Set<ObjectIdentifier>()
        for zone in zones {
            if ownerConnected(zone: zone) {
                held.insert(zone)
            } else if let relayers = firstRelayers(of: zone) {
                held.insert(zone)
                early.formUnion(relayers)
            }
        }
        guard !held.isEmpty else { return ([], []) }
        let wake = state.withLock { state -> Bool in
            state.heldOwnSets.formUnion(held)
            guard state.heldOwnSetsDue == nil else { return false }
            state.heldOwnSetsDue = .now + configuration.ownSetsDelay
            return true
        }
        if wake { wakeLoop() }
        return (held, early)
    }

    /// Tells every connection replicating a zone with held own sets that it has new sets,
    /// once they are due (`now` nil: whenever they are due; `sync` does not wait).
    func offerHeldOwnSets(dueBy now: ContinuousClock.Instant?) {
        let (zones, connections) = state.withLock { state -> (Set<String>, [PeerConnection]) in
            guard let due = state.heldOwnSetsDue, now.map({ due <= $0 }) ?? true else { return ([], []) }
            defer {
                state.heldOwnSets = []
                state.heldOwnSetsDue = nil
            }
            return (state.heldOwnSets, Array(state.connections.values))
        }
        for connection in connections {
            let replicated = connection.status.withLock { $0.zones }
            for zone in zones.intersection(replicated).sorted() { connection.post(.setsChanged(zone: zone)) }
        }
    }

    private func finishCommitted(_ membershipTouched: Bool) {
        guard membershipTouched else { return }
        wakeLoop()
        checkMemberships()
    }
}

extension ReplicationEngine {
    /// Signed sets of `zone` from another member were kept (on `connection`): passed on to the
    /// other connections replicating the zone while this side relays, that is while it is a
    /// participant without a live connection to the zone's owner. With the owner reachable it
    /// relays everything (its deltas and its own sets), and flooding every set across the mesh
    /// as well would cost each member a message per fellow per change; the sets still reach
    /// every member by the exchange that opens each connection.
    ///
    /// A peer that said it is connected to every author of the sets (`announceNeighbours`)
    /// has them from the authors directly, and is skipped; one that is not gets them from the
    /// members elected for it (`relays`).
    func relaySets(of zone: String, by authors: Set<PeerID>, takenOn connection: PeerConnection) {
        guard !ownerConnected(zone: zone) else { return }
        let (others, authorConnections, owners) = state.withLock { state in
            (
                Array(state.connections.values), authors.map { ($0, state.records[$0]?.current) },
                Set(state.membership.peers(replicating: zone).filter(\.zone.peerIsOwner).map(\.peer))
            )
        }
        let told = authorConnections.map { author, current in
            (author: author, neighbours: current?.status.withLock { $0.neighbours })
        }
        for other in others where other !== connection {
            let neighbours = other.status.withLock { $0.neighbours }
            if relays(told, to: other.peer, neighbours: neighbours, owners: owners) {
                other.post(.setsChanged(zone: zone))
            }
        }
    }

    /// Whether this side owns `zone` or has a live connection to its owner: then the owner
    /// spreads the zone's sets and membership operations, and members relay none of them.
    func ownerConnected(zone: String) -> Bool {
        state.withLock { state in
            state.membership.zonesByPeer.contains { peer, zones in
                zones.contains {
                    $0.zone == zone
                        && ($0.localIsOwner || ($0.peerIsOwner && state.records[peer]?.current != nil))
                }
            }
        }
    }
}
