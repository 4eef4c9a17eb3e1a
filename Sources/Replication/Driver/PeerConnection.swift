import Store
import Support
import Synchronization

/// What a connection reports to whoever runs it (the engine).
protocol ConnectionOwner: AnyObject, Sendable {
    /// The hellos agree. Returns why to close the connection instead, or nil to keep it.
    func connectionEstablished(_ connection: PeerConnection) -> ConnectionRefusal?
    func connection(_ connection: PeerConnection, noticed notice: SessionNotice)
    /// A sharing message arrived; returns the frames to answer with.
    func connection(_ connection: PeerConnection, sharing frame: Frame) -> [Frame]
    func connectionEnded(_ connection: PeerConnection, reason: SessionCloseReason)
    func dataStored(_ store: StoreKind, _ hash: ContentHash)
}

/// Runs one authenticated TLS connection: a reader thread that only reads, and a worker
/// thread that feeds the `SyncSession` and carries out its actions — writes (so they never
/// interleave), SQLite calls and file I/O, all off the Swift concurrency pool.
final class PeerConnection: @unchecked Sendable {
    let id: Int
    let peer: PeerID
    /// The history author of what this connection applies (`sync:PEER`), spelled once: the
    /// engine compares it with every commit's author, for every connection.
    let syncAuthor: String
    let localPeer: PeerID
    /// The peer that dialed this connection.
    let dialer: PeerID
    let tls: TLSConnection
    /// A short connection of a peer that came to join a share, check or end its membership
    /// (its hello's purpose is `join`): it never replaces the peer's replication connection.
    private(set) var isGuest = false
    /// What the peer's hello said the connection is for.
    private(set) var purpose = HelloPurpose.sync
    /// The optional features both hellos announced.
    private(set) var capabilities: Capabilities = []
    let logger: ReplicationLogger
    private let inbox: Inbox
    /// Change sets being applied, off the worker, in order; drained before the connection
    /// reports its end (the library may be closed right after). Its thread stays a second
    /// after its last job: started again for each change a peer pushes (the tags of a busy
    /// share a few hundred milliseconds apart), its creation and exit (the stack given back,
    /// the thread's malloc cache freed) were a tenth of a receiver's CPU per change.
    private let storeWork = JobThread<@Sendable () -> Void>(name: "peer-store", linger: .seconds(1)) { jobs in
        for job in jobs { job() }
    }
    /// Jobs of `storeWork` not finished: the worker waits while there are three (the one
    /// running, one still taking more change sets, one more).
    private let storeBacklog = StoreBacklog(limit: 3)
    private weak var owner: (any ConnectionOwner)?
    private let maximumFrameSize: Int

    // Touched by the worker thread only.
    private var session: SyncSession
    private let effects: StoreEffects
    private var closeReason: SessionCloseReason?
    /// The engine refused the connection at its hello (busy, a duplicate, not a member): it
    /// is closing, and nothing more the peer sent is served. A request that came in the same
    /// read as the hello (a join, say) would otherwise be carried out with it, before the
    /// close: a refused guest's join was taken with every guest slot full.
    private var refused = false
    /// Why a write failed; set once, on the worker (`writeFailed`).
    private var writeFailure: String?

    let status: Mutex<ConnectionStatus>
    let bytesIn = Atomic<Int>(0)
    /// Wall-clock milliseconds of the last bytes received (0: none yet). An atomic, not part of
    /// `status`: the reader sets it per read and must not contend with the worker for a lock.
    let lastReceivedAt = Atomic<UInt64>(0)
    let bytesOut = Atomic<Int>(0)
    /// Set by the engine when this connection becomes the one in use with its peer. Such a
    /// connection is no failed dial however it ends, even after the record has moved on (a
    /// newer connection replaced it and has ended too), where the record alone cannot tell it
    /// from a dial that never got that far.
    let wasInUse = Atomic<Bool>(false)
    /// How the reader ended, for a clearer reason when a write fails first.
    private let readerFailure = Guarded<TLSError?>(nil)
    private let finished = Condition()
    private var isFinished = false

