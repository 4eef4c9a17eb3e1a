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
    /// New rows written with `.held`, not yet in their tables (`insertHeldRows`).
    private var held: [ObjectKey: HeldRow] = [:]

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
        let stamps = try LibraryStore.zoneAndStamps(entity, id, db)?.stamps ?? StampGroups()
        guard let highest = stamps.highestHLC, highest >= stamp.hlc else { return }
        for (code, existing) in store.fieldStamps(stamps, db) where codes.contains(code) && existing >= stamp
        {
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
    /// for a row known not to exist), saving a lookup; `prior`, the row's zone and stamps
    /// when the caller read those too. With `new`, the row is taken not to exist, unread
    /// (`NewRow` says what happens if it does after all).
    @discardableResult
    func write(
        _ entity: Entity, _ id: String, zone: String, _ values: [(UInt8, SQLValue, Stamp)],
        existing: Int64?? = .none, prior: (zone: String, stamps: StampGroups)? = nil,
        new: NewRow? = nil
    ) throws -> Bool {
        guard !values.isEmpty else { return true }
        let existed: Int64?
        if new != nil {
            existed = nil
        } else if let known = existing {
            existed = known
        } else {
            existed = try db.first("SELECT deleted FROM \(entity.table) WHERE id = ?", id) { $0.int64(0) }
        }
        // A row that did not exist has no stamps: every row deletion takes its stamps.
        let before = try existed == nil ? nil : prior ?? LibraryStore.zoneAndStamps(entity, id, db)
        let after = try stampsAfter(before?.stamps ?? StampGroups(), values)
        guard let derived = entity.derivedColumns(id: id) else {
            throw StoreError.invalid("malformed \(entity.name) ID \(id)")
        }
        var mask: UInt32 = 0
        // The ID, the zone and the stamps, then the derived columns and the values: sized
        // exactly, so that a row held back until its group ends keeps no spare capacity.
        var bindings: [SQLValue] = []
        bindings.reserveCapacity(3 + derived.count + values.count)
        bindings.append(.text(id))
        bindings.append(.text(zone))
        bindings.append(after.encoded)
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
        let key = ObjectKey(entity: entity, id: id)
        // A second write of a held row finds it in its table, as any write would.
        let wasHeld = try insertHeld(key)
        let sql = Self.upsertSQL(entity, mask, onlyIfAbsent: new != nil)
        if new == .held, !wasHeld, unknown.isEmpty, !deletes, NewRow.holdable.contains(entity) {
            held[key] = HeldRow(sql: sql, bindings: bindings)
        } else {
            try db.run(sql, sqlValues: bindings)
            if new != nil && db.changes == 0 { return false }
        }
        if !unknown.isEmpty { try LibraryStore.writeUnknownFields(entity, id, zone: zone, unknown, db) }
        try writeOrder(entity, id, zone: zone, before: before, after: after)
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
        return true
    }

    /// `stamps` with each written field's bit moved to the stamp it carries.
    private func stampsAfter(_ stamps: StampGroups, _ values: [(UInt8, SQLValue, Stamp)]) throws
        -> StampGroups
    {
        var result = stamps
        var lastPeer: (PeerID, Int64)?
        for (code, _, stamp) in values {
            let peer: Int64
            if let (known, index) = lastPeer, known == stamp.peer {
                peer = index
            } else {
                peer = try store.index(of: stamp.peer, db)
                lastPeer = (stamp.peer, peer)
            }
            result.move(FieldMask.bit(code), toPeer: peer, hlc: stamp.hlc)
        }
        return result
    }

    /// Keeps `stamp_order` equal to the object's stamp groups, in the zone of its row: the
    /// rows of groups that changed are rewritten, those of groups gone deleted, and all of
    /// them move when the object moves to another zone.
    private func writeOrder(
        _ entity: Entity, _ id: String, zone: String, before: (zone: String, stamps: StampGroups)?,
        after: StampGroups
    ) throws {
        let kind = SQLValue.integer(Int64(entity.rawValue))
        let moved = before.map { $0.zone != zone } ?? false
        for pair in (before?.stamps ?? StampGroups()).pairs(with: after)
        where moved || pair.before != pair.after {
            if let before, pair.before != 0, moved || pair.after == 0 {
                try db.run(
                    "DELETE FROM stamp_order WHERE zone = ? AND peer = ? AND hlc = ? AND entity = ? AND object = ?",
                    sqlValues: [.text(before.zone), .integer(pair.peer), pair.hlc.sqlValue, kind, .text(id)])
            }
            if pair.after != 0 {
                try db.run(
                    """
                    INSERT INTO stamp_order (zone, peer, hlc, entity, object, fields) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT DO UPDATE SET fields = excluded.fields
                    """,
                    sqlValues: [
                        .text(zone), .integer(pair.peer), pair.hlc.sqlValue, kind, .text(id),
                        .integer(pair.after),
                    ])
            }
        }
    }

    /// Inserts the rows held back so far, sorted by entity and ID: each of their B-trees keyed
    /// by a random ID then takes them in one pass over its pages, where inserting them as they
    /// came loaded and dirtied a page of each B-tree per row. Called before anything reads
    /// those tables in this transaction, and when it finishes. Throws `HeldRowExisted` when a
    /// row taken to be new exists after all; the transaction must then be rolled back.
    func insertHeldRows() throws {
        guard !held.isEmpty else { return }
        let rows = Array(held)
        for index in ObjectKey.order(of: rows.map(\.key)) { try insert(rows[index].key, rows[index].value) }
        held = [:]
    }

    /// Inserts the row of `key` now if it is held back, before anything reads or writes it;
    /// returns whether it was.
    @discardableResult
    func insertHeld(_ key: ObjectKey) throws -> Bool {
        // Most writes come when nothing is held: no lookup then.
        guard !held.isEmpty, let row = held.removeValue(forKey: key) else { return false }
        try insert(key, row)
        return true
    }

    private func insert(_ key: ObjectKey, _ row: HeldRow) throws {
        try db.run(row.sql, sqlValues: row.bindings)
        guard db.changes > 0 else { throw HeldRowExisted(entity: key.entity, id: key.id) }
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
            // IDs are UUIDs (a link's, two): the entity's name adds nothing to the hash.
            func hash(into hasher: inout Hasher) { hasher.combine(id) }
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
        try insertHeldRows()
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
    /// built once per combination; with `onlyIfAbsent`, an insert that leaves an existing row.
    private static func upsertSQL(_ entity: Entity, _ mask: UInt32, onlyIfAbsent: Bool) -> String {
        let key = (onlyIfAbsent ? 1 << 40 : 0) | UInt64(entity.rawValue) << 32 | UInt64(mask)
        return upsertLock.withLock {
            if let sql = upserts[key] { return sql }
            let columns = (0..<32).filter { mask & (1 << $0) != 0 }.compactMap {
                entity.column(for: UInt8($0))
            }
            let derived = entity.derivedColumns(id: "a/b")!.map(\.column)
            let names = (["id", "zone", "stamps"] + derived + columns).joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns.count + derived.count + 3).joined(
                separator: ", ")
            let updates =
                (["zone = excluded.zone", "stamps = excluded.stamps"]
                + columns.map { "\($0) = excluded.\($0)" }).joined(
                    separator: ", ")
            let sql =
                "INSERT INTO \(entity.table) (\(names)) VALUES (\(marks)) ON CONFLICT (id) DO "
                + (onlyIfAbsent ? "NOTHING" : "UPDATE SET \(updates)")
            upserts[key] = sql
            return sql
        }
    }
}

