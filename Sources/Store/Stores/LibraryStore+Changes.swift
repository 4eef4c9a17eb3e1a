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
    /// `batchSize` field changes. Batches are cut only between stamps, so a transaction's
    /// changes travel together and everything an object refers to comes before it; batch k
    /// needs the batches before it (its `since`) and vouches for them (its `until`).
    ///
    /// With `author`, only that peer's changes, and `since` and `until` only of its entry: what
    /// a participant sends, since a peer takes from a participant only what it wrote itself
    /// (docs/REPLICATION.md, *Permissions*).
    public func changes(zone: String, since: VectorClock, batchSize: Int = 20_000, author: PeerID? = nil)
        throws -> [ChangeSet]
    {
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
            var pending: [PendingField] = []
            for (index, peer) in numberedPeers(db) where author == nil || peer == author {
                try db.forEach(
                    "SELECT entity, object, field, hlc FROM stamps WHERE zone = ? AND peer = ? AND hlc > ?",
                    zone, index, since[peer]
                ) { row in
                    guard let entity = Entity(rawValue: UInt8(row.int(0))) else { return }
                    pending.append(
                        PendingField(
                            stamp: Stamp(hlc: row.uint64(3), peer: peer),
                            key: ObjectKey(entity: entity, id: row.string(1)),
                            field: UInt8(row.int(2))))
                }
            }
            pending.sort()
            // Batch k holds every field whose stamp falls in its range (so its `until` is
            // true whatever else the receiver got), and an object's later fields also ride
            // along with its first appearance, so a receiver never sees half of a new object.
            // The repeats are harmless: merging is idempotent.
            var fieldsByObject: [ObjectKey: [PendingField]] = [:]
            for field in pending { fieldsByObject[field.key, default: []].append(field) }
            var result: [ChangeSet] = []
            var batchSince = since
            var start = 0
            var sent: Set<ObjectKey> = []
            while start < pending.count || result.isEmpty {
                var end = min(start + batchSize, pending.count)
                while end < pending.count && end > start && pending[end].stamp == pending[end - 1].stamp {
                    end += 1
                }
                let until = end == pending.count ? full : Self.bound(full, by: pending[end - 1].stamp)
                var fields: [PendingField] = []
                var inBatch: Set<PendingField> = []
                for field in pending[start..<end] {
                    let companions = sent.insert(field.key).inserted ? fieldsByObject[field.key]! : [field]
                    for companion in companions where inBatch.insert(companion).inserted {
                        fields.append(companion)
                    }
                }
                let objects = try group(fields[...], db)
                result.append(ChangeSet(zone: zone, since: batchSince, until: until, objects: objects))
                batchSince = batchSince.merged(with: until)
                start = end
            }
            return result
        }
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
