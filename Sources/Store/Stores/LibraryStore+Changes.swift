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
    /// Memory follows the limit, not the zone: only the fields up to the page's last stamp
    /// are read (found first by their stamps alone, on the `stamps_by_zone` index), with the
    /// later fields of the objects they touch, since an object's later fields ride along with
    /// its first appearance, so a receiver never sees half of a new object (the repeats are
    /// harmless: merging is idempotent).
    ///
    /// With `author`, only that peer's changes, and `since` and `until` only of its entry: what
    /// a participant sends, since a peer takes from a participant only what it wrote itself
    /// (docs/REPLICATION.md, *Permissions*).
    public func changePage(
        zone: String, since: VectorClock, batchSize: Int, author: PeerID? = nil, limit: ChangePageLimit
    ) throws -> ChangePage {
        try read { db in
            guard try db.first("SELECT 1 FROM zones WHERE id = ?", zone, map: { _ in true }) != nil else {
                throw StoreError.unknownZone(zone)
            }
            var full = try loadClock(zone, db)
            var since = since
            if let author {
                full = VectorClock([author: full[author]])
                since = VectorClock([author: since[author]])
            }
            let peers = numberedPeers(db).filter { author == nil || $0.peer == author }
            let last = try pageEnd(zone, since, peers, limit.fields, db)
            let fetched = try pendingFields(zone, since, peers, upTo: last, db)
            // The fields in the page's range drive the batches; later ones (`companions`) only
            // ride along with their object.
            let inRange = fetched.filter { last == nil || $0.stamp <= last! }.sorted()
            var fieldsByObject: [ObjectKey: [PendingField]] = [:]
            for field in fetched.sorted() { fieldsByObject[field.key, default: []].append(field) }
            var result: [ChangeSet] = []
            var batchSince = since
            var start = 0
            var sent: Set<ObjectKey> = []
            var bytes = 0
            while start < inRange.count || result.isEmpty {
                var end = min(start + batchSize, inRange.count)
                while end < inRange.count && end > start && inRange[end].stamp == inRange[end - 1].stamp {
                    end += 1
                }
                let until =
                    end == inRange.count && last == nil ? full : Self.bound(full, by: inRange[end - 1].stamp)
                var fields: [PendingField] = []
                var inBatch: Set<PendingField> = []
                for field in inRange[start..<end] {
                    let companions = sent.insert(field.key).inserted ? fieldsByObject[field.key]! : [field]
                    for companion in companions where inBatch.insert(companion).inserted {
                        fields.append(companion)
                    }
                }
                let objects = try group(fields[...], db)
                bytes += objects.reduce(0) { $0 + $1.estimatedBytes }
                result.append(ChangeSet(zone: zone, since: batchSince, until: until, objects: objects))
                batchSince = batchSince.merged(with: until)
                start = end
                if bytes >= limit.bytes && start < inRange.count { break }
            }
            return ChangePage(sets: result, complete: last == nil && start >= inRange.count)
        }
    }

    /// The stamp of the `fields`-th field not covered by `since`, oldest first: where a page
    /// ends. Nil when there are no more than that many (the page takes the rest).
    private func pageEnd(
        _ zone: String, _ since: VectorClock, _ peers: [(index: Int64, peer: PeerID)], _ fields: Int,
        _ db: Database
    ) throws -> Stamp? {
        guard fields < Int.max else { return nil }
        var stamps: [Stamp] = []
        for (index, peer) in peers {
            // A row stamps one field or more: at most `fields + 1` rows are needed.
            var counted = 0
            try db.forEach(
                "SELECT hlc, fields FROM stamps WHERE zone = ? AND peer = ? AND hlc > ? ORDER BY hlc LIMIT ?",
                zone, index, since[peer], fields + 1
            ) { row in
                guard counted <= fields else { return }
                let stamp = Stamp(hlc: row.uint64(0), peer: peer)
                let count = min(FieldMask.count(row.int64(1)), fields + 1 - counted)
                stamps.append(contentsOf: repeatElement(stamp, count: count))
                counted += count
            }
        }
        guard stamps.count > fields else { return nil }
        stamps.sort()
        return stamps[max(0, fields - 1)]
    }

    /// The fields not covered by `since` with stamps up to `last` (all when nil), and every
    /// later field of the objects they belong to.
    private func pendingFields(
        _ zone: String, _ since: VectorClock, _ peers: [(index: Int64, peer: PeerID)], upTo last: Stamp?,
        _ db: Database
    ) throws -> Set<PendingField> {
        var fetched: Set<PendingField> = []
        let wanted = Set(peers.map(\.index))
        for (index, peer) in peers {
            let upper = last.map { peer <= $0.peer ? $0.hlc : $0.hlc - 1 } ?? UInt64(Int64.max)
            guard upper > since[peer] else { continue }
            try db.forEach(
                """
                SELECT s.entity, s.object, s.fields, s.peer, s.hlc
                FROM (SELECT DISTINCT entity, object FROM stamps
                      WHERE zone = ?1 AND peer = ?2 AND hlc > ?3 AND hlc <= ?4) AS o
                JOIN stamps AS s ON s.entity = o.entity AND s.object = o.object
                WHERE s.zone = ?1
                """,
                zone, index, since[peer], upper
            ) { row in
                let number = row.int64(3)
                guard wanted.contains(number), let entity = Entity(rawValue: UInt8(row.int(0))),
                    let writer = self.peer(numbered: number, db)
                else { return }
                let stamp = Stamp(hlc: row.uint64(4), peer: writer)
                guard stamp.hlc > since[writer] else { return }
                let key = ObjectKey(entity: entity, id: row.string(1))
                FieldMask.forEach(row.int64(2)) {
                    fetched.insert(PendingField(stamp: stamp, key: key, field: $0))
                }
            }
        }
        return fetched
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
            let entity = key.entity
            let columns = (["deleted"] + entity.fields.map(\.column)).joined(separator: ", ")
            guard
                let row = try db.first(
                    "SELECT \(columns) FROM \(entity.table) WHERE id = ?", key.id,
                    map: { row in
                        (0..<(entity.fields.count + 1)).map { row.value($0) }
                    })
            else { continue }
            let changes = byObject[key]!.compactMap { pending -> FieldChange? in
                if pending.field == Entity.deletedField {
                    return FieldChange(field: pending.field, value: row[0], stamp: pending.stamp)
                }
                guard let index = entity.position(of: pending.field) else {
                    // A newer version's field, kept for it.
                    guard let kept = try? Self.unknownFieldValue(entity, key.id, code: pending.field, db)
                    else {
                        return nil
                    }
                    return FieldChange(field: pending.field, value: kept, stamp: pending.stamp)
                }
                return FieldChange(field: pending.field, value: row[index + 1], stamp: pending.stamp)
            }
            if !changes.isEmpty { objects.append(ObjectChange(entity: entity, id: key.id, fields: changes)) }
        }
        return objects
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

/// An object's identity across tables, ordered by entity (dependency order) then ID.
struct ObjectKey: Hashable, Comparable {
    let entity: Entity
    let id: String

    static func < (a: ObjectKey, b: ObjectKey) -> Bool {
        a.entity != b.entity ? a.entity < b.entity : a.id < b.id
    }
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
