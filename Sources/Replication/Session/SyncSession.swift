import Store
import Support

/// The replication protocol of one connection, as a pure state machine: no sockets, no
/// store, no clock of its own.
///
/// The driver feeds it events (bytes received, local commits, timer ticks, results of the
/// store operations it asked for) with the current time, and carries out the actions it
/// returns (send frames, apply a change set, read or write photo data, close). Everything
/// the protocol decides — the hello, anti-entropy, push, answers, data transfer windows,
/// keepalive — is decided here, so it is tested without a network.
public struct SyncSession: Sendable {
    public enum State: Equatable, Sendable {
        /// `start` not called yet.
        case idle
        /// Our hello is sent; the peer's must be the first frame.
        case awaitingHello
        case active
        case closed(SessionCloseReason)
    }

    public let localPeer: PeerID
    /// The peer TLS authenticated; its hello must name the same one.
    public let remotePeer: PeerID
    public let configuration: SessionConfiguration
    /// Where this side listens, told to the peer after the hello (`Capabilities.addresses`).
    public let advertised: [PeerAddress]
    public private(set) var state: State = .idle
    public private(set) var agreement: VersionAgreement?
    /// True once the peer's zone clocks have arrived.
    public internal(set) var remoteAnnounced = false

    var decoder: FrameDecoder
    var zones: [String: ZoneReplication] = [:]
    var outbox = ChangeOutbox()
    var incoming = IncomingSets()
    var fetcher: DataFetcher
    var pendingReads: [DataRequest] = []
    /// Clocks the peer announced for zones not replicated with it here (yet).
    var unclaimedAnnouncements: [String: VectorClock] = [:]
    static let maxUnclaimedAnnouncements = 10_000
    /// Refusal notices from the peer whose undo is under way.
    var pendingUndos = 0
    /// Signed-sets messages from the peer being checked and applied.
    var setsApplying = 0
    /// Data the peer asked for that this side did not have yet.
    var waitingForData: Set<ContentHash> = []
    var keepalive: Keepalive
    var startedAt: ContinuousClock.Instant
    var now: ContinuousClock.Instant
    var out = SessionOutput()

    /// The hello this side sends: its features, the largest frame it accepts, and that it
    /// comes to replicate.
    var localHello: Hello {
        Hello(
            peerID: localPeer, capabilities: Self.capabilities,
            maximumFrameSize: configuration.maximumFrameSize, purpose: .sync)
    }

    /// The largest frame this side may send the peer (its own limit before the hello).
    var sendableFrameSize: Int { agreement?.sendableFrameSize ?? configuration.maximumFrameSize }

    /// The optional features this build announces in its hello.
    public static let capabilities: Capabilities = [
        .addresses, .refusalNotices, .persons, .membership, .signerLists, .signedSets, .neighbours,
        .addressRecords, .setAcks,
    ]

    public init(
        localPeer: PeerID, remotePeer: PeerID, zones: [SessionZone],
        configuration: SessionConfiguration = SessionConfiguration(), advertised: [PeerAddress] = [],
        now: ContinuousClock.Instant
    ) {
        self.localPeer = localPeer
        self.remotePeer = remotePeer
        self.configuration = configuration
        self.advertised = Array(advertised.prefix(configuration.limits.maxAddresses))
        decoder = FrameDecoder(maximumFrameSize: configuration.maximumFrameSize)
        fetcher = DataFetcher(configuration: configuration)
        keepalive = Keepalive(
            pingInterval: configuration.pingInterval, silenceTimeout: configuration.silenceTimeout, now: now)
        startedAt = now
        self.now = now
        for zone in zones {
            self.zones[zone.zone] = ZoneReplication(info: zone, batchSize: configuration.changeBatchSize)
        }
    }

    /// Sends our hello.
    public mutating func start(now: ContinuousClock.Instant) -> [SessionAction] {
        guard state == .idle else { return [] }
        begin(now)
        state = .awaitingHello
        out.send(localHello.frame())
        return finish()
    }

    /// Handles one event; returns what to do, in order.
    public mutating func handle(_ event: SessionEvent, now: ContinuousClock.Instant) -> [SessionAction] {
        if case .closed = state { return [] }
        begin(now)
        do throws(ProtocolViolation) {
            try dispatch(event)
        } catch {
            close(.protocolViolation(error.message), code: .protocolError)
        }
        return finish()
    }

    /// True when nothing is waiting to be sent, answered, applied or fetched.
    public var isIdle: Bool { busy.isEmpty }

