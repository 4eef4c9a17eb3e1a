/// Reading an object's stamps, which the `stamps` table keeps one row per distinct stamp
/// with the bitmask of the fields carrying it (migration 18, `FieldMask`).
extension LibraryStore {
    /// Every stamped field of the object, with its stamp, in no particular order (at most one
    /// per field code).
    func fieldStamps(_ entity: Entity, _ id: String, _ db: Database) throws -> [(code: UInt8, stamp: Stamp)] {
        var stamps: [(code: UInt8, stamp: Stamp)] = []
        try db.forEach(
            "SELECT fields, peer, hlc FROM stamps WHERE entity = ? AND object = ?", Int(entity.rawValue), id
        ) { row in
            guard let peer = peer(numbered: row.int64(1), db) else { return }
            let stamp = Stamp(hlc: row.uint64(2), peer: peer)
            FieldMask.forEach(row.int64(0)) { stamps.append(($0, stamp)) }
        }
        return stamps
    }
}
