/// Computing what another replica lacks: the fields of a zone whose stamps its clock does
/// not cover, in stamp order, cut into batches that are each valid on their own.
extension LibraryStore {
    /// This store's clock for `zone`.
    public func clock(of zone: String) throws -> VectorClock {
        try read { db in try loadClock(zone, db) }
    }

    /// The highest HLC in any zone's clock that is at most `limit`.
    func highestClockEntry(upTo limit: UInt64) throws -> UInt64? {
        try read { db in
            try db.first("SELECT max(hlc) FROM clocks WHERE hlc <= ?", limit) {
                $0.isNull(0) ? nil : $0.uint64(0)
            }
                ?? nil
        }
    }

    func loadClock(_ zone: String, _ db: Database) throws -> VectorClock {
        var clock = VectorClock()
        try db.forEach("SELECT peer, hlc FROM clocks WHERE zone = ?", zone) { row in
            if let peer = peer(numbered: row.int64(0), db) { clock[peer] = row.uint64(1) }
        }
        return clock
    }

    /// The changes of `zone` not covered by `since`, oldest stamp first, in batches of about
    /// `batchSize` field changes: the whole delta at once (tests, tools). A connection streams
    /// it with `changePage` instead.
    public func changes(zone: String, since: VectorClock, batchSize: Int = 20_000, author: PeerID? = nil)
        throws -> [ChangeSet]
    {
        try changePage(zone: zone, since: since, batchSize: batchSize, author: author, limit: .unlimited).sets
    }

    /// The first part of the changes of `zone` not covered by `since`: batches of about
    /// `batchSize` field changes, oldest stamp first, until `limit` is reached. Batches are
    /// cut only between stamps, so a transaction's changes travel together and everything an
    /// object refers to comes before it; batch k needs the batches before it (its `since`) and
    /// vouches for them (its `until`). The next page starts from the last batch's `until`.
    ///
    /// Memory follows the limit, not the zone: only the stamps up to the page's last one are
    /// read (found first in `stamp_order`, which holds each group's fields), and
    /// each object's values once per batch. An object's later fields ride along with its
    /// first appearance, so a receiver never sees half of a new object (the repeats are
    /// harmless: merging is idempotent).
    ///
    /// With `author`, only that peer's changes, and `since` and `until` only of its entry: what
    /// a participant sends, since a peer takes from a participant only what it wrote itself
    /// (docs/REPLICATION.md, *Permissions*).
    public func changePage(
        zone: String, since: VectorClock, batchSize: Int, author: PeerID? = nil, limit: ChangePageLimit
    ) throws -> ChangePage {
        let request = ChangePageRequest(
            zone: zone, since: since, batchSize: batchSize, author: author, limit: limit)
        return try readKept(\.recentPage, request) { db in try changePage(request, db) }
    }

    /// The page `request` asks for, and its values' estimated bytes.
    private func changePage(_ request: ChangePageRequest, _ db: Database) throws -> (ChangePage, bytes: Int) {
        let (zone, batchSize, author, limit) = (
            request.zone, request.batchSize, request.author, request.limit
        )
        guard try db.first("SELECT 1 FROM zones WHERE id = ?", zone, map: { _ in true }) != nil else {
            throw StoreError.unknownZone(zone)
        }
        var full = try loadClock(zone, db)
        var since = request.since
        if let author {
            full = VectorClock([author: full[author]])
            since = VectorClock([author: since[author]])
        }
        let peers = numberedPeers(db).filter { author == nil || $0.peer == author }
        let last = try pageEnd(zone, since, peers, limit.fields, db)
        let inRange = try stampRows(zone, since, peers, upTo: last, db)
        var builder = PageBuilder(store: self, db: db, since: since)
        var result: [ChangeSet] = []
        var batchSince = since
        var start = 0
        var bytes = 0
        while start < inRange.count || result.isEmpty {
            var end = start
            var count = 0
            while end < inRange.count
                && (count < batchSize || (end > start && inRange[end].stamp == inRange[end - 1].stamp))
            {
                count += FieldMask.count(inRange[end].fields)
                end += 1
            }
            let until =
                end == inRange.count && last == nil ? full : Self.bound(full, by: inRange[end - 1].stamp)
            let objects = try builder.batch(inRange[start..<end])
            bytes += objects.reduce(0) { $0 + $1.estimatedBytes }
            result.append(ChangeSet(zone: zone, since: batchSince, until: until, objects: objects))
            batchSince = batchSince.merged(with: until)
            start = end
            if bytes >= limit.bytes && start < inRange.count { break }
        }
        return (ChangePage(sets: result, complete: last == nil && start >= inRange.count), bytes)
    }

