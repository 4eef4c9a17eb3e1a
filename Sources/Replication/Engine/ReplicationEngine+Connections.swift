import Glibc
import Store
import Support

/// Opening connections (dialing, accepting), deciding which one to keep per peer, and what
/// happens when one ends.
extension ReplicationEngine: ConnectionOwner {
    /// Takes an incoming socket: it waits in the `HelloGate` until its ClientHello is there,
    /// then `handshake` takes it.
    func accept(_ socket: TCPSocket) {
        let connectedAt = ContinuousClock.now
        let gate = helloGate.withLock { gate -> HelloGate in
            if let gate { return gate }
            let made = HelloGate(
                capacity: min(
                    configuration.maxIncomingHandshakes * Self.gateSocketsPerSlot, Self.gateDescriptorBudget()
                ),
                timeout: configuration.handshakeTimeout,
                onReady: { [weak self] socket, connectedAt in
                    self?.handshake(socket, connectedAt: connectedAt)
                },
                onDropped: { [weak self] reason in self?.helloDropped(reason) })
            made.start()
            gate = made
            return made
        }
        gate.admit(socket, connectedAt: connectedAt)
    }

    /// Sockets the `HelloGate` may hold per handshake slot: each costs a descriptor only.
    static let gateSocketsPerSlot = 32