/// How `Transaction.write` treats a row its caller takes to be new without reading it: an
/// apply's new objects, nearly all of a zone being received.
enum NewRow {
    /// Inserted at once; if the row exists after all, it is left as it is and `write`
    /// returns false, so that the caller merges instead.
    case now
    /// For a row of `holdable`: held back and inserted with the transaction's other held rows,
    /// in key order (`Transaction.insertHeldRows`); other rows are inserted at once. For a
    /// caller that can tell a row is new without a lookup (its stamps are past the clock) and
    /// can undo the whole transaction if one is not (`HeldRowExisted`).
    case held

    /// The entities a zone holds by the hundred thousand. An apply reads their rows only in
    /// `merge`, which has the merged object's row inserted first, and all of them before
    /// anything is forgotten of what is known to be in the zone (`ZoneObjects.forget`).
    static let holdable: Set<Entity> = [.photo, .rating, .link]
}

/// A row held back as new existed: the transaction that held it must be rolled back, and its
/// changes applied again without holding rows back.
struct HeldRowExisted: Error, CustomStringConvertible {
    let entity: Entity
    let id: String

    var description: String { "\(entity.name) \(id), held back as new, exists already" }
}

/// A row `Transaction.write` holds back, with the statement that inserts it.
private struct HeldRow {
    let sql: String
    let bindings: [SQLValue]
}
