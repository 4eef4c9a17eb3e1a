import FoundationEssentials
import Support
import Synchronization

/// One SQLite database of a person's library — the private or the shared one — with its
/// replicated objects, per-field stamps, per-zone clocks and persistent history.
///
/// The connection is private: every query runs in a `read { db in … }` closure and every
/// change in a `write(author:) { tx in … }` closure (one SQLite transaction recorded in
/// history), both holding the store's one lock, so the compiler rather than a convention
/// keeps statements inside it.
public final class LibraryStore: @unchecked Sendable {
    public let kind: StoreKind
    public let localPeer: PeerID
    /// The connection, reachable only through `read`, `write` and `writeLocal`, which hold
    /// `lock` while they hand it to their closure: no statement runs outside the lock.
    private let db: Database
    /// Copies the write-ahead log into the database off the committing thread.
    private let checkpointer: Checkpointer
    public let blobs: BlobStore
    let clock: HybridLogicalClock
    let lock = Lock()
    let limits: StoreLimits
    let ids: IDSource
    /// The small integers standing for peers in the stamps and clocks, both ways;
    /// guarded by `lock`, so reached only through methods that take the connection.
    private var peerIndex: [PeerID: Int64] = [:]
    private var peerByIndex: [Int64: PeerID] = [:]
    private var observers: [@Sendable (HistoryEntry) -> Void] = []
    private var clockObservers: [@Sendable (String) -> Void] = []
    private var thumbnailJobObservers: [@Sendable () -> Void] = []
    /// Committed entries not yet given to the observers, in token order.
    private var committed: [HistoryEntry] = []
    /// The log's size when a writer last made a checkpoint catch up (under `lock`).
    private var caughtUpAt: Int32 = 0
    /// The last small delta page computed, under `lock`: the peers of a zone that are all up
    /// to date ask for the same page after each commit (50 participants for one tag), and all
    /// but the first get it from here instead of reading it again (`changePage`).
    var recentPage: RecentRead<ChangePageRequest, ChangePage>?
    /// The last signed sets a peer was given (`signedSets`), under `lock`, for the same reason.
    var recentSets: RecentRead<SignedSetsRequest, (sets: [SignedSetRow], more: Bool)>?
    /// Signs this device's sets as local transactions commit (`signOwnSets`); under `lock`.
    var ownSetSigner: OwnSetSigner?
    /// Which devices are whose (set by Replication from the device lists it checked): the
    /// other devices of this library's person may do what this device may, and a zone's
    /// owner and participants act through any of their current devices.
    let deviceGroups = Mutex(DeviceGroups())
    private var draining = false
    /// Reads and writes so far, and what `releaseMemoryIfQuiet` last saw of that count.
    let uses = Atomic<Int>(0)
    let memoryWatch = Mutex(MemoryWatch())

    /// The private store's zone that is never shared.
    public static let defaultZone = "default"

