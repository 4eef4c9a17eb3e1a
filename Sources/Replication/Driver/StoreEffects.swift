import Glibc
import Store
import Support

/// Carries out the store side of a session's actions for one connection: computing and
/// applying change sets, finding photo data that is missing, and writing it to partial
/// files. Blocking (SQLite, disk), so it runs on the connection's own thread.
///
/// Results come back as the `SessionEvent`s the session expects. Used by `PeerConnection`,
/// and directly by tests that wire two sessions together without sockets.
final class StoreEffects {
    let library: Library
    let remotePeer: PeerID
    let claims: DataClaims
    /// Told when photo data was stored, so that other connections can stop wanting it.
    let onDataStored: @Sendable (StoreKind, ContentHash) -> Void
    /// Makes verified photo data durable and visible, then calls back (on any thread).
    let publish: @Sendable (PartialBlob, @escaping @Sendable (StoreError?) -> Void) -> Void
    /// Hands an event that completes later (published data, applied changes) back to the
    /// session.
    var deliver: @Sendable (SessionEvent) -> Void
    /// Runs store work off the connection's thread, in submission order: applying a change
    /// set then overlaps with receiving photo data.
    let background: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Whether `background` has nothing queued or running. A small change set then needs
    /// nothing to wait for and is applied on the connection's thread (`inlineApplyChanges`).
    let backgroundIsIdle: @Sendable () -> Bool
    /// The zones replicated with the peer, as last given to the session.
    var zones: [String: SessionZone] = [:] {
        didSet { closeServedFile() }
    }
    var partials: [ContentHash: (blob: PartialBlob, store: StoreKind)] = [:]
    /// The data last served, kept open: a transfer asks for the same file chunk after chunk,
    /// and checking the requester's right to it once per file is enough (reset when the
    /// zones replicated with the peer change).
    var served: (hash: ContentHash, fd: Int32, size: UInt64)?
    /// Reads and applies signed sets (nil: this side does not relay them).
    let sets: SetRelay?
    /// Authors whose certificate went to the peer on this connection.
    var sentCertificates: Set<PeerID> = []
    /// The largest set body taken from the peer (the frame limit).
    let maximumSetBodyBytes: Int
    /// Received change sets whose apply job is still taking sets: the next set of the same
    /// zone joins them (used on the connection's thread only).
    private var openBatch: PendingSets?

    init(
        library: Library, remotePeer: PeerID, claims: DataClaims,
        publish: @escaping @Sendable (PartialBlob, @escaping @Sendable (StoreError?) -> Void) -> Void,
        deliver: @escaping @Sendable (SessionEvent) -> Void,
        background: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        backgroundIsIdle: @escaping @Sendable () -> Bool,
        onDataStored: @escaping @Sendable (StoreKind, ContentHash) -> Void,
        sets: SetRelay? = nil, maximumSetBodyBytes: Int = 16 << 20
    ) {
        self.sets = sets
        self.maximumSetBodyBytes = maximumSetBodyBytes
        self.library = library
        self.remotePeer = remotePeer
        self.claims = claims
        self.publish = publish
        self.deliver = deliver
        self.background = background
        self.backgroundIsIdle = backgroundIsIdle
        self.onDataStored = onDataStored
    }

    /// The largest change set applied on the connection's own thread when no store work is
    /// queued: a peer's live change (a tag, a rating) is a few field changes, and handing it
    /// to the applier thread and its result back cost two thread wake-ups per change at
    /// every receiver of a zone. Larger sets still go to the applier, so that applying them
    /// overlaps with receiving photo data.
    static let inlineApplyChanges = 64
    /// The same for signed sets, by their encoded size: a relayed change of one tag is one
    /// or two sets of a few hundred bytes each.
    static let inlineApplySetBytes = 8 << 10

