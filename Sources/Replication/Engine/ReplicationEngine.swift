import Store
import Support
import Synchronization

/// Replication for one library: every peer connection, dialing and accepting, push and
/// anti-entropy, photo data, pause and resume, per-peer status, and sharing (joining,
/// leaving, answering guests, the end of memberships).
///
/// Create it with the library and this peer's identity, `start()` it, then `listen(...)` or
/// hand it the sockets the daemon accepts (`acceptIncoming`). It dials the owners of the
/// zones this library takes part in and the members whose address it knows, admits the
/// members of its zones, answers guests (a share URL's holder joining, a participant leaving
/// or checking its membership), pushes every local commit at once, relays at the owner, and
/// reconnects with backoff. All blocking work runs on its own threads, never on the Swift
/// concurrency pool. `stop()` closes everything.
public final class ReplicationEngine: @unchecked Sendable {
    public let library: Library
    public let identity: PeerIdentity
    public let configuration: ReplicationConfiguration
    let logger: ReplicationLogger
    let claims = DataClaims()
    let committer = DataCommitter()
    /// Reads and checks the signed sets members relay, for every connection.
    let sets: SetRelay
    let state = Mutex(EngineState())
    let loopCondition = Condition()
    /// Serializes what writes the owner's membership logs (`issueMembership`, a join or a
    /// leave storing a participant's operation; `ReplicationEngine+MembershipLog`).
    let membershipLogWriting = Lock()
    let backoff: Backoff
    /// This person's device list, encoded entries (`currentDeviceList`): what peers are shown.
    let deviceList: Mutex<[[UInt8]]>
    /// Which devices are whose, from the device lists this library holds (`adoptDeviceGroups`).
    let deviceGroups = Mutex(DeviceGroups())
    private let setup = Mutex<(loop: IOThread?, listener: TCPListener?, upkeep: MembershipUpkeep?)>(
        (nil, nil, nil))
    /// Accepted sockets wait here for their ClientHello before they take a handshake slot.
    let helloGate = Mutex<HelloGate?>(nil)
    /// Sockets the gate closed since the last report, for the log.
    let helloDrops = Atomic<Int>(0)

    public var localPeer: PeerID { library.localPeer }

    public init(
        library: Library, identity: PeerIdentity,
        configuration: ReplicationConfiguration = ReplicationConfiguration(),
        logger: ReplicationLogger = .discard
    ) {
        precondition(library.localPeer == identity.peerID, "the library belongs to another peer identity")
        self.library = library
        self.identity = identity
        var configuration = configuration
        if configuration.session.deviceList.isEmpty, let person = try? library.privateStore.localPerson() {
            configuration.session.deviceList = (try? library.privateStore.deviceListEntries(of: person)) ?? []
        }
        self.configuration = configuration
        deviceList = Mutex(configuration.session.deviceList)
        // Every local transaction from now on leaves its signed sets, which members relay.
        for store in library.stores { store.signOwnSets(with: OwnSetSigning(identity: identity)) }
        sets = SetRelay(localPeer: identity.peerID, localCertificate: identity.certificateDER)
        self.logger = logger
        backoff = Backoff(
            base: configuration.reconnectBase, maximum: configuration.reconnectMax,
            jitter: configuration.reconnectJitter)
        claims.onRelease { [weak self] hash in self?.claimReleased(hash) }
    }

    /// Reads membership, starts following the stores' commits and starts the dialer.
    /// Throws when the stores cannot be read. Calling it twice does nothing.
    public func start() throws {
        adoptDeviceGroups()
        let membership = try Membership.load(
            from: library, meshDials: configuration.maxMeshDials, groups: deviceGroups.withLock { $0 })
        let begins = state.withLock { state -> Bool in
            guard !state.running, !state.stopped else { return false }
            state.running = true
            state.membership = membership
            return true
        }
        guard begins else { return }
        // Shares made before persons name this library's person from now on.
        if let person = try library.privateStore.localPerson() {
            try library.privateStore.claimOwnedShares(for: person)
        }
        adoptAddresses(membership.addresses)
        loadAddressRecords()
        refreshOwnRecord()
        for store in library.stores {
            let relays = store.kind == .private
            store.observe { [weak self] entry in self?.committed(entry, relays: relays) }
            store.observeClockMoves { [weak self] zone in self?.clockMoved(zone) }
        }
        let loop = IOThread.start(name: "replication") { [self] in runLoop() }
        let upkeep = MembershipUpkeep(
            library: library, identity: identity,
            deviceList: { [weak self] in self?.currentDeviceList ?? [] },
            logger: logger,
            interval: configuration.membershipCheckInterval,
            connectedPeers: { [weak self] in self?.connectedPeers() ?? [] },
            membershipChanged: { [weak self] in self?.refreshMembership() })
        setup.withLock {
            $0.loop = loop
            $0.upkeep = upkeep
        }
        upkeep.start()
        logger.log(.info, "replication started as \(localPeer)")
    }

    /// Listens for peers on `host:port` (port 0 picks a free one); returns the bound address.
    @discardableResult
    public func listen(host: String, port: UInt16) throws(SocketError) -> PeerAddress {
        let listener = try TCPListener.bind(host: host, port: port)
        listener.start { [weak self] socket in self?.accept(socket) }
        setup.withLock { $0.listener = listener }
        logger.log(.info, "listening for peers on \(listener.address)")
        refreshOwnRecord()
        return PeerAddress(host: listener.host, port: listener.port)
    }

