/// This device's own signed change sets: one per local transaction and zone, written in
/// the transaction itself, so that no committed local change is ever without its set.
extension LibraryStore {
    /// From now on every local transaction also records its signed sets (`signed_sets`).
    public func signOwnSets(with signer: OwnSetSigner) {
        lock.withLock { ownSetSigner = signer }
    }

    /// This device's signed sets of `zone`, in order: `seq`, hash and encoded bytes.
    public func ownSignedSets(zone: String) throws -> [(seq: UInt64, hash: [UInt8], bytes: [UInt8])] {
        try read { db in
            try db.query(
                "SELECT seq, hash, bytes FROM signed_sets WHERE zone = ? AND author = ? ORDER BY seq", zone,
                localPeer.bytes
            ) { ($0.uint64(0), $0.bytes(1), $0.bytes(2)) }
        }
    }

    /// Signs and stores the fields this transaction wrote to `zone` with its stamp, as the
    /// next set of this device's chain in that zone.
    func recordOwnSet(zone: String, stamp: Stamp, signer: OwnSetSigner, _ db: Database) throws {
        let selfIndex = try index(of: localPeer, db)
        var fields: [PendingField] = []
        try db.forEach(
            "SELECT entity, object, fields FROM stamp_order WHERE zone = ? AND peer = ? AND hlc = ?", zone,
            selfIndex,
            stamp.hlc
        ) { row in
            guard let entity = Entity(rawValue: UInt8(row.int(0))) else { return }
            let key = ObjectKey(entity: entity, id: row.string(1))
            FieldMask.forEach(row.int64(2)) { fields.append(PendingField(stamp: stamp, key: key, field: $0)) }
        }
        guard !fields.isEmpty else { return }
        fields.sort()
        let set = ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([localPeer: stamp.hlc]),
            objects: try group(fields[...], db))
        let last = try db.first(
            "SELECT seq, hash FROM signed_set_tops WHERE zone = ? AND author = ?", zone, localPeer.bytes
        ) { ($0.uint64(0), $0.bytes(1)) }
        let seq = (last?.0 ?? 0) + 1
        let record = signer.sign(set, seq: seq, previous: last?.1)
        try db.run(
            "INSERT INTO signed_sets (zone, author, seq, hash, hlc, bytes) VALUES (?, ?, ?, ?, ?, ?)", zone,
            localPeer.bytes, Int64(seq), record.hash, Int64(stamp.hlc), record.bytes)
        try raiseTop(zone: zone, author: localPeer, seq: seq, hash: record.hash, db)
    }
}

/// A signed change set of any author as this store keeps it: its place on the author's chain
/// in the zone, its hash, the stamp of its changes and its signed bytes (opaque here).
public struct SignedSetRow: Hashable, Sendable {
    public let author: PeerID
    public let seq: UInt64
    public let hash: [UInt8]
    public let hlc: UInt64
    public let bytes: [UInt8]

    public init(author: PeerID, seq: UInt64, hash: [UInt8], hlc: UInt64, bytes: [UInt8]) {
        self.author = author
        self.seq = seq
        self.hash = hash
        self.hlc = hlc
        self.bytes = bytes
    }
}

/// Every author's signed sets of a zone, as members relay them to each other: which ones this
/// store holds, the ones a peer lacks, and the certificates of their authors.
extension LibraryStore {
    /// Per author, the last set held of `zone` (sets are kept only in chain order, so it ends
    /// a contiguous chain from seq 1).
    public func signedSetTops(zone: String) throws -> [PeerID: (seq: UInt64, hash: [UInt8])] {
        try read { db in try signedSetTops(zone: zone, db) }
    }

    private func signedSetTops(zone: String, _ db: Database) throws -> [PeerID: (seq: UInt64, hash: [UInt8])]
    {
        var tops: [PeerID: (seq: UInt64, hash: [UInt8])] = [:]
        try db.forEach("SELECT author, seq, hash FROM signed_set_tops WHERE zone = ?", zone) { row in
            if let author = PeerID(digest: row.bytes(0)) { tops[author] = (row.uint64(1), row.bytes(2)) }
        }
        return tops
    }

    /// The sets of `zone` past `after` (author → highest seq the peer holds), oldest first per
    /// author, up to about `byteLimit` bytes (always at least one set when any is missing);
    /// `more` when some were left for the next call. The peers of a zone that are all up to
    /// date ask for the same sets once they are due (50 participants for one tag): all but the
    /// first get them from `recentSets`.
    public func signedSets(zone: String, after: [PeerID: UInt64], byteLimit: Int) throws -> (
        sets: [SignedSetRow], more: Bool
    ) {
        let request = SignedSetsRequest(zone: zone, after: after, byteLimit: byteLimit)
        return try readKept(\.recentSets, request) { db in try signedSets(request, db) }
    }

    /// The sets `request` asks for, and their bytes.
    private func signedSets(_ request: SignedSetsRequest, _ db: Database) throws -> (
        (sets: [SignedSetRow], more: Bool), bytes: Int
    ) {
        let (zone, after, byteLimit) = (request.zone, request.after, request.byteLimit)
        var sets: [SignedSetRow] = []
        var bytes = 0
        for (author, top) in try signedSetTops(zone: zone, db).sorted(by: { $0.key < $1.key })
        where top.seq > after[author, default: 0] {
            var full = false
            try db.forEachWhile(
                "SELECT seq, hash, hlc, bytes FROM signed_sets WHERE zone = ? AND author = ? AND seq > ? ORDER BY seq",
                zone, author.bytes, Int64(after[author, default: 0])
            ) { row in
                let set = SignedSetRow(
                    author: author, seq: row.uint64(0), hash: row.bytes(1), hlc: row.uint64(2),
                    bytes: row.bytes(3))
                if !sets.isEmpty && bytes + set.bytes.count > byteLimit {
                    full = true
                    return false
                }
                sets.append(set)
                bytes += set.bytes.count
                return true
            }
            if full { return ((sets, true), bytes) }
        }
        return ((sets, false), bytes)
    }