    /// The stamp of the `fields`-th field not covered by `since`, oldest first: where a page
    /// ends. Nil when there are no more than that many (the page takes the rest).
    private func pageEnd(
        _ zone: String, _ since: VectorClock, _ peers: [(index: Int64, peer: PeerID)], _ fields: Int,
        _ db: Database
    ) throws -> Stamp? {
        guard fields < Int.max else { return nil }
        var stamps: [(stamp: Stamp, fields: Int)] = []
        for (index, peer) in peers {
            // A row stamps one field or more: at most `fields + 1` rows are needed.
            var counted = 0
            try db.forEach(
                "SELECT hlc, fields FROM stamp_order WHERE zone = ? AND peer = ? AND hlc > ? ORDER BY hlc LIMIT ?",
                zone, index, since[peer], fields + 1
            ) { row in
                guard counted <= fields else { return }
                let count = FieldMask.count(row.int64(1))
                stamps.append((Stamp(hlc: row.uint64(0), peer: peer), count))
                counted += count
            }
        }
        stamps.sort { $0.stamp < $1.stamp }
        var counted = 0
        for (index, (stamp, count)) in stamps.enumerated() {
            counted += count
            if counted > fields || (counted == fields && index < stamps.count - 1) { return stamp }
        }
        return nil
    }

    /// The rows of `stamp_order` not covered by `since` with stamps up to `last` (all when nil),
    /// oldest first.
    private func stampRows(
        _ zone: String, _ since: VectorClock, _ peers: [(index: Int64, peer: PeerID)], upTo last: Stamp?,
        _ db: Database
    ) throws -> [StampRow] {
        var rows: [StampRow] = []
        for (index, peer) in peers {
            let upper = last.map { peer <= $0.peer ? $0.hlc : $0.hlc - 1 } ?? UInt64(Int64.max)
            guard upper > since[peer] else { continue }
            try db.forEach(
                """
                SELECT entity, object, fields, hlc FROM stamp_order
                WHERE zone = ? AND peer = ? AND hlc > ? AND hlc <= ? ORDER BY hlc
                """,
                zone, index, since[peer], upper
            ) { row in
                guard let entity = Entity(rawValue: UInt8(row.int(0))) else { return }
                rows.append(
                    StampRow(
                        stamp: Stamp(hlc: row.uint64(3), peer: peer),
                        key: ObjectKey(entity: entity, id: row.string(1)), fields: row.int64(2)))
            }
        }
        if peers.count > 1 { rows.sort { $0.stamp != $1.stamp ? $0.stamp < $1.stamp : $0.key < $1.key } }
        return rows
    }

    /// `clock` cut down to what a receiver holds once it has every stamp up to `last`.
    static func bound(_ clock: VectorClock, by last: Stamp) -> VectorClock {
        var result = VectorClock()
        for (peer, hlc) in clock.entries {
            let limit = peer <= last.peer ? last.hlc : last.hlc - 1
            result[peer] = min(hlc, limit)
        }
        return result
    }

    /// Groups fields into objects with their current values, objects in dependency order.
    func group(_ fields: ArraySlice<PendingField>, _ db: Database) throws -> [ObjectChange] {
        var byObject: [ObjectKey: [PendingField]] = [:]
        for field in fields { byObject[field.key, default: []].append(field) }
        var objects: [ObjectChange] = []
        for key in byObject.keys.sorted() {
            let codes = byObject[key]!.map { ($0.field, $0.stamp) }
            if let object = try currentFields(key, codes, db) { objects.append(object) }
        }
        return objects
    }

    /// The object `key` with the current values of `fields` (codes and the stamps they
    /// carry); nil when its row is gone or none of its fields has a value.
    func currentFields(_ key: ObjectKey, _ fields: [(code: UInt8, stamp: Stamp)], _ db: Database) throws
        -> ObjectChange?
    {
        guard let row = try Self.currentRow(key, db) else { return nil }
        return try currentFields(key, fields, row, db)
    }

    /// The row of `key` as `EntitySQL.row` reads it (zone, deleted, the kind's fields, stamps);
    /// nil when it is gone.
    static func currentRow(_ key: ObjectKey, _ db: Database) throws -> [SQLValue]? {
        let columns = key.entity.fields.count + 3
        return try db.first(
            EntitySQL.row(key.entity), key.id, map: { row in (0..<columns).map { row.value($0) } })
    }

