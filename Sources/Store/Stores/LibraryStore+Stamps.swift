/// Reading an object's stamps, which its row keeps in its `stamps` column, one group per
/// distinct stamp with the bitmask of the fields carrying it (migration 19, `StampGroups`).
extension LibraryStore {
    /// Every stamped field of the object, with its stamp, in no particular order (at most one
    /// per field code).
    func fieldStamps(_ entity: Entity, _ id: String, _ db: Database) throws -> [(code: UInt8, stamp: Stamp)] {
        fieldStamps(try Self.zoneAndStamps(entity, id, db)?.stamps ?? StampGroups(), db)
    }

    /// Every stamped field of `stamps`, with its stamp.
    func fieldStamps(_ stamps: StampGroups, _ db: Database) -> [(code: UInt8, stamp: Stamp)] {
        var result: [(code: UInt8, stamp: Stamp)] = []
        for group in stamps.groups {
            guard let peer = peer(numbered: group.peer, db) else { continue }
            let stamp = Stamp(hlc: group.hlc, peer: peer)
            FieldMask.forEach(group.mask) { result.append(($0, stamp)) }
        }
        return result
    }

    /// The zone and the stamp groups of the object's row; nil when it has none.
    static func zoneAndStamps(_ entity: Entity, _ id: String, _ db: Database) throws -> (
        zone: String, stamps: StampGroups
    )? {
        try db.first(EntitySQL.stamps(entity), id) { ($0.string(0), StampGroups($0.value(1))) }
    }

    /// Forgets one object's stamps (its `stamp_order` rows and its column) and its kept
    /// unknown fields. Callers that delete the row do so after: the order rows are found
    /// through the row's stamps.
    static func forgetStamps(_ entity: Entity, _ id: String, _ db: Database) throws {
        let kind = Int(entity.rawValue)
        if let (zone, stamps) = try zoneAndStamps(entity, id, db) {
            for group in stamps.groups {
                try db.run(
                    "DELETE FROM stamp_order WHERE zone = ? AND peer = ? AND hlc = ? AND entity = ? AND object = ?",
                    zone, group.peer, group.hlc, kind, id)
            }
            if !stamps.isEmpty { try db.run("UPDATE \(entity.table) SET stamps = NULL WHERE id = ?", id) }
        }
        try db.run("DELETE FROM unknown_fields WHERE entity = ? AND object = ?", kind, id)
    }
}