    /// What is waiting to be sent, answered, applied or fetched (empty when idle).
    public var busy: SessionBusy {
        guard state == .active, remoteAnnounced else { return .opening }
        var busy: SessionBusy = []
        if !outbox.isEmpty { busy.insert(.sendingChanges) }
        if !incoming.isEmpty || pendingUndos > 0 { busy.insert(.applyingChanges) }
        if fetcher.pendingCount > 0 { busy.insert(.fetchingData) }
        if setsApplying > 0 { busy.insert(.applyingSets) }
        for zone in zones.values {
            if zone.preparing || zone.dirty { busy.insert(.sendingChanges) }
            if zone.remote == nil { busy.insert(.zoneNotAnnounced) }
            if zone.setsPreparing || (zone.setsDirty && zone.setsRemote != nil) { busy.insert(.sendingSets) }
            if zone.setsUnanswered > 0 { busy.insert(.setsUnanswered) }
        }
        return busy
    }

    /// What the peer is believed to hold of each zone (nil until it announced the zone).
    public var remoteClocks: [String: VectorClock?] { zones.mapValues(\.remote) }

    /// Photos whose data is queued, in transfer, or waiting for the peer to have it.
    public var pendingDataCount: Int { fetcher.pendingCount }

    private mutating func begin(_ now: ContinuousClock.Instant) {
        self.now = max(self.now, now)
    }

    private mutating func finish() -> [SessionAction] {
        if out.sentFrames { keepalive.sent(at: now) }
        return out.take()
    }

    private mutating func dispatch(_ event: SessionEvent) throws(ProtocolViolation) {
        switch event {
        case .bytes(let bytes):
            decoder.feed(bytes)
            try drainDecoder()
        case .frame(let frame):
            try receive(frame)
        case .zonesChanged(let list): zonesChanged(list)
        case .localCommit(let zone): markDirty(zone)
        case .revoke(let zone, let reason): revoke(zone, reason)
        case .tick: tick()
        case .resync(let list): resync(list)
        case .changesPrepared(let zone, let generation, let result):
            changesPrepared(zone: zone, generation: generation, result)
        case .applied(let zone, let outcome): applied(zone: zone, outcome)
        case .undone(let zone, let result, let kept): undone(zone: zone, result, kept: kept)
        case .dataWanted(let items):
            fetcher.want(items)
            if state == .active { fetcher.pump(&out) }
        case .partialOpened(let hash, let result): fetcher.opened(hash, result, &out)
        case .dataWriteFailed(let hash, let reason): fetcher.writeFailed(hash, reason, &out)
        case .dataFinished(let hash, let completion): fetcher.finished(hash, completion, &out)
        case .dataRead(let request, let result): dataRead(request, result)
        case .dataArrived(let hash): dataArrived(hash)
        case .dataClaimReleased(let hash): fetcher.released(hash, &out)
        case .sendMembership(let zone, let operations, let lists):
            sendMembership(zone: zone, operations, signerLists: lists)
        case .relayRefusals(let message): relayRefusals(message)
        case .setsChanged(let zone): setsChanged(zone)
        case .sendNeighbours(let devices):
            if state == .active, agreement?.capabilities.contains(.neighbours) == true {
                out.send(NeighboursMessage(devices))
            }
        case .sendDeviceList(let entries):
            if state == .active, agreement?.capabilities.contains(.persons) == true, !entries.isEmpty {
                out.send(DeviceListMessage(entries))
            }
        case .sendSiblingZones(let message):
            if state == .active, agreement?.capabilities.contains(.persons) == true { out.send(message) }
        case .sendAddressRecords(let records):
            if state == .active, agreement?.capabilities.contains(.addressRecords) == true, !records.isEmpty {
                let most = configuration.limits.maxAddressRecords
                for start in stride(from: 0, to: records.count, by: most) {
                    out.send(AddressRecordsMessage(Array(records[start..<min(start + most, records.count)])))
                }
            }
        case .setsPrepared(let zone, let result): setsPrepared(zone: zone, result)
        case .setsApplied(let zone, let outcome): setsApplied(zone: zone, outcome)
        case .closeRequested(let code, let reason): close(.local(code, reason), code: code)
        case .transportEnded(let reason): close(.transport(reason), code: nil)
        }
    }

    private mutating func drainDecoder() throws(ProtocolViolation) {
        while state.isOpen {
            let output: FrameDecoder.Output
            do throws(WireError) {
                output = try decoder.next()
            } catch {
                throw ProtocolViolation(error.description)
            }
            guard case .frame(let frame) = output else { return }
            try receive(frame)
        }
    }

    private mutating func receive(_ frame: Frame) throws(ProtocolViolation) {
        keepalive.received(at: now)
        switch state {
        case .awaitingHello: try receiveHello(frame)
        case .active where MessageType.sharingRange.contains(frame.type.rawValue):
            out.append(.sharing(frame))
        case .active:
            let message: PeerMessage
            do throws(WireError) {
                message = try PeerMessage(frame: frame, limits: configuration.limits)
            } catch {
                throw ProtocolViolation(error.description)
            }
            try receive(message)
        default: throw ProtocolViolation("a frame arrived before the session started")
        }
    }