    /// `connectedAt` is when TCP connected: the hello must arrive within the engine's
    /// `handshakeTimeout` of it, TLS handshake included.
    init(
        id: Int, tls: TLSConnection, dialedByLocal: Bool, connectedAt: ContinuousClock.Instant,
        library: Library, zones: [SessionZone], configuration: ReplicationConfiguration,
        advertised: [PeerAddress], claims: DataClaims, committer: DataCommitter, sets: SetRelay,
        owner: any ConnectionOwner,
        logger: ReplicationLogger
    ) {
        self.id = id
        self.tls = tls
        peer = tls.remotePeerID
        syncAuthor = HistoryAuthor.sync(tls.remotePeerID).description
        localPeer = library.localPeer
        dialer = dialedByLocal ? library.localPeer : tls.remotePeerID
        self.owner = owner
        self.logger = logger
        maximumFrameSize = configuration.session.maximumFrameSize
        let inbox = Inbox(byteLimit: configuration.inboxByteLimit)
        self.inbox = inbox
        var sessionConfiguration = configuration.session
        sessionConfiguration.helloTimeout = configuration.handshakeTimeout
        session = SyncSession(
            localPeer: library.localPeer, remotePeer: tls.remotePeerID, zones: zones,
            configuration: sessionConfiguration, advertised: advertised, now: connectedAt)
        effects = StoreEffects(
            library: library, remotePeer: tls.remotePeerID, claims: claims,
            publish: { committer.submit($0, then: $1) }, deliver: { inbox.post($0) },
            background: { [storeWork, storeBacklog] job in
                storeBacklog.enter()
                storeWork.submit {
                    job()
                    storeBacklog.leave()
                }
            },
            backgroundIsIdle: { [storeBacklog] in storeBacklog.isEmpty },
            onDataStored: { [weak owner] store, hash in owner?.dataStored(store, hash) }, sets: sets,
            maximumSetBodyBytes: sessionConfiguration.maximumFrameSize)
        effects.zones = Dictionary(zones.map { ($0.zone, $0) }, uniquingKeysWith: { first, _ in first })
        status = Mutex(ConnectionStatus(zones: Set(zones.map(\.zone))))
        tls.readTimeout = nil
        tls.writeTimeout = configuration.writeTimeout
    }

    var dialedByLocal: Bool { dialer == localPeer }