    /// Takes over a connected TCP socket accepted by the daemon's own listener.
    public func acceptIncoming(_ socket: TCPSocket) {
        accept(socket)
    }

    /// Closes every connection (telling peers why, within `stopGrace`), stops dialing and
    /// listening. The engine cannot be started again.
    public func stop() {
        // First, so that no membership check or purge starts while connections close.
        setup.withLock { $0.upkeep }?.stop()
        let connections = state.withLock { state -> [PeerConnection] in
            state.running = false
            state.stopped = true
            return Array(state.connections.values)
        }
        let (loop, listener) = setup.withLock { ($0.loop, $0.listener) }
        listener?.close()
        helloGate.withLock { $0 }?.close()
        wakeLoop()
        loop?.join()
        for connection in connections { connection.close(.shuttingDown, "the peer is shutting down") }
        for connection in connections where !connection.waitUntilFinished(timeout: configuration.stopGrace) {
            connection.cut()
            _ = connection.waitUntilFinished(timeout: .seconds(10))
        }
        committer.waitUntilIdle()
        logger.log(.info, "replication stopped")
    }

    /// Where `peer` listens; nil forgets it. Dialed at once when due. (The stores' addresses
    /// are read with membership: this sets one by hand.)
    public func setAddress(_ address: PeerAddress?, for peer: PeerID) {
        state.withLock { state in
            state.addresses[peer] = address
            state.records[peer, default: PeerRecord()].nextDial = nil
        }
        wakeLoop()
    }

    /// Re-reads membership now (after accepting or changing a share), updates the zones of
    /// open connections, closes connections of peers no longer admitted, dials new owners.
    /// Blocks on the stores: call it from a thread that may block.
    public func refreshMembership() {
        applyMembership()
        wakeLoop()
    }

    /// Stops replicating with every peer (`peer == nil`) or one; local commands keep working.
    public func pause(_ peer: PeerID? = nil) {
        let closing = state.withLock { state -> [PeerConnection] in
            if let peer { state.pausedPeers.insert(peer) } else { state.pausedAll = true }
            return state.connections.values.filter { peer == nil || $0.peer == peer }
        }
        for connection in closing { connection.close(.paused, "replication with this peer is paused") }
        logger.log(
            .notice, peer.map { "replication paused with \($0.short)" } ?? "replication paused", peer: peer)
    }

    /// Resumes replication with every peer (`peer == nil`) or one, dialing at once.
    public func resume(_ peer: PeerID? = nil) {
        state.withLock { state in
            if let peer {
                state.pausedPeers.remove(peer)
            } else {
                state.pausedAll = false
                state.pausedPeers = []
            }
            for key in state.records.keys where peer == nil || key == peer {
                state.records[key]!.attempt = 0
                state.records[key]!.nextDial = nil
            }
            state.syncRound += 1
        }
        logger.log(
            .notice, peer.map { "replication resumed with \($0.short)" } ?? "replication resumed", peer: peer)
        wakeLoop()
    }

    /// Cuts the connection with `peer`, as a network failure would; it is redialed with
    /// backoff if this side dials it.
    public func disconnect(_ peer: PeerID) {
        let current = state.withLock { $0.records[peer]?.current }
        current?.cut()
    }

    /// Syncs now: re-reads membership, redials unreachable peers without waiting for their
    /// backoff, runs anti-entropy again on every open connection, and tells owners about
    /// shares left and checks memberships at once; this side's own signed sets held back
    /// (`ownSetsDelay`) go now. Starts a new sync round: a peer that could
    /// not be reached before is waited for until a dial made now fails too. Blocks on the
    /// stores briefly.
    public func syncNow() {
        applyMembership()
        // This side's own sets held back go first: `sync --wait` then waits for them too.
        offerHeldOwnSets(dueBy: nil)
        let connections = state.withLock { state -> [PeerConnection] in
            state.syncRound += 1
            for key in state.records.keys { state.records[key]!.nextDial = nil }
            return state.current
        }
        for connection in connections { connection.post(.resync(sessionZones(for: connection.peer))) }
        wakeLoop()
        checkMemberships()
    }

    /// Reports `event`; a connection made or lost may mean a membership to check or a copy
    /// to purge: the membership upkeep runs a round. (So does a commit that touches share or
    /// participant records, `committed`; not every applied change set, which cost each
    /// participant a read of every share per tag it received.)
    func emit(_ event: ReplicationEvent) {
        configuration.onEvent(event)
        switch event {
        case .connected, .disconnected: checkMemberships()
        default: break
        }
    }

    /// Asks the membership upkeep for a round now.
    func checkMemberships() {
        setup.withLock { $0.upkeep }?.kick()
    }

    /// The peers with a replication connection now.
    func connectedPeers() -> Set<PeerID> {
        state.withLock { Set($0.current.map(\.peer)) }
    }

    /// Where this peer tells others it listens: the configured addresses, else its own
    /// listener's.
    func advertisedAddresses() -> [PeerAddress] {
        let configured = configuration.advertisedAddresses()
        if !configured.isEmpty { return configured }
        return setup.withLock { $0.listener }.map { [PeerAddress(host: $0.host, port: $0.port)] } ?? []
    }
}