    /// `currentFields` from the object's row, read already.
    func currentFields(
        _ key: ObjectKey, _ fields: [(code: UInt8, stamp: Stamp)], _ row: [SQLValue], _ db: Database
    ) throws -> ObjectChange? {
        let entity = key.entity
        let changes = try fields.compactMap { code, stamp -> FieldChange? in
            if code == Entity.deletedField { return FieldChange(field: code, value: row[1], stamp: stamp) }
            guard let index = entity.position(of: code) else {
                // A newer version's field, kept for it.
                guard let kept = try Self.unknownFieldValue(entity, key.id, code: code, db) else {
                    return nil
                }
                return FieldChange(field: code, value: kept, stamp: stamp)
            }
            return FieldChange(field: code, value: row[index + 2], stamp: stamp)
        }
        return changes.isEmpty ? nil : ObjectChange(entity: entity, id: key.id, fields: changes)
    }
}

/// One row of `stamp_order`: an object's fields that carry one stamp.
struct StampRow {
    let stamp: Stamp
    let key: ObjectKey
    let fields: Int64
}

/// Turns runs of stamp rows into the objects of a page's batches: the first time an object
/// appears it takes all its fields the receiver lacks along, later stamps included.
private struct PageBuilder {
    let store: LibraryStore
    let db: Database
    let since: VectorClock
    /// Objects already met earlier in the page.
    var met: Set<ObjectKey> = []

    init(store: LibraryStore, db: Database, since: VectorClock) {
        self.store = store
        self.db = db
        self.since = since
    }

    mutating func batch(_ rows: ArraySlice<StampRow>) throws -> [ObjectChange] {
        var byObject: [ObjectKey: [(code: UInt8, stamp: Stamp)]] = [:]
        // The rows read for objects first met in this batch, which give their values too
        // (an object met in an earlier batch of the page is read again).
        var read: [ObjectKey: [SQLValue]] = [:]
        for row in rows {
            var fields = byObject[row.key] ?? []
            if met.insert(row.key).inserted {
                let current = try LibraryStore.currentRow(row.key, db)
                read[row.key] = current
                fields.append(contentsOf: laterFields(in: current))
            } else {
                FieldMask.forEach(row.fields) { code in fields.append((code, row.stamp)) }
            }
            byObject[row.key] = fields
        }
        var objects: [ObjectChange] = []
        objects.reserveCapacity(byObject.count)
        for key in byObject.keys.sorted() {
            // Each code once, with its newest stamp (a field rewritten within the batch).
            var newest: [(code: UInt8, stamp: Stamp)] = []
            for field in byObject[key]!.sorted(by: { ($0.code, $1.stamp) < ($1.code, $0.stamp) })
            where newest.last?.code != field.code {
                newest.append(field)
            }
            if let row = try read[key] ?? LibraryStore.currentRow(key, db),
                let object = try store.currentFields(key, newest, row, db)
            {
                objects.append(object)
            }
        }
        return objects
    }

    /// Every field of the object whose stamp `since` does not cover, from its row (none when
    /// the row is gone).
    private func laterFields(in row: [SQLValue]?) -> [(code: UInt8, stamp: Stamp)] {
        guard let stamps = row?.last else { return [] }
        return store.fieldStamps(StampGroups(stamps), db).filter { $0.stamp.hlc > since[$0.stamp.peer] }
    }
}

/// One field to send, ordered by stamp (then object and field, for determinism).
struct PendingField: Hashable, Comparable {
    let stamp: Stamp
    let key: ObjectKey
    let field: UInt8

    static func < (a: PendingField, b: PendingField) -> Bool {
        if a.stamp != b.stamp { return a.stamp < b.stamp }
        if a.key != b.key { return a.key < b.key }
        return a.field < b.field
    }
}

/// What a `changePage` call asked for: its arguments.
struct ChangePageRequest: Hashable {
    let zone: String
    let since: VectorClock
    let batchSize: Int
    let author: PeerID?
    let limit: ChangePageLimit
}

/// How much of a delta one `changePage` reads: about `fields` field changes, and batches only
/// until their values pass `bytes`.
public struct ChangePageLimit: Hashable, Sendable {
    public var fields: Int
    public var bytes: Int

    public init(fields: Int, bytes: Int) {
        self.fields = max(1, fields)
        self.bytes = max(1, bytes)
    }

    /// The whole delta in one page.
    public static let unlimited = ChangePageLimit(fields: .max, bytes: .max)
}

/// Part of a delta, and whether it is the end of it: a sender asks for the next page once
/// it has sent this one.
public struct ChangePage: Hashable, Sendable {
    public var sets: [ChangeSet]
    public var complete: Bool

    public init(sets: [ChangeSet], complete: Bool) {
        self.sets = sets
        self.complete = complete
    }
}

extension ObjectChange {
    /// About the bytes its values take on the wire: enough to bound a page.
    var estimatedBytes: Int {
        fields.reduce(16) { total, field in
            switch field.value {
            case .text(let text): total + 12 + text.utf8.count
            case .blob(let blob): total + 12 + blob.count
            default: total + 20
            }
        }
    }
}