    /// Performs a store action; nil for actions that are not about the store.
    func perform(_ action: SessionAction) -> [SessionEvent]? {
        switch action {
        case .prepareChanges(let zone, let since, let batchSize, let limit, let generation):
            return [
                .changesPrepared(zone: zone, generation: generation, prepare(zone, since, batchSize, limit))
            ]
        case .apply(let set):
            // Sets that arrive while the previous ones wait to be applied join them: one
            // transaction for several sets (`LibraryStore.apply(_:from:)` on an array).
            if let batch = openBatch, batch.join(set) { return [] }
            if set.changeCount <= Self.inlineApplyChanges, backgroundIsIdle() {
                openBatch = nil
                guard let store = store(ofZone: set.zone) else {
                    return [.applied(zone: set.zone, .unknownZone)]
                }
                return Self.answer(set, Result { try store.apply(set, from: remotePeer) }, store)
            }
            let batch = PendingSets(set)
            openBatch = batch
            let (store, peer, deliver) = (store(ofZone: set.zone), remotePeer, self.deliver)
            background {
                for event in Self.apply(batch, to: store, from: peer) { deliver(event) }
            }
            return []
        case .prepareSets(let zone, let after, let byteLimit):
            return [.setsPrepared(zone: zone, prepareSets(zone, after, byteLimit))]
        case .applySets(let message):
            openBatch = nil  // later change sets are applied after these signed sets
            let (store, relay, limit) = (store(ofZone: message.zone), sets, maximumSetBodyBytes)
            let relayIsOwner = zones[message.zone]?.peerIsOwner == true
            let owner = relayIsOwner ? remotePeer : nil
            let applySets: @Sendable () -> SessionEvent = {
                SessionEvent.setsApplied(
                    zone: message.zone,
                    Self.apply(
                        message, to: store, relay: relay, relayIsOwner: relayIsOwner, owner: owner, limit))
            }
            if message.sets.reduce(0, { $0 + $1.count }) <= Self.inlineApplySetBytes, backgroundIsIdle() {
                return [applySets()]
            }
            let deliver = self.deliver
            background { deliver(applySets()) }
            return []
        case .undoRefused(let message):
            openBatch = nil  // later change sets are applied after this undo
            let (store, peer, deliver) = (store(ofZone: message.zone), remotePeer, self.deliver)
            background {
                for event in Self.undo(message, in: store, refusedBy: peer) { deliver(event) }
            }
            return []
        case .openPartial(let item): return [.partialOpened(item.hash, openPartial(item))]
        case .writeData(let hash, let bytes): return write(hash, bytes)
        case .finishData(let hash): return finish(hash)
        case .closePartial(let hash, let discard):
            closePartial(hash, discard: discard)
            return []
        case .readData(let request): return [.dataRead(request, read(request))]
        default: return nil
        }
    }

    /// Releases every partial file (kept for a later resume) and claim, and the served file.
    func tearDown() {
        for hash in Array(partials.keys) { closePartial(hash, discard: false) }
        closeServedFile()
    }

    func closeServedFile() {
        if let served { close(served.fd) }
        served = nil
    }

    private func prepareSets(_ zone: String, _ after: SeqVector, _ byteLimit: Int) -> Result<
        PreparedSets, SessionFailure
    > {
        guard let store = store(ofZone: zone), let sets else {
            return .success(PreparedSets(sets: [], certificates: [], more: false))
        }
        do {
            return .success(
                try sets.prepare(
                    zone: zone, after: after, byteLimit: byteLimit, in: store,
                    sentCertificates: &sentCertificates))
        } catch {
            return .failure(SessionFailure("\(error)"))
        }
    }

    private func store(ofZone zone: String) -> LibraryStore? {
        zones[zone].map { library.store($0.store) }
    }

    private func prepare(_ zone: String, _ since: VectorClock, _ batchSize: Int, _ limit: ChangePageLimit)
        -> Result<
            ChangePage, SessionFailure
        >
    {
        guard let info = zones[zone] else { return .success(ChangePage(sets: [], complete: true)) }
        let store = library.store(info.store)
        // A participant sends only what it wrote: a peer takes nothing else from it (but
        // another device of its person, which takes its copy whole).
        let author = info.sendsWhole ? nil : store.localPeer
        do {
            return .success(
                try store.changePage(
                    zone: zone, since: since, batchSize: batchSize, author: author, limit: limit))
        } catch StoreError.unknownZone {
            return .success(ChangePage(sets: [], complete: true))
        } catch {
            return .failure(SessionFailure("\(error)"))
        }
    }

    /// Checks, keeps and applies the signed sets of `message` (nothing without a store of the
    /// zone or a relay).
    private static func apply(
        _ message: SignedSetsMessage, to store: LibraryStore?, relay: SetRelay?, relayIsOwner: Bool,
        owner: PeerID?, _ maximumBodyBytes: Int
    ) -> SetsApplied {
        guard let store, let relay else { return SetsApplied(received: [:], held: SeqVector(), gap: false) }
        do {
            return try relay.apply(
                message, to: store, relayIsOwner: relayIsOwner, owner: owner,
                maximumBodyBytes: maximumBodyBytes)
        } catch {
            return SetsApplied(received: [:], held: SeqVector(), gap: false, failure: "\(error)")
        }
    }

    /// Applies the batch's sets of one zone in order, with those that join it while they are
    /// applied (together when they all apply), each answered as if it had been applied alone.
    private static func apply(_ batch: PendingSets, to store: LibraryStore?, from peer: PeerID)
        -> [SessionEvent]
    {
        guard let store else {
            var events: [SessionEvent] = []
            while case let sets = batch.take(), !sets.isEmpty {
                events += sets.map { .applied(zone: $0.zone, .unknownZone) }
            }
            return events
        }
        return store.apply(from: peer, taking: batch.take).flatMap { answer($0.set, $0.result, store) }
    }

