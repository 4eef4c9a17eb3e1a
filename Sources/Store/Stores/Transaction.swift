import Support

/// One write transaction in progress: writes fields with their stamps, remembers what it
/// touched for history, clocks and tag winners, and settles all three when it finishes.
///
/// Only `LibraryStore.write` makes one, under the store's lock, and hands it to its closure:
/// `db`, the connection, is reachable only there.
final class Transaction {
    unowned let store: LibraryStore
    /// The store's connection, for the statements of this transaction.
    let db: Database
    let author: HistoryAuthor
    /// The stamp of this transaction's own (local) changes.
    let stamp: Stamp
    /// Every change recorded, in order, an object's repeats included: they are merged once,
    /// when the transaction finishes (`mergedChanges`), instead of being looked up at every
    /// write (an apply writes thousands of objects, nearly all of them once).
    private var changes: [HistoryChange] = []
    private var localZones: Set<String> = []
    private var touchedTagNames: [String: Set<String>] = [:]

    init(store: LibraryStore, db: Database, author: HistoryAuthor, stamp: Stamp) {
        self.store = store
        self.db = db
        self.author = author
        self.stamp = stamp
    }

    /// Writes `values` as a local change of this peer, stamped with the transaction's stamp,
    /// which must be above the stamps it overwrites (it is, unless a peer's clock is further
    /// ahead than this peer's clock follows: then the write is refused, not lost).
    func set(_ entity: Entity, _ id: String, zone: String, _ values: [(EntityField, SQLValue)]) throws {
        try requireAboveExistingStamps(entity, id, values.map(\.0.code))
        try write(entity, id, zone: zone, values.map { ($0.0.code, $0.1, stamp) })
        localZones.insert(zone)
    }

    private func requireAboveExistingStamps(_ entity: Entity, _ id: String, _ codes: [UInt8]) throws {
        let highest = try db.first(
            "SELECT max(hlc) FROM stamps WHERE entity = ? AND object = ?", Int(entity.rawValue), id
        ) { $0.isNull(0) ? nil : $0.uint64(0) }
        guard let highest = highest ?? nil, highest >= stamp.hlc else { return }
        for (code, existing) in try store.fieldStamps(entity, id, db)
        where codes.contains(code) && existing >= stamp {
            let ahead =
                HybridLogicalClock.physical(of: existing.hlc) - HybridLogicalClock.physical(of: stamp.hlc)
            throw StoreError.clockBehind(
                kind: entity.name, id: id, by: existing.peer, aheadMilliseconds: ahead)
        }
    }

    /// Marks an object deleted (or a tag merged) as a local change.
    func delete(_ entity: Entity, _ id: String, zone: String, as tombstone: Tombstone = .deleted) throws {
        try set(entity, id, zone: zone, [(entity.tombstone, .integer(tombstone.rawValue))])
    }

    /// Writes fields with the stamps they carry: local ones or ones that won a merge.
    /// `existing` is the row's tombstone value when the caller already read it (`.some(nil)`
    /// for a row known not to exist), saving a lookup.
    func write(
        _ entity: Entity, _ id: String, zone: String, _ values: [(UInt8, SQLValue, Stamp)],
        existing: Int64?? = .none
    ) throws {
        guard !values.isEmpty else { return }
        let existed: Int64?
        if let known = existing {
            existed = known
        } else {
            existed = try db.first("SELECT deleted FROM \(entity.table) WHERE id = ?", id) { $0.int64(0) }
        }
        guard let derived = entity.derivedColumns(id: id) else {
            throw StoreError.invalid("malformed \(entity.name) ID \(id)")
        }
        var mask: UInt32 = 0
        var bindings: [SQLValue] = []
        bindings.reserveCapacity(values.count + derived.count + 2)
        bindings.append(.text(id))
        bindings.append(.text(zone))
        for column in derived { bindings.append(column.value) }
        var deletes = false
        let inOrder = zip(values, values.dropFirst()).allSatisfy { $0.0.0 <= $0.1.0 }
        let ordered = inOrder ? values : values.sorted(by: { $0.0 < $1.0 })
        var unknown: [(code: UInt8, value: SQLValue)] = []
        for (code, value, _) in ordered {
            guard entity.column(for: code) != nil else {
                // A newer version's field, received from a peer: kept beside the row.
                guard LibraryStore.isStorableUnknownCode(code) else {
                    throw StoreError.invalid("field \(code) does not exist on a \(entity.name)")
                }
                unknown.append((code, value))
                continue
            }
            mask |= 1 << code
            bindings.append(value)
            if code == Entity.deletedField, case .integer(let v) = value, v != 0 {
                deletes = true
            }
        }
        try db.run(Self.upsertSQL(entity, mask), sqlValues: bindings)
        if !unknown.isEmpty { try LibraryStore.writeUnknownFields(entity, id, zone: zone, unknown, db) }
        try writeStamps(entity, id, zone: zone, values, fresh: existed == nil)
        if deletes && entity == .photo {
            // The sample deletes a photo's thumbnail with it; only the tombstone stays.
            try db.run("UPDATE photos SET thumbnail = NULL WHERE id = ?", id)
        }
        let type: ChangeType = deletes ? .delete : (existed == nil ? .insert : .update)
        record(entity, id, zone: zone, type)
        if entity == .tag && (existed == nil || deletes) {
            var name = values.first { $0.0 == TagField.name.code }.flatMap { value -> String? in
                if case .text(let text) = value.1 { return text }
                return nil
            }
            if name == nil {
                name = try db.first("SELECT name FROM tags WHERE id = ?", id) { $0.optionalString(0) } ?? nil
            }
            if let name { touchedTagNames[zone, default: []].insert(name) }
        }
    }

