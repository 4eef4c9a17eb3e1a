import Foundation

/// One SQLite database of a person's library — the private or the shared one — with its
/// replicated objects, per-field stamps, per-zone clocks and persistent history.
///
/// All access is serialised by one lock; every operation is one SQLite transaction.
public final class LibraryStore: @unchecked Sendable {
    public let kind: StoreKind
    public let localPeer: PeerID
    let db: Database
    /// Copies the write-ahead log into the database off the committing thread.
    let checkpointer: Checkpointer
    public let blobs: BlobStore
    let clock: HybridLogicalClock
    let lock = Lock()
    let limits: StoreLimits
    let ids: IDSource
    var peerIndex: [PeerID: Int64] = [:]
    var peerByIndex: [Int64: PeerID] = [:]
    private var observers: [@Sendable (HistoryEntry) -> Void] = []
    private var clockObservers: [@Sendable (String) -> Void] = []
    /// Committed entries not yet given to the observers, in token order.
    var committed: [HistoryEntry] = []
    private var draining = false

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
        try Migrations.migrate(db)
        db.takeOverCheckpoints()
        try loadPeers()
        try adoptKnownFields()
        if kind == .private {
            try db.run(
                "INSERT OR IGNORE INTO zones (id, owner, created_at) VALUES (?, ?, ?)",
                Self.defaultZone, localPeer.description, Int64(HybridLogicalClock.wallMilliseconds()))
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
        try lock.withLock { _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int(0) } }
    }

    /// `PRAGMA integrity_check` of the database file.
    public func integrityCheck() throws -> String {
        try lock.withLock { try db.integrityCheck() }
    }

    /// One SQLite transaction; on failure the peer numbering is reloaded, since numbers
    /// handed out inside the transaction were rolled back with it.
    func transaction<T>(_ body: () throws -> T) throws -> T {
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

    /// The small integer standing for `peer` in the stamps and clocks tables.
    func index(of peer: PeerID) throws -> Int64 {
        if let idx = peerIndex[peer] { return idx }
        try db.run("INSERT INTO peers (peer_id) VALUES (?)", peer.bytes)
        let idx = db.lastInsertRowID
        peerIndex[peer] = idx
        peerByIndex[idx] = peer
        return idx
    }

    /// Runs `body` as one transaction recorded in history under `author`, then tells the
    /// observers. Returns the body's result.
    func write<T>(author: HistoryAuthor, _ body: (Transaction) throws -> T) throws -> T {
        let result: T = try lock.withLock {
            try transaction {
                let tx = Transaction(
                    store: self, author: author, stamp: Stamp(hlc: clock.tick(), peer: localPeer))
                let result = try body(tx)
                if let entry = try tx.finish() { committed.append(entry) }
                return result
            }
        }
        notifyCommitted()
        return result
    }

    /// Runs a read-only query under the lock.
    func read<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock { try body() }
    }

    /// Tells the observers about committed entries in token order, outside the store's lock.
    /// One thread at a time drains; a commit made meanwhile (even by an observer) is queued
    /// and delivered by the same drain, so observers never see token N+1 before N.
    func notifyCommitted() {
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

    public init(
        maxNameBytes: Int = 1024, maxPhotoBytes: Int64 = 4 << 30, maxThumbnailBytes: Int = 1 << 20,
        maxUnknownFieldBytes: Int = 64 << 10, maxClockAheadMilliseconds: UInt64 = 3_600_000
    ) {
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