    public init(
        path: String, kind: StoreKind, localPeer: PeerID, blobs: BlobStore,
        clock: HybridLogicalClock, limits: StoreLimits = StoreLimits(), ids: IDSource = IDSource()
    ) throws {
        self.ids = ids
        self.kind = kind
        self.localPeer = localPeer
        self.blobs = blobs
        self.clock = clock
        self.limits = limits
        self.db = try Database(path: path)
        checkpointer = Checkpointer(path: path)
        if try Migrations.migrate(db) == .upgraded {
            // The log holds every page the upgrade wrote (a table rebuilt: as much again as
            // the file): copied back and emptied, so the store is no larger than its content.
            _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) }
        }
        try SchemaCheck.verify(db)
        db.takeOverCheckpoints()
        try loadPeers()
        try writeLocal { db in try Self.adoptKnownFields(db) }
        if kind == .private {
            try writeLocal { db in try createZone(Self.defaultZone, owner: localPeer, db) }
        }
    }

    /// Registers a callback run after every committed transaction (outside the lock).
    public func observe(_ observer: @escaping @Sendable (HistoryEntry) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// Registers a callback run (outside the lock) when a received change set moved a zone's
    /// clock without committing a change: what replication must pass on as it passes commits.
    public func observeClockMoves(_ observer: @escaping @Sendable (_ zone: String) -> Void) {
        lock.withLock { clockObservers.append(observer) }
    }

    func notifyClockMoved(_ zone: String) {
        for observer in lock.withLock({ clockObservers }) { observer(zone) }
    }

    /// Registers a callback run (outside the lock) after a photo added on this device without
    /// a thumbnail is committed, with its thumbnail job: the daemon's thumbnail worker wakes.
    public func observeThumbnailJobs(_ observer: @escaping @Sendable () -> Void) {
        lock.withLock { thumbnailJobObservers.append(observer) }
    }

    func notifyThumbnailJobQueued() {
        for observer in lock.withLock({ thumbnailJobObservers }) { observer() }
    }

    /// Closes the database; later operations fail with a "closed" error.
    public func close() {
        checkpointer.close()
        lock.withLock { db.close() }
    }

    /// Copies the whole write-ahead log back into the database file now and empties it
    /// (after any background checkpoint): the store's files are then complete on their own,
    /// as before a file-level backup, and no deferred work is pending.
    public func checkpoint() throws {
        checkpointer.waitUntilIdle()
        // Outside any transaction: a checkpoint cannot pass a snapshot its own connection holds.
        uses.add(1, ordering: .relaxed)
        try lock.withLock { _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) } }
    }

    /// `PRAGMA integrity_check` of the database file.
    public func integrityCheck() throws -> String {
        try read { db in try db.integrityCheck() }
    }

    /// Runs `body` with the connection under the store's lock, for queries. `body` must not
    /// keep the connection, nor call back into the store (the lock is not reentrant).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        uses.add(1, ordering: .relaxed)
        return try lock.withLock { try db.readTransaction { try body(db) } }
    }

    /// `read` for a request whose answer is kept in `slot` (under the store's lock): looked up
    /// there before any transaction is opened, so that the peers asking for the same answer
    /// after a commit hold the lock only that long; read and kept (if small) otherwise.
    /// `body` gives the answer and its size in bytes.
    func readKept<Request, Answer>(
        _ slot: ReferenceWritableKeyPath<LibraryStore, RecentRead<Request, Answer>?>, _ request: Request,
        _ body: (Database) throws -> (Answer, bytes: Int)
    ) throws -> Answer {
        uses.add(1, ordering: .relaxed)
        return try lock.withLock {
            let generation = db.totalChanges
            if let answer = self[keyPath: slot]?.answer(request, at: generation) { return answer }
            let (answer, bytes) = try db.readTransaction { try body(db) }
            self[keyPath: slot] =
                bytes <= RecentRead<Request, Answer>.maximumBytes
                ? RecentRead(request: request, generation: generation, answer: answer) : nil
            return answer
        }
    }

    /// Runs `body` as one transaction recorded in history under `author`, then tells the
    /// observers. Every local change is stamped with `stamp`: by default a new reading of the
    /// clock; an apply passes its own (received fields keep the stamps they carry, so its
    /// stamp only dates the history entry). A throw rolls everything back. A `.local` write
    /// made while a control request of a named client is served is recorded as that client's
    /// (`ClientAuthorContext`).
    func write<T>(author: HistoryAuthor, stamp: Stamp? = nil, _ body: (Transaction) throws -> T) throws -> T {
        // A local write made for a client that named itself is recorded under its name.
        let author =
            author == .local ? (ClientAuthorContext.name.map(HistoryAuthor.client) ?? .local) : author
        uses.add(1, ordering: .relaxed)
        let result: T = try lock.withLock {
            try transaction {
                let tx = Transaction(
                    store: self, db: db, author: author,
                    stamp: stamp ?? Stamp(hlc: clock.tick(), peer: localPeer))
                let result = try body(tx)
                if let entry = try tx.finish() { committed.append(entry) }
                return result
            }
        }
        notifyCommitted()
        return result
    }

    /// Frees the connection's unused cached pages; not counted as a use.
    func releaseCachedPages() {
        lock.withLock { db.releaseMemory() }
    }

    /// Runs `body` as one transaction on this peer's own bookkeeping (invitations,
    /// departures, addresses, adopted fields): nothing is stamped, replicated or recorded in
    /// history.
    func writeLocal<T>(_ body: (Database) throws -> T) throws -> T {
        uses.add(1, ordering: .relaxed)
        return try lock.withLock { try transaction { try body(db) } }
    }

    /// One SQLite transaction; on failure the peer numbering is reloaded, since numbers
    /// handed out inside the transaction were rolled back with it.
    private func transaction<T>(_ body: () throws -> T) throws -> T {
        // A log that a passive checkpoint never wholly caught up with is copied back first
        // (once per `catchUpPages` of growth, should a reader keep it from restarting).
        if db.walPages >= caughtUpAt + Checkpointer.catchUpPages {
            checkpointer.catchUp()
            caughtUpAt = db.walPages
        } else if db.walPages < caughtUpAt {
            caughtUpAt = 0
        }
        do {
            let result = try db.transaction(body)
            checkpointer.committed(walPages: db.walPages)
            return result
        } catch {
            try? loadPeers()
            throw error
        }
    }

    private func loadPeers() throws {
        peerIndex = [:]
        peerByIndex = [:]
        try db.forEach("SELECT idx, peer_id FROM peers") { row in
            if let peer = PeerID(digest: row.bytes(1)) {
                peerIndex[peer] = row.int64(0)
                peerByIndex[row.int64(0)] = peer
            }
        }
    }

    /// The small integer standing for `peer` in the stamps and clocks, numbering it
    /// if it is new. `db` is the connection a `read`/`write` closure was given.
    func index(of peer: PeerID, _ db: Database) throws -> Int64 {
        if let idx = peerIndex[peer] { return idx }
        try db.run("INSERT INTO peers (peer_id) VALUES (?)", peer.bytes)
        let idx = db.lastInsertRowID
        peerIndex[peer] = idx
        peerByIndex[idx] = peer
        return idx
    }

    /// Every peer the stamps and clocks number: each device that wrote something here.
    public func numberedPeers() throws -> [PeerID] {
        try read { _ in Array(peerByIndex.values) }
    }

    /// The peer a number in the stamps and clocks stands for. Taking the connection
    /// a `read`/`write` closure was given keeps the lookup inside the lock.
    func peer(numbered index: Int64, _ db: Database) -> PeerID? {
        peerByIndex[index]
    }

    /// Every numbered peer, with its number.
    func numberedPeers(_ db: Database) -> [(index: Int64, peer: PeerID)] {
        peerByIndex.map { ($0.key, $0.value) }
    }

    /// Tells the observers about committed entries in token order, outside the store's lock.
    /// One thread at a time drains; a commit made meanwhile (even by an observer) is queued
    /// and delivered by the same drain, so observers never see token N+1 before N.
    private func notifyCommitted() {
        while true {
            let next: ([HistoryEntry], [@Sendable (HistoryEntry) -> Void])? = lock.withLock {
                guard !draining, !committed.isEmpty else { return nil }
                draining = true
                defer { committed = [] }
                return (committed, observers)
            }
            guard let (entries, current) = next else { return }
            for entry in entries {
                for observer in current { observer(entry) }
            }
            lock.withLock { draining = false }
        }
    }
}

