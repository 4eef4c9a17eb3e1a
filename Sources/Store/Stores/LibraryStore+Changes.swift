/// Computing what another replica lacks: the fields of a zone whose stamps its clock does
/// not cover, as bounded change sets.
extension LibraryStore {
    /// This store's clock for `zone`.
    public func clock(of zone: String) throws -> VectorClock {
        try read { try loadClock(zone) }
    }

    func loadClock(_ zone: String) throws -> VectorClock {
        var clock = VectorClock()
        try db.forEach("SELECT peer, hlc FROM clocks WHERE zone = ?", zone) { row in
            if let peer = peerByIndex[row.int64(0)] { clock[peer] = row.uint64(1) }
        }
        return clock
    }

    /// The changes of `zone` not covered by `since`, in batches of at most `batchSize` field
    /// changes (an object is never split); the last batch carries this store's clock as
    /// `until`. Objects come in dependency order: membership, photos, tags, ratings, links.
    public func changes(zone: String, since: VectorClock, batchSize: Int = 20_000) throws -> [ChangeSet] {
        try read {
            guard try db.first("SELECT 1 FROM zones WHERE id = ?", zone, map: { _ in true }) != nil else {
                throw StoreError.unknownZone(zone)
            }
            let until = try loadClock(zone)
            var pending: [ObjectKey: [(UInt8, Stamp)]] = [:]
            for (index, peer) in peerByIndex {
                try db.forEach(
                    "SELECT entity, object, field, hlc FROM stamps WHERE zone = ? AND peer = ? AND hlc > ?",
                    zone, index, since[peer]
                ) { row in
                    guard let entity = Entity(rawValue: UInt8(row.int(0))) else { return }
                    let key = ObjectKey(entity: entity, id: row.string(1))
                    pending[key, default: []].append(
                        (UInt8(row.int(2)), Stamp(hlc: row.uint64(3), peer: peer)))
                }
            }
            var objects: [ObjectChange] = []
            for key in pending.keys.sorted() {
                if let change = try objectChange(key, fields: pending[key]!) { objects.append(change) }
            }
            return Self.batches(
                zone: zone, since: since, until: until, objects: objects, batchSize: batchSize)
        }
    }

    /// The current values of the given fields of one object; a tombstoned object sends only
    /// its tombstone.
    private func objectChange(_ key: ObjectKey, fields: [(UInt8, Stamp)]) throws -> ObjectChange? {
        let entity = key.entity
        let columns = (["deleted"] + entity.fields.map(\.column)).joined(separator: ", ")
        guard
            let row = try db.first(
                "SELECT \(columns) FROM \(entity.table) WHERE id = ?", key.id,
                map: { row in
                    (0..<(entity.fields.count + 1)).map { row.value($0) }
                })
        else { return nil }
        let deleted = row[0] != .integer(0)
        var changes: [FieldChange] = []
        for (code, stamp) in fields.sorted(by: { $0.0 < $1.0 }) {
            if code == Entity.deletedField {
                changes.append(FieldChange(field: code, value: row[0], stamp: stamp))
            } else if !deleted, let index = entity.fields.firstIndex(where: { $0.code == code }) {
                changes.append(FieldChange(field: code, value: row[index + 1], stamp: stamp))
            }
        }
        return changes.isEmpty ? nil : ObjectChange(entity: entity, id: key.id, fields: changes)
    }

    static func batches(
        zone: String, since: VectorClock, until: VectorClock, objects: [ObjectChange], batchSize: Int
    ) -> [ChangeSet] {
        var result: [ChangeSet] = []
        var current: [ObjectChange] = []
        var count = 0
        for object in objects {
            if count > 0 && count + object.fields.count > batchSize {
                result.append(ChangeSet(zone: zone, since: since, until: nil, objects: current))
                current = []
                count = 0
            }
            current.append(object)
            count += object.fields.count
        }
        result.append(ChangeSet(zone: zone, since: since, until: until, objects: current))
        return result
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