    /// Wall-clock milliseconds of the last bytes received, if any.
    var lastReceived: UInt64? {
        let value = lastReceivedAt.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Starts the reader and worker threads.
    func start() {
        let reader = IOThread.start(name: "peer-read") { [self] in readLoop() }
        IOThread.detach(name: "peer-work") { [self] in
            workerLoop()
            // Closing wakes the reader (blocked in a read, or waiting for inbox space).
            tls.close()
            inbox.close()
            reader.join()
            finishUp()
        }
    }

    func post(_ event: SessionEvent) { inbox.post(event) }

    /// Closes the connection after telling the peer why; queued input is skipped.
    func close(_ code: CloseCode, _ reason: String) { inbox.postUrgent(.closeRequested(code, reason)) }

    /// Cuts the connection at once, as a network failure would.
    func cut() { tls.close() }

    /// Waits until both threads are done; false on timeout.
    func waitUntilFinished(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        return finished.withLock {
            while !isFinished {
                let left = deadline - .now
                if left <= .zero { return false }
                finished.wait(timeout: left)
            }
            return true
        }
    }

    private func readLoop() {
        while true {
            let result = Result { () throws(TLSError) -> [UInt8] in try readChunk() }
            switch result {
            case .success(let bytes) where bytes.isEmpty:
                inbox.post(.transportEnded(nil))
                return
            case .success(let bytes):
                bytesIn.add(bytes.count, ordering: .relaxed)
                lastReceivedAt.store(HybridLogicalClock.wallMilliseconds(), ordering: .relaxed)
                guard inbox.postBytes(bytes) else { return }
            case .failure(let error):
                readerFailure.update { $0 = error }
                inbox.post(
                    .transportEnded(error == .closed ? "the connection was closed here" : error.description))
                return
            }
        }
    }

    /// What has arrived (every TLS record already here, up to `readChunkBytes`), in a buffer
    /// of its own that is handed to the worker as it is: a bulk transfer fills it, so no copy
    /// is made, and the worker is woken once per burst rather than once per 16 KB record. A
    /// short read is copied to an exact-size array instead, so queued input never holds
    /// mostly empty capacity.
    private func readChunk() throws(TLSError) -> [UInt8] {
        var failure: TLSError?
        let bytes = [UInt8](unsafeUninitializedCapacity: Self.readChunkBytes) { raw, count in
            do throws(TLSError) {
                count = try tls.readAvailable(into: UnsafeMutableRawBufferPointer(raw))
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return bytes.count >= Self.readChunkBytes / 4
            ? bytes
            : Array(unsafeUninitializedCapacity: bytes.count) {
                raw, count in
                count = raw.initialize(fromContentsOf: bytes)
            }
    }

    /// What one read takes at most: a photo-data chunk's worth (16 TLS records).
    static let readChunkBytes = 256 << 10

    private func workerLoop() {
        run(session.start(now: .now))
        handle(.dataWanted(effects.missingData()))
        while closeReason == nil, let event = inbox.take() {
            storeBacklog.waitBelowLimit()
            handle(event)
        }
    }

    private func finishUp() {
        storeWork.waitUntilIdle()
        effects.tearDown()
        let reason = closeReason ?? .transport("the connection was closed here")
        status.withLock { $0.ended = true }
        owner?.connectionEnded(self, reason: reason)
        finished.withLock {
            isFinished = true
            finished.broadcast()
        }
    }

    private func handle(_ event: SessionEvent) {
        switch event {
        case .zonesChanged(let list):
            effects.zones = Dictionary(list.map { ($0.zone, $0) }, uniquingKeysWith: { first, _ in first })
            status.withLock { $0.zones = Set(list.map(\.zone)) }
        case .revoke(let zone, _):
            effects.zones[zone] = nil
            _ = status.withLock { $0.zones.remove(zone) }
        default: break
        }
        run(session.handle(event, now: .now))
        publish()
    }

    /// Carries out actions in order; the events they result in are handled after the whole
    /// list, in order, as if they had come through the inbox. (Handled at once, an event's
    /// own sends — new data requests, say — would go out before sends already decided,
    /// breaking the order the peer answers in.)
    private func run(_ actions: [SessionAction]) {
        var results: [SessionEvent] = []
        carryOut(actions, into: &results)
        var next = 0
        while next < results.count {
            let event = results[next]
            next += 1
            carryOut(session.handle(event, now: .now), into: &results)
        }
    }

    private func carryOut(_ actions: [SessionAction], into results: inout [SessionEvent]) {
        // What the session meant to send after the hello is for an accepted peer: a refused
        // one is sent what the refusal tells it, then the reason (`ConnectionRefusal`).
        var refusedHere = false
        for action in actions {
            switch action {
            case .send where refusedHere:
                continue
            case .send(let frames):
                if let failure = write(frames) { writeFailed(failure) }
            case .established(let agreement):
                purpose = agreement.purpose
                capabilities = agreement.capabilities
                isGuest = agreement.purpose == .join || agreement.purpose == .link
                if let refusal = owner?.connectionEstablished(self) {
                    refused = true
                    refusedHere = true
                    if !refusal.told.isEmpty, let failure = write(refusal.told) { writeFailed(failure) }
                    results.append(.closeRequested(refusal.code, refusal.reason))
                }
            case .sharing where refused, .notify where refused:
                continue
            case .sharing(let frame):
                let replies = owner?.connection(self, sharing: frame) ?? []
                if !replies.isEmpty, let failure = write(replies) { writeFailed(failure) }
            case .notify(let notice):
                owner?.connection(self, noticed: notice)
            case .log(let level, let message):
                logger.log(level, message, peer: peer)
            case .close(let reason):
                closeReason = reason
            default:
                guard !refused else { continue }
                results.append(contentsOf: effects.perform(action) ?? [])
            }
        }
    }

    /// A write failed (the peer closed, most often): nothing more is written, and the
    /// connection ends once the worker reaches the end of what had arrived. What the peer
    /// sent before it closed is still taken: its reason for closing, or a revocation sent
    /// just before (taken for a lost connection instead, a removed participant kept its copy
    /// until a membership check, and a dial refused as a duplicate counted as a failure).
    private func writeFailed(_ failure: String) {
        guard writeFailure == nil else { return }
        let reason = explain(writeFailure: failure)
        writeFailure = reason
        inbox.post(.transportEnded(reason))
    }

    /// Small frames are gathered into one write; a large payload or tail (photo data) is
    /// written straight from its array after what precedes it, saving a copy of every chunk.
    /// Nothing is written after a write failed (`writeFailed`).
    private func write(_ frames: [Frame]) -> String? {
        guard writeFailure == nil else { return nil }
        var pending: [UInt8] = []
        var total = 0
        do throws(TLSError) {
            for frame in frames {
                guard frame.bodyLength <= maximumFrameSize else {
                    return
                        "cannot send: \(WireError.frameTooLarge(length: frame.bodyLength, maximum: maximumFrameSize))"
                }
                total += WireLimits.frameHeaderSize + frame.bodyLength
                if frame.bodyLength < Self.directWriteThreshold {
                    try? frame.encode(into: &pending, maximumFrameSize: maximumFrameSize)
                    continue
                }
                withUnsafeBytes(of: UInt32(frame.bodyLength).bigEndian) { pending.append(contentsOf: $0) }
                pending.append(frame.type.rawValue)
                for part in [frame.payload[...], frame.tail] where !part.isEmpty {
                    if part.count < Self.directWriteThreshold {
                        pending.append(contentsOf: part)
                        continue
                    }
                    try flush(&pending)
                    try part.withUnsafeBytes { raw in Result { () throws(TLSError) in try tls.write(raw) } }
                        .get()
                }
            }
            try flush(&pending)
        } catch {
            return error.description
        }
        bytesOut.add(total, ordering: .relaxed)
        return nil
    }

    private func flush(_ pending: inout [UInt8]) throws(TLSError) {
        guard !pending.isEmpty else { return }
        try tls.write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    static let directWriteThreshold = 16 << 10

    /// A write fails when the peer is gone, but the reason (a TLS alert refusing our
    /// identity, typically) reaches the reader: waits briefly for it and prefers it.
    private func explain(writeFailure: String) -> String {
        let failure = readerFailure.wait(until: { $0 != nil }, timeout: .seconds(1))
        if let failure, case .rejectedByPeer = failure { return failure.description }
        return writeFailure
    }

    /// Makes the session's progress visible to other threads; the clocks only when idle (the
    /// only time they are read), so a busy transfer does not copy them per chunk.
    private func publish() {
        let busy = session.busy
        let idle = busy.isEmpty
        let pending = session.pendingDataCount
        let announced = session.remoteAnnounced
        let clocks: [String: VectorClock?]? = idle ? session.remoteClocks : nil
        status.withLock { status in
            status.busy = busy
            status.pendingData = pending
            status.announced = announced
            if let clocks { status.remoteClocks = clocks }
        }
    }
}

/// A connection's progress as other threads see it.
struct ConnectionStatus: Sendable {
    var zones: Set<String>
    /// What the session is waiting on (`.opening` until it has started).
    var busy: SessionBusy = .opening
    var idle: Bool { busy.isEmpty }
    var announced = false
    var pendingData = 0
    var remoteClocks: [String: VectorClock?] = [:]
    var ended = false
    /// Where the peer said it listens (its addresses message), if it did.
    var announcedAddresses: [PeerAddress] = []
    /// The peer's checked device list (its person), once it sent one.
    var person: DeviceList?
    /// The members the peer last said it is connected to; nil until it says.
    var neighbours: Set<PeerID>?
    /// The members this side last told the peer it is connected to.
    var toldNeighbours: Set<PeerID>?
}