/// Sizes a store refuses to exceed; named in the daemon's config.
public struct StoreLimits: Sendable {
    public var maxNameBytes: Int
    public var maxPhotoBytes: Int64
    public var maxThumbnailBytes: Int
    /// The largest value of a field a newer version sent that is kept for it.
    public var maxUnknownFieldBytes: Int
    /// How far ahead of this peer's wall clock a received stamp may be: a participant's
    /// change stamped further ahead is refused (it would win every concurrent edit, and
    /// drag every clock after it), and no stamp further ahead moves this peer's clock.
    public var maxClockAheadMilliseconds: UInt64
    /// Most requests to join one share (uninvited accepts) waiting for the owner: a URL holder
    /// minting identities cannot grow the table without bound.
    public var maxJoinRequests: Int

    public init(
        maxNameBytes: Int = 1024, maxPhotoBytes: Int64 = 4 << 30, maxThumbnailBytes: Int = 1 << 20,
        maxUnknownFieldBytes: Int = 64 << 10, maxClockAheadMilliseconds: UInt64 = 3_600_000,
        maxJoinRequests: Int = 64
    ) {
        self.maxJoinRequests = maxJoinRequests
        self.maxNameBytes = maxNameBytes
        self.maxPhotoBytes = maxPhotoBytes
        self.maxThumbnailBytes = maxThumbnailBytes
        self.maxUnknownFieldBytes = maxUnknownFieldBytes
        self.maxClockAheadMilliseconds = maxClockAheadMilliseconds
    }

    /// The highest HLC reading acceptable now: `maxClockAheadMilliseconds` past the wall clock.
    func aheadLimit(wall: UInt64) -> UInt64 {
        (wall + maxClockAheadMilliseconds) << 16
    }
}