    private mutating func receiveHello(_ frame: Frame) throws(ProtocolViolation) {
        let agreement: VersionAgreement
        do throws(WireError) {
            agreement = try VersionAgreement(
                local: localHello, remote: try Hello(frame: frame), authenticatedPeer: remotePeer)
        } catch {
            throw ProtocolViolation(error.description)
        }
        // A newer peer may come for something this build does not do (linking a device, say):
        // it is told so, rather than taken for a replication connection.
        guard HelloPurpose.served.contains(agreement.purpose) else {
            throw ProtocolViolation(
                "a connection for \(agreement.purpose), which this PeerShare does not serve "
                    + "(it serves sync, join and link)")
        }
        self.agreement = agreement
        state = .active
        out.append(.established(agreement))
        if agreement.capabilities.contains(.addresses), !advertised.isEmpty {
            out.send(Addresses(advertised))
        }
        if agreement.capabilities.contains(.persons), !configuration.deviceList.isEmpty {
            out.send(DeviceListMessage(configuration.deviceList))
        }
        announce(zones.values.map(\.info), evenIfEmpty: true)
        fetcher.pump(&out)
    }

    private mutating func receive(_ message: PeerMessage) throws(ProtocolViolation) {
        switch message {
        case .zoneClocks(let clocks): receiveZoneClocks(clocks)
        case .changeSet(let message): receiveChangeSet(message.set)
        case .ack(let ack): try receiveAnswer(zone: ack.zone, clock: ack.clock, ready: true)
        case .notReady(let answer): try receiveAnswer(zone: answer.zone, clock: answer.clock, ready: false)
        case .dataRequest(let request):
            pendingReads.append(request)
            out.append(.readData(request))
        case .dataChunk(let chunk): try fetcher.received(chunk, &out)
        case .dataError(let error): try fetcher.received(error, &out)
        case .dataAvailable(let available): fetcher.available(available.hash, &out)
        case .ping(let ping): out.send(Pong(nonce: ping.nonce))
        case .pong: break
        case .error(let error): close(.remoteClosed(error.code, error.message), code: nil)
        case .changesRefused(let refused): receiveRefusals(refused)
        case .addresses(let message): out.notify(.addressesAnnounced(message.addresses))
        case .deviceList(let message): out.notify(.deviceListAnnounced(message.entries))
        case .membershipOperations(let message): receiveMembership(message)
        case .setVector(let message): try receiveSetVector(message)
        case .signedSets(let message): try receiveSignedSets(message)
        case .setsTaken(let message): try receiveSetsTaken(message)
        case .neighbours(let message):
            guard agreement?.capabilities.contains(.neighbours) == true else {
                throw ProtocolViolation("a neighbours message, but the hellos did not agree on neighbours")
            }
            out.notify(.neighboursAnnounced(Set(message.devices)))
        case .addressRecords(let message):
            guard agreement?.capabilities.contains(.addressRecords) == true else {
                throw ProtocolViolation("address records, but the hellos did not agree on address records")
            }
            out.notify(.addressRecordsAnnounced(message.records))
        }
    }

    private mutating func tick() {
        switch state {
        case .awaitingHello where now - startedAt >= configuration.helloTimeout:
            close(.timeout("no hello within \(configuration.helloTimeout)"), code: .timeout)
            return
        case .active, .awaitingHello: break
        default: return
        }
        switch keepalive.check(at: now) {
        case .nothing: break
        case .ping(let nonce): out.send(Ping(nonce: nonce))
        case .dead(let silence):
            close(.timeout("nothing received for \(silence); the peer seems gone"), code: .timeout)
            return
        }
        if state == .active { fetcher.tick(now: now, &out) }
    }

    /// Ends the session: tells the peer why when `code` is given, then asks for the close.
    mutating func close(_ reason: SessionCloseReason, code: CloseCode?) {
        if let code {
            var message = reason.description
            if case .local(_, let text) = reason { message = text }
            out.send(ErrorMessage(code: code, message: message))
        }
        let level: SessionLogLevel
        switch reason {
        case .protocolViolation, .internalFailure: level = .warning
        case .transport(nil), .local: level = .info
        default: level = .notice
        }
        out.log(level, "connection closed: \(reason)")
        state = .closed(reason)
        out.append(.close(reason))
    }
}

extension SyncSession.State {
    /// True while frames are still read.
    var isOpen: Bool {
        switch self {
        case .awaitingHello, .active: return true
        default: return false
        }
    }
}