    private static func answer(
        _ set: ChangeSet, _ result: Result<ApplyReport, any Error>, _ store: LibraryStore
    )
        -> [SessionEvent]
    {
        let outcome: ApplyOutcome
        let named: [LibraryStore.DataReference]
        do {
            let report = try result.get()
            named = report.namedData
            // With a refusal for want of permission, the records of its author it was judged by.
            let judged = Set(
                report.refused.filter(\.forWantOfPermission).flatMap { $0.fields.map(\.stamp.peer) })
            let versions =
                try store.currentVersions(zone: set.zone, of: report.refused.map { ($0.entity, $0.id) })
                + judged.sorted().flatMap { try store.recordsJudging(author: $0, zone: set.zone) }
            outcome = .applied(
                refused: report.refused, versions: versions, clock: try store.clock(of: set.zone))
        } catch SyncError.notReady(_, let have, _) {
            return [.applied(zone: set.zone, .notReady(clock: have))]
        } catch SyncError.unknownZone {
            return [.applied(zone: set.zone, .unknownZone)]
        } catch {
            return [.applied(zone: set.zone, .failed("\(error)"))]
        }
        // The data wanted first: delivered separately, the session would otherwise look idle
        // (in sync) for a moment between the two, with the photos' data still missing. Only
        // what the store took from the sender is named (`ApplyReport.namedData`), so a member
        // that may not write gets none of its data stored here. Whether the data is here
        // already is checked when its transfer opens (`openPartial`), on the connection's
        // worker: checked here, on the thread that applies, that file lookup per photo was
        // 4.6 % of a joiner's critical thread.
        let wanted = store.dataItems(named)
        return (wanted.isEmpty ? [] : [.dataWanted(wanted)]) + [.applied(zone: set.zone, outcome)]
    }

    /// Undoes this peer's changes that the peer refused; photo data the undo brought back
    /// into view (a refused delete) is wanted first.
    private static func undo(_ message: ChangesRefused, in store: LibraryStore?, refusedBy peer: PeerID)
        -> [SessionEvent]
    {
        guard let store else { return [.undone(zone: message.zone, .success([]))] }
        do {
            // A refusal for want of permission by a device whose records of the author are
            // older than this side's (another device of the owner that has not heard of a
            // permission change yet) is no verdict: kept, and sent again.
            let records = ChangesRefused.judgingRecords(in: message.versions, refusals: message.refusals)
            if !records.isEmpty, try store.holdsNewerRecords(than: records, zone: message.zone) {
                return [.undone(zone: message.zone, .success([]), kept: message.refusals)]
            }
            try store.undoRefused(
                zone: message.zone, refusals: message.refusals, versions: message.versions, authority: peer)
        } catch StoreError.unknownZone {
            return [.undone(zone: message.zone, .success([]))]
        } catch {
            return [.undone(zone: message.zone, .failure(SessionFailure("\(error)")))]
        }
        let wanted = store.missingDataItems(zone: message.zone)
        return (wanted.isEmpty ? [] : [.dataWanted(wanted)]) + [
            .undone(zone: message.zone, .success(message.refusals))
        ]
    }

    /// Photo data missing in the zones replicated with the peer: what to fetch on connect.
    func missingData() -> [DataItem] {
        zones.values.sorted { $0.zone < $1.zone }.flatMap {
            library.store($0.store).missingDataItems(zone: $0.zone)
        }
    }
}

/// Change sets of one zone received on a connection for one apply job: sets join until the
/// job finds none waiting, up to `SessionConfiguration.maximumChangesPerApply` field changes
/// in all, and the job takes them into its transaction as they come.
private final class PendingSets: Sendable {
    private let state: Guarded<(waiting: [ChangeSet], changes: Int, closed: Bool)>
    private let zone: String

    init(_ first: ChangeSet) {
        zone = first.zone
        state = Guarded(([first], first.changeCount, false))
    }

    /// Adds `set` unless the job is done taking sets, the zone differs or the group is full.
    func join(_ set: ChangeSet) -> Bool {
        guard set.zone == zone else { return false }
        return state.withLock { state in
            guard !state.closed,
                state.changes + set.changeCount <= SessionConfiguration.maximumChangesPerApply
            else { return false }
            state.waiting.append(set)
            state.changes += set.changeCount
            return true
        }
    }

    /// The sets waiting, each once. None closes the batch: later sets start a group of their own.
    func take() -> [ChangeSet] {
        state.withLock { state in
            state.closed = state.waiting.isEmpty
            defer { state.waiting = [] }
            return state.waiting
        }
    }
}