    /// Gives the written fields their stamps: each field's bit leaves the row of its old stamp
    /// (a row left without fields goes) and joins the row of its new one, so an object keeps
    /// one row per distinct stamp. The object's other rows follow it into `zone`. A `fresh`
    /// object (no row before this write) has no stamps yet: every row deletion goes with its
    /// stamps (`forgetStamps`, `hardDelete`).
    private func writeStamps(
        _ entity: Entity, _ id: String, zone: String, _ values: [(UInt8, SQLValue, Stamp)], fresh: Bool
    ) throws {
        var groups: [(peer: Int64, hlc: UInt64, mask: Int64)] = []
        var written: Int64 = 0
        var lastPeer: (PeerID, Int64)?
        for (code, _, stamp) in values {
            let peer: Int64
            if let (known, index) = lastPeer, known == stamp.peer {
                peer = index
            } else {
                peer = try store.index(of: stamp.peer, db)
                lastPeer = (stamp.peer, peer)
            }
            let bit = FieldMask.bit(code)
            written |= bit
            if let i = groups.firstIndex(where: { $0.peer == peer && $0.hlc == stamp.hlc }) {
                groups[i].mask |= bit
            } else {
                groups.append((peer, stamp.hlc, bit))
            }
        }
        let kind = SQLValue.integer(Int64(entity.rawValue))
        if !fresh {
            try db.run(
                """
                UPDATE stamps SET fields = fields & ~?1, zone = ?2
                WHERE entity = ?3 AND object = ?4 AND (fields & ?1 != 0 OR zone != ?2)
                """, sqlValues: [.integer(written), .text(zone), kind, .text(id)])
            if db.changes > 0 {
                try db.run(
                    "DELETE FROM stamps WHERE entity = ? AND object = ? AND fields = 0",
                    sqlValues: [kind, .text(id)])
            }
        }
        for group in groups {
            try db.run(
                """
                INSERT INTO stamps (entity, object, peer, hlc, zone, fields) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (entity, object, peer, hlc)
                DO UPDATE SET zone = excluded.zone, fields = fields | excluded.fields
                """,
                sqlValues: [
                    kind, .text(id), .integer(group.peer), group.hlc.sqlValue, .text(zone),
                    .integer(group.mask),
                ])
        }
    }

    /// Records a change for history (writes do it themselves; purges call it directly).
    func record(_ entity: Entity, _ id: String, zone: String, _ type: ChangeType) {
        changes.append(HistoryChange(entity: entity.name, id: id, zone: zone, type: type))
    }

    /// Records changes of objects written in bulk SQL (deduplication records 100,000 this way).
    func record(_ entity: Entity, _ objects: [(id: String, type: ChangeType)], zone: String) {
        let name = entity.name
        changes.reserveCapacity(changes.count + objects.count)
        for object in objects {
            changes.append(HistoryChange(entity: name, id: object.id, zone: zone, type: object.type))
        }
    }