    /// Per author, the first `limit` sets held of `zone`, in chain order, whose changes the
    /// zone's clock does not claim: sets refused for want of a record or photo that came
    /// later (a set moves its author's entry only over a chain held whole), to be taken again.
    public func setsNotTaken(zone: String, limit: Int) throws -> [PeerID: [SignedSetRow]] {
        try read { db in
            let clock = try loadClock(zone, db)
            var result: [PeerID: [SignedSetRow]] = [:]
            for (author, top) in try signedSetTops(zone: zone, db) where author != localPeer {
                guard let first = try firstSet(of: author, in: zone, above: clock[author], upTo: top.seq, db)
                else { continue }
                result[author] = try db.query(
                    """
                    SELECT seq, hash, hlc, bytes FROM signed_sets WHERE zone = ? AND author = ? AND seq >= ?
                    ORDER BY seq LIMIT ?
                    """, zone, author.bytes, Int64(first), limit
                ) {
                    SignedSetRow(
                        author: author, seq: $0.uint64(0), hash: $0.bytes(1), hlc: $0.uint64(2),
                        bytes: $0.bytes(3))
                }
            }
            return result
        }
    }

    /// The first set of `author`'s chain in `zone` (1…`top`) stamped past `hlc`, if any: a
    /// device's stamps grow along its chain, so a binary search by seq finds it in a few
    /// point reads (an owner's chain after a large import holds a set per photo).
    private func firstSet(
        of author: PeerID, in zone: String, above hlc: UInt64, upTo top: UInt64, _ db: Database
    )
        throws -> UInt64?
    {
        func stamp(_ seq: UInt64) throws -> UInt64 {
            try db.first(
                "SELECT hlc FROM signed_sets WHERE zone = ? AND author = ? AND seq = ?", zone, author.bytes,
                Int64(seq)
            ) { $0.uint64(0) } ?? 0
        }
        guard top > 0, try stamp(top) > hlc else { return nil }
        var (low, high) = (UInt64(1), top)
        while low < high {
            let middle = low + (high - low) / 2
            if try stamp(middle) > hlc { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The certificate of an author whose sets this store keeps (nil for one it never saw).
    public func setAuthorCertificate(_ device: PeerID) throws -> [UInt8]? {
        try read { db in
            try db.first("SELECT certificate FROM set_authors WHERE device = ?", device.bytes) { $0.bytes(0) }
        }
    }

    /// Keeps `certificate` as `device`'s (the caller checked that its SHA-256 is the ID).
    public func rememberSetAuthor(_ device: PeerID, certificate: [UInt8]) throws {
        try writeLocal { db in
            try db.run(
                "INSERT OR IGNORE INTO set_authors (device, certificate) VALUES (?, ?)", device.bytes,
                certificate)
        }
    }

    /// Keeps signed sets whose changes this store holds already (its clock covers their
    /// stamps), in one transaction and without applying them again: the joiner of a zone
    /// gets its content from the owner's delta and the owner's sets only to relay them.
    public func keepSignedSets(_ rows: [SignedSetRow], zone: String) throws {
        guard !rows.isEmpty else { return }
        try writeLocal { db in
            guard try db.first("SELECT 1 FROM zones WHERE id = ?", zone, map: { _ in true }) != nil else {
                throw SyncError.unknownZone(zone)
            }
            // Each author's top is raised once, to its highest set here, not once per set (a
            // joiner keeps a set per photo of the zone, thousands per message).
            var highest: [PeerID: SignedSetRow] = [:]
            for row in rows {
                try insertSignedSet(row, zone: zone, db)
                if row.seq > highest[row.author]?.seq ?? 0 { highest[row.author] = row }
            }
            for (author, row) in highest {
                try raiseTop(zone: zone, author: author, seq: row.seq, hash: row.hash, db)
            }
        }
    }

    /// Stores a set received from a peer, in the transaction applying it.
    func storeSignedSet(_ row: SignedSetRow, zone: String, _ db: Database) throws {
        try insertSignedSet(row, zone: zone, db)
        try raiseTop(zone: zone, author: row.author, seq: row.seq, hash: row.hash, db)
    }

    private func insertSignedSet(_ row: SignedSetRow, zone: String, _ db: Database) throws {
        try db.run(
            "INSERT OR IGNORE INTO signed_sets (zone, author, seq, hash, hlc, bytes) VALUES (?, ?, ?, ?, ?, ?)",
            zone, row.author.bytes, Int64(row.seq), row.hash, Int64(row.hlc), row.bytes)
    }

    /// Keeps `signed_set_tops` at each author's last set.
    func raiseTop(zone: String, author: PeerID, seq: UInt64, hash: [UInt8], _ db: Database) throws {
        try db.run(
            """
            INSERT INTO signed_set_tops (zone, author, seq, hash) VALUES (?, ?, ?, ?)
            ON CONFLICT (zone, author) DO UPDATE SET seq = excluded.seq, hash = excluded.hash
            WHERE excluded.seq > signed_set_tops.seq
            """, zone, author.bytes, Int64(seq), hash)
    }
}

/// What `signedSets` was asked for.
struct SignedSetsRequest: Equatable {
    let zone: String
    let after: [PeerID: UInt64]
    let byteLimit: Int
}