    /// A quarter of the process's descriptors (at least 64): waiting sockets must never take
    /// the ones connections, photo files and stores need.
    static func gateDescriptorBudget() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 64 }
        return max(64, Int(clamping: limit.rlim_cur / 4))
    }

    /// A socket the gate closed: the first of a burst is logged, then every thousandth.
    private func helloDropped(_ reason: String) {
        let count = helloDrops.add(1, ordering: .relaxed).newValue
        guard count == 1 || count % 1_000 == 0 else { return }
        logger.log(
            .notice,
            "closed an incoming connection before its TLS handshake (\(reason)); \(count) so far")
    }

    /// Handshakes an incoming socket whose ClientHello arrived on its own thread, if a
    /// handshake slot is free (`maxIncomingHandshakes`, or the oldest handshake has lasted
    /// long enough to give way); otherwise closes it at once, on the calling thread.
    func handshake(_ socket: TCPSocket, connectedAt: ContinuousClock.Instant) {
        let evictAfter = max(.milliseconds(100), configuration.handshakeTimeout / 10)
        let slot = state.withLock {
            state -> (
                ticket: Int?, refusals: Int, evicted: (socket: TCPSocket?, connection: PeerConnection?)?
            ) in
            guard state.running else { return (nil, 0, nil) }
            let admission = state.inbound.beginHandshake(
                limit: configuration.maxIncomingHandshakes, at: connectedAt, evictAfter: evictAfter)
            switch admission {
            case .refused:
                return (nil, state.inbound.refusedSinceReport, nil)
            case .admitted(let ticket):
                state.handshakeSockets[ticket] = socket
                return (ticket, state.inbound.takeRefusals(), nil)
            case .evicting(let ticket, .tls(let old)):
                state.handshakeSockets[ticket] = socket
                return (
                    ticket, state.inbound.takeRefusals(),
                    (state.handshakeSockets.removeValue(forKey: old), nil)
                )
            case .evicting(let ticket, .awaitingHello(let id)):
                state.handshakeSockets[ticket] = socket
                return (ticket, state.inbound.takeRefusals(), (nil, state.connections[id]))
            }
        }
        guard let ticket = slot.ticket else {
            refuseAtLimit(socket, firstOfBurst: slot.refusals == 1)
            return
        }
        if let evicted = slot.evicted {
            // Cut outside the lock: its handshake thread, or its worker, ends it.
            evicted.socket?.shutdown()
            evicted.connection?.cut()
            let count = state.withLock { $0.inbound.evictedSinceReport }
            if count == 1 || count % 100 == 0 {
                logger.log(
                    .notice,
                    "every handshake slot is held (max_incoming_handshakes): cutting the oldest handshake, "
                        + "over \(evictAfter) old, for each new connection (\(count) so far)")
            }
        }
        if slot.refusals > 0 {
            logger.log(
                .notice,
                "closed \(slot.refusals) incoming connections at once while "
                    + "\(configuration.maxIncomingHandshakes) handshakes were under way (max_incoming_handshakes)"
            )
        }
        // Anyone may come with a share URL: TLS lets every peer in, and the hello sorts them
        // (`connectionEstablished`): members replicate, guests are answered, others are
        // refused.
        var server = TLSConfiguration.server(identity: identity) { _ in true }
        server.handshakeTimeout = configuration.handshakeTimeout
        let tls = server
        IOThread.detach(name: "peer-tls") { [self] in
            do {
                let connection = try TLSConnection.handshake(over: socket, configuration: tls)
                startConnection(connection, connectedAt: connectedAt, ticket: ticket)
            } catch {
                state.withLock { state in
                    state.inbound.tlsEnded(ticket: ticket, connection: nil)
                    state.handshakeSockets[ticket] = nil
                }
                handshakeFailed(socket, error)
            }
        }
    }

    /// Over the handshake limit: the socket is closed without a thread or a TLS byte spent
    /// on it. The first refusal of a burst is logged; the count when the burst ends.
    private func refuseAtLimit(_ socket: TCPSocket, firstOfBurst: Bool) {
        if firstOfBurst {
            logger.log(
                .notice,
                "closing incoming connections at once: \(configuration.maxIncomingHandshakes) handshakes "
                    + "are under way (max_incoming_handshakes)")
        }
        socket.shutdown()
    }

    private func handshakeFailed(_ socket: TCPSocket, _ error: any Error) {
        logger.log(.info, "incoming connection from \(socket.remoteAddress) failed: \(error)")
    }

    /// Dials `peer` on the calling thread (a dialer thread), trying `addresses` in turn until
    /// one connects and passes the TLS handshake pinned to `peer`.
    func dial(_ peer: PeerID, at addresses: [PeerAddress]) {
        var failures: [String] = []
        for address in addresses {
            do {
                let socket = try TCPDialer.connect(
                    host: address.host, port: address.port, timeout: configuration.dialTimeout)
                let connectedAt = ContinuousClock.now
                var tls = TLSConfiguration.client(identity: identity, expecting: peer)
                tls.handshakeTimeout = configuration.handshakeTimeout
                let connection = try TLSConnection.handshake(over: socket, configuration: tls)
                state.withLock { $0.records[peer, default: PeerRecord()].dialedAddress = address }
                startConnection(connection, connectedAt: connectedAt)
                return
            } catch {
                failures.append(addresses.count > 1 ? "\(address): \(error)" : "\(error)")
            }
        }
        dialFailed(peer, reason: failures.joined(separator: "; "))
    }

    private func dialFailed(_ peer: PeerID, reason: String) {
        let unit = Double.random(in: 0...1)
        let delay = state.withLock { state -> Duration in
            var record = state.records[peer, default: PeerRecord()]
            record.dialing = false
            record.attempt += 1
            record.lastError = reason
            let delay = attemptFailed(&record, of: peer, round: state.syncRound, unit: unit)
            state.records[peer] = record
            return delay
        }
        logger.log(.info, "cannot reach the peer (\(reason)); next attempt in \(delay)", peer: peer)
        emit(.dialFailed(peer, reason: reason))
        wakeLoop()
    }

    /// Schedules the next dial after a failed one. A dial of the current sync round makes the
    /// peer unreachable for that round; one started before the round began is followed at
    /// once by a dial of the new round (which `sync --wait` is waiting for).
    func attemptFailed(_ record: inout PeerRecord, of peer: PeerID, round: Int, unit: Double) -> Duration {
        guard record.dialRound == round else {
            record.nextDial = nil
            return .zero
        }
        record.unreachableRound = round
        let delay = redialDelay(attempt: record.attempt, unit: unit, to: peer)
        record.nextDial = .now + delay
        return delay
    }

    /// How soon a dial the peer refused as a duplicate is tried again, the first time it
    /// happens with that peer (`connectionEnded`, `PeerRecord.redialedStaleDuplicate`).
    static let staleDuplicateRedial: Duration = .milliseconds(100)

    /// The backoff delay before redialing `peer`. When both sides dial each other, the
    /// connection dialed by the smaller peer ID is the one kept (`ConnectionTieBreak`): the
    /// larger side waits one base delay more, so that after a lost connection the smaller
    /// side's dial usually arrives first and no duplicate is made only to be closed (taking
    /// whatever it had started, a photo transfer say, with it).
    func redialDelay(attempt: Int, unit: Double, to peer: PeerID) -> Duration {
        let delay = backoff.delay(attempt: attempt, unit: unit)
        return peer < localPeer ? delay + configuration.reconnectBase : delay
    }

    /// Starts the session of an authenticated connection, whose hello must arrive within
    /// `handshakeTimeout` of `connectedAt` (when TCP connected). An incoming one moves from
    /// the TLS phase to waiting for its hello, still holding its handshake slot.
    /// `ticket` is an incoming connection's handshake slot.
    func startConnection(_ tls: TLSConnection, connectedAt: ContinuousClock.Instant, ticket: Int? = nil) {
        let peer = tls.remotePeerID
        let zones = sessionZones(for: peer)
        let id = state.withLock { state -> Int? in
            let id: Int? = state.running ? state.nextConnectionID + 1 : nil
            if let id { state.nextConnectionID = id }
            if let ticket {
                state.inbound.tlsEnded(ticket: ticket, connection: id)
                state.handshakeSockets[ticket] = nil
            }
            return id
        }
        guard let id else {
            tls.close()
            return
        }
        var configuration = configuration
        configuration.session.deviceList = currentDeviceList
        let connection = PeerConnection(
            id: id, tls: tls, dialedByLocal: tls.isClient, connectedAt: connectedAt, library: library,
            zones: zones, configuration: configuration, advertised: advertisedAddresses(), claims: claims,
            committer: committer, sets: sets, owner: self,
            logger: logger)
        let accepted = state.withLock { state -> Bool in
            guard state.running else {
                state.inbound.ended(id)
                return false
            }
            state.connections[id] = connection
            return true
        }
        guard accepted else {
            tls.close()
            return
        }
        connection.start()
    }

    /// The zones replicated with `peer`, with this library's current clocks.
    func sessionZones(for peer: PeerID) -> [SessionZone] {
        let zones = state.withLock { $0.membership.zones(with: peer) }
        return zones.map { zone in
            let store = library.store(zone.store)
            let clock = (try? store.clock(of: zone.zone)) ?? VectorClock()
            let seqs = SeqVector(((try? store.signedSetTops(zone: zone.zone)) ?? [:]).mapValues(\.seq))
            return SessionZone(
                zone: zone.zone, store: zone.store, localIsOwner: zone.localIsOwner,
                peerIsOwner: zone.peerIsOwner, sendsWhole: zone.localIsOwner || zone.betweenSiblings,
                clock: clock,
                seqs: seqs)
        }
    }

    /// What a peer that is no member and did not come as a guest is told as it is closed.
    static let notMemberReason = "not a member of any zone shared here"

    func connectionEstablished(_ connection: PeerConnection) -> ConnectionRefusal? {
        let peer = connection.peer
        state.withLock { $0.inbound.helloArrived(connection.id) }
        if connection.isGuest { return admitGuest(connection) }
        let local = localPeer
        let decision = state.withLock { state -> (refusal: ConnectionRefusal?, replaced: PeerConnection?) in
            var record = state.records[peer, default: PeerRecord()]
            defer { state.records[peer] = record }
            if connection.dialedByLocal { record.dialing = false }
            guard state.running else {
                return (.init(code: .shuttingDown, reason: "the peer is shutting down"), nil)
            }
            guard !state.isPaused(peer) else {
                return (.init(code: .paused, reason: "replication with this peer is paused"), nil)
            }
            guard state.membership.admitted.contains(peer) else {
                return (.init(code: .notMember, reason: Self.notMemberReason), nil)
            }
            var replaced: PeerConnection?
            if let existing = record.current, existing !== connection {
                guard
                    ConnectionTieBreak.keepsNew(
                        existingDialer: existing.dialer, newDialer: connection.dialer, local: local,
                        remote: peer)
                else {
                    return (.init(code: .duplicate, reason: "another connection with this peer is kept"), nil)
                }
                replaced = existing
            }
            record.current = connection
            connection.wasInUse.store(true, ordering: .relaxed)
            record.connectedSince = HybridLogicalClock.wallMilliseconds()
            record.lastError = nil
            record.unreachableRound = nil
            return (nil, replaced)
        }
        if var refusal = decision.refusal {
            if refusal.code == .notMember {
                logger.log(.notice, "refused a connection from \(peer): \(refusal.reason)", peer: peer)
                emit(.refused(peer, reason: refusal.reason))
                refusal.told = removalNotice(for: connection)
                tellDepartureNow(to: peer)
            } else {
                logger.log(.info, "closing a new connection: \(refusal.reason)", peer: peer)
            }
            return refusal
        }
        decision.replaced?.close(.duplicate, "replaced by another connection with this peer")
        // Membership may have changed between the handshake and the hello.
        let zones = state.withLock { $0.membership.zones(with: peer) }
        if Set(zones.map(\.zone)) != connection.status.withLock({ $0.zones }) {
            connection.post(.zonesChanged(sessionZones(for: peer)))
        }
        if connection.dialedByLocal {
            confirmDialedAddress(of: peer)
        } else {
            state.withLock { $0.book.clearInUse(peer) }
        }
        sendAddressRecords(on: connection)
        if state.withLock({ $0.membership.siblings.contains(peer) }) {
            connection.post(.sendSiblingZones(siblingZones()))
        }
        let direction = connection.dialedByLocal ? "dialed" : "accepted"
        logger.log(.info, "connected (\(direction), \(connection.tls.remoteAddress))", peer: peer)
        emit(.connected(peer, dialedByUs: connection.dialedByLocal))
        state.withLock { $0.neighboursChanged = true }
        return nil
    }

    /// What a refused device of this person's that was removed from it is shown: the list
    /// that removes it, so that it purges its copy at its first contact after the removal
    /// (any other refused peer is told nothing but the reason).
    private func removalNotice(for connection: PeerConnection) -> [Frame] {
        let groups = knownDeviceGroups
        guard connection.capabilities.contains(.persons), let person = groups.local,
            groups.ever[person]?.contains(connection.peer) == true,
            groups.current[person]?.contains(connection.peer) != true
        else { return [] }
        return [DeviceListMessage(currentDeviceList).frame()]
    }

    /// `peer`, refused as no member, owns a share this peer left without having told it yet
    /// (its daemon was away): the membership upkeep tells it now rather than at its next
    /// round, so that the owner, which still counts this peer in, learns it on its own
    /// contact. Only the owner of a pending departure triggers a round: a stranger's
    /// connection makes this peer dial no one.
    private func tellDepartureNow(to peer: PeerID) {
        guard let departures = try? library.sharedStore.pendingDepartures(),
            departures.contains(where: { $0.owner == peer })
        else { return }
        checkMemberships()
    }

    /// A guest (a peer joining, leaving or checking a share) gets a slot, if one is free, for
    /// at most `handshakeTimeout`; it never becomes the peer's replication connection.
    private func admitGuest(_ connection: PeerConnection) -> ConnectionRefusal? {
        let deadline = ContinuousClock.now + configuration.handshakeTimeout
        let admitted = state.withLock {
            $0.inbound.beginGuest(connection.id, until: deadline, limit: configuration.maxGuestConnections)
        }
        guard admitted else {
            logger.log(
                .info,
                "closing a joining connection: \(configuration.maxGuestConnections) are open (max_guest_connections)",
                peer: connection.peer)
            return ConnectionRefusal(
                code: .busy,
                reason: "too many peers are joining or leaving shares here right now: try again later")
        }
        logger.log(.info, "a peer connected to join or leave a share", peer: connection.peer)
        return nil
    }

    /// Closes guest connections whose time is up (from the engine's loop).
    func closeOverdueGuests() {
        let overdue = state.withLock { state in
            state.inbound.overdueGuests(at: .now).compactMap { state.connections[$0] }
        }
        for connection in overdue {
            connection.close(
                .timeout,
                "a joining connection must ask and be answered within \(configuration.handshakeTimeout)")
        }
    }

    func connectionEnded(_ connection: PeerConnection, reason: SessionCloseReason) {
        let peer = connection.peer
        let worked = connection.status.withLock { $0.announced }
        let lastSeen = connection.lastReceived
        let unit = Double.random(in: 0...1)
        let wasCurrent = state.withLock { state -> Bool in
            state.connections[connection.id] = nil
            state.inbound.ended(connection.id)
            var record = state.records[peer, default: PeerRecord()]
            defer {
                state.records[peer] = record
                state.forgetIfStranger(peer)
            }
            record.bytesIn += connection.bytesIn.load(ordering: .relaxed)
            record.bytesOut += connection.bytesOut.load(ordering: .relaxed)
            if let lastSeen { record.lastSeen = max(record.lastSeen ?? 0, lastSeen) }
            if connection.dialedByLocal { record.dialing = false }
            let wasCurrent = record.current === connection
            if reason != .transport(nil) { record.lastError = reason.description }
            if wasCurrent, case .remoteClosed(.notMember, _) = reason {
                // The peer does not take this one for a member: as a failed dial, backed off,
                // and the peer does not hold up `sync --wait` in this round.
                record.current = nil
                record.connectedSince = nil
                record.attempt += 1
                _ = attemptFailed(&record, of: peer, round: state.syncRound, unit: unit)
            } else if wasCurrent {
                record.current = nil
                record.connectedSince = nil
                record.attempt = worked ? 1 : record.attempt + 1
                record.nextDial = .now + redialDelay(attempt: record.attempt, unit: unit, to: peer)
            } else if connection.dialedByLocal && record.current == nil
                && !connection.wasInUse.load(ordering: .relaxed)
            {
                // A dialed connection that never became the one in use (refused, or cut
                // before its hello): back off before the next attempt. One that was in use and
                // was replaced is not: its replacement may have ended before it (the peer
                // closed that one as a duplicate of a third); counted, it made the peer
                // "unreachable" for the round, and `sync --wait` returned without it.
                record.attempt += 1
                _ = attemptFailed(&record, of: peer, round: state.syncRound, unit: unit)
            } else {
                return false
            }
            if connection.dialedByLocal, !record.redialedStaleDuplicate,
                case .remoteClosed(.duplicate, _) = reason, let next = record.nextDial
            {
                // The peer keeps a connection with this side that this side does not have: one
                // from before this daemon restarted, which the peer is about to find closed
                // (it kept it by the tie-break). Tried again almost at once rather than after
                // the backoff (2 s after such a restart); a later refusal backs off as usual.
                record.nextDial = min(next, .now + Self.staleDuplicateRedial)
                record.redialedStaleDuplicate = true
            }
            return wasCurrent
        }
        if wasCurrent {
            state.withLock { $0.book.clearInUse(peer) }
            emit(.disconnected(peer, reason: reason.description))
            state.withLock { $0.neighboursChanged = true }
        }
        if case .remoteClosed(.notMember, _) = reason, state.withLock({ $0.membership.owners.contains(peer) })
        {
            // An owner that does not take this peer for a member: a join through a member it
            // has not ratified yet, or a membership that ended while this peer was away. The
            // upkeep asks it now (showing the accept, or asking whether the membership holds)
            // rather than at its next round.
            checkMemberships()
        }
        wakeLoop()
    }

    func connection(_ connection: PeerConnection, noticed notice: SessionNotice) {
        let peer = connection.peer
        switch notice {
        case .synchronising(let zones):
            // A peer that lists no zone replicates nothing with this one (a peer that does not
            // take this one for a member lists none, then closes): nothing works yet.
            guard zones > 0 else { break }
            state.withLock { state in
                state.records[peer]?.attempt = 0
                state.records[peer]?.unreachableRound = nil
            }
        case .addressRecordsAnnounced(let records):
            receivedAddressRecords(records, from: connection)
        case .addressesAnnounced(let addresses):
            connection.status.withLock { $0.announcedAddresses = addresses }
            recordAddress(of: connection)
        case .deviceListAnnounced(let entries):
            learnPerson(entries, from: connection)
        case .membershipWanted(let zone):
            sendMembershipLogs(on: connection, zones: [zone])
        case .membershipReceived(let zone, let operations, let lists):
            receivedMembership(zone: zone, operations: operations, signerLists: lists, from: connection)
        case .unreplicatedZoneAnnounced(let zone):
            revokeIfEnded(zone, on: connection)
        case .changeSetApplied(let zone, let refused):
            emit(.changeSetApplied(peer, zone: zone, refused: refused))
        case .signedSetsStored(let zone, let authors):
            relaySets(of: zone, by: authors, takenOn: connection)
        case .neighboursAnnounced(let devices):
            neighboursAnnounced(devices, on: connection)
        case .refusedFromPeer(let notice):
            // Another member may hold what was refused (taken from its author directly).
            for other in state.withLock({ $0.current }) where other !== connection {
                other.post(.relayRefusals(notice))
            }
        case .changesRefused(let zone, let refusals):
            let records = refusals.map { RefusedChange(peer: peer, zone: zone, refusal: $0) }
            state.withLock { state in
                state.refusedChanges.append(contentsOf: records)
                let excess = state.refusedChanges.count - EngineState.maxRefusedChanges
                if excess > 0 { state.refusedChanges.removeFirst(excess) }
            }
            emit(.changesRefused(peer, zone: zone, refusals: refusals.map(\.description)))
        case .dataFetchStarted(let hash, let offset, let size):
            if offset > 0 {
                logger.log(.info, "resuming photo data \(hash.short) from byte \(offset)", peer: peer)
            }
            emit(.dataFetchStarted(peer, hash: hash, offset: offset, size: size))
        case .dataFetched(let hash, let size):
            emit(.dataFetched(peer, hash: hash, size: size))
        case .dataFetchFailed(let hash, let reason):
            emit(.dataFetchFailed(peer, hash: hash, reason: reason))
        case .dataServed(let hash, let count):
            emit(.dataServed(peer, hash: hash, count: count))
        }
    }

    /// A transfer of contended data ended without storing it: connections that found it
    /// busy ask for it now.
    func claimReleased(_ hash: ContentHash) {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections { connection.post(.dataClaimReleased(hash)) }
    }

    /// Photo data reached a store: every connection stops wanting it, and peers that asked
    /// for it earlier are told.
    func dataStored(_ store: StoreKind, _ hash: ContentHash) {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections { connection.post(.dataArrived(hash)) }
    }
}