    /// The recorded changes with one entry per object, where it was first recorded: the zone
    /// it was last written in, and a delete if any of its changes was one, else the type of
    /// its first change (an object inserted and then updated was inserted).
    private func mergedChanges() -> [HistoryChange] {
        struct Key: Hashable {
            let entity: String
            let id: String
        }
        var first: [Key: Int] = [:]
        first.reserveCapacity(changes.count)
        var merged: [HistoryChange] = []
        merged.reserveCapacity(changes.count)
        for change in changes {
            let key = Key(entity: change.entity, id: change.id)
            if let i = first[key] {
                let old = merged[i]
                merged[i] = HistoryChange(
                    entity: old.entity, id: old.id, zone: change.zone,
                    type: change.type == .delete ? .delete : old.type)
            } else {
                first[key] = merged.count
                merged.append(change)
            }
        }
        return merged
    }

    /// Notes a local change written in bulk SQL, so the zone's clock moves to this stamp.
    func markLocalChange(in zone: String) {
        localZones.insert(zone)
    }

    /// Notes that tags named `name` in `zone` need their winner recomputed.
    func touchTagName(_ name: String, zone: String) {
        touchedTagNames[zone, default: []].insert(name)
    }

    /// Zones whose tags changed in this transaction.
    var zonesWithTouchedTags: [String] { Array(touchedTagNames.keys) }

    /// The tag names touched in this transaction, by zone.
    var touchedTags: [String: Set<String>] { touchedTagNames }

    /// Whether anything was written to history so far.
    var hasChanges: Bool { !changes.isEmpty }

    /// Changes recorded for history so far (an object written twice counts twice): it grows
    /// exactly when something is recorded.
    var changeCount: Int { changes.count }

    /// Settles derived state and history; returns the history entry if anything changed.
    func finish() throws -> HistoryEntry? {
        for (zone, names) in touchedTagNames {
            for name in names { try LibraryStore.recomputeWinners(zone: zone, name: name, db) }
        }
        if let signer = store.ownSetSigner, stamp.peer == store.localPeer {
            for zone in localZones.sorted() {
                try store.recordOwnSet(zone: zone, stamp: stamp, signer: signer, db)
            }
        }
        let selfIndex = try store.index(of: store.localPeer, db)
        for zone in localZones {
            try db.run(
                """
                INSERT INTO clocks (zone, peer, hlc) VALUES (?, ?, ?)
                ON CONFLICT (zone, peer) DO UPDATE SET hlc = max(hlc, excluded.hlc)
                """, zone, selfIndex, stamp.hlc)
        }
        guard !changes.isEmpty else { return nil }
        let changes = mergedChanges()
        let timestamp = Int64(HybridLogicalClock.physical(of: stamp.hlc))
        try db.run(
            "INSERT INTO history (author, timestamp, changes) VALUES (?, ?, ?)", author.description,
            timestamp,
            HistoryPacking.pack(changes))
        let token = db.lastInsertRowID
        return HistoryEntry(
            token: token, author: author.description, store: store.kind, timestamp: timestamp,
            changes: changes)
    }

    nonisolated(unsafe) private static var upserts: [UInt64: String] = [:]
    private static let upsertLock = Lock()

    /// The upsert statement for an entity and a set of field codes (bit i = code i),
    /// built once per combination.
    private static func upsertSQL(_ entity: Entity, _ mask: UInt32) -> String {
        let key = UInt64(entity.rawValue) << 32 | UInt64(mask)
        return upsertLock.withLock {
            if let sql = upserts[key] { return sql }
            let columns = (0..<32).filter { mask & (1 << $0) != 0 }.compactMap {
                entity.column(for: UInt8($0))
            }
            let derived = entity.derivedColumns(id: "a/b")!.map(\.column)
            let names = (["id", "zone"] + derived + columns).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count + derived.count + 2).joined(
                separator: ", ")
            let updates = (["zone = excluded.zone"] + columns.map { "\($0) = excluded.\($0)" }).joined(
                separator: ", ")
            let sql =
                "INSERT INTO \(entity.table) (\(names)) VALUES (\(marks)) ON CONFLICT (id) DO UPDATE SET \(updates)"
            upserts[key] = sql
            return sql
        }
    }
}
