/// Fields of a newer version: kept, replicated and adopted after an upgrade, never lost.
///
/// A peer running a newer PeerShare may send a field code this build does not know (a
/// photo caption, say). Refusing the object would be wrong twice over: the clock merged with
/// the change set would claim the change anyway, so after this peer upgrades nobody would
/// ever send it again. So an unknown field of a known entity is stored as it came — value
/// in `unknown_fields`, stamp in the row's `stamps` like every field — merged last-writer-wins, and
/// sent on to other peers with the rest of the zone. When a later version of this build
/// knows the field (its migration adds the column), `adoptKnownFields` moves the kept
/// values into their columns at start-up.
extension LibraryStore {
    /// Field codes a newer version may use: below the bitmask width merge uses, and not the
    /// tombstone.
    static func isStorableUnknownCode(_ code: UInt8) -> Bool {
        code >= 1 && code < 64 && code != Entity.deletedField
    }

    /// Writes unknown fields of one object (values; their stamps are written by the caller).
    static func writeUnknownFields(
        _ entity: Entity, _ id: String, zone: String, _ fields: [(code: UInt8, value: SQLValue)],
        _ db: Database
    ) throws {
        for (code, value) in fields {
            try db.run(
                """
                INSERT INTO unknown_fields (entity, object, field, zone, value) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (entity, object, field) DO UPDATE SET zone = excluded.zone, value = excluded.value
                """, Int(entity.rawValue), id, Int(code), zone, value)
        }
    }

    /// The kept value of an unknown field, if any.
    static func unknownFieldValue(_ entity: Entity, _ id: String, code: UInt8, _ db: Database) throws
        -> SQLValue?
    {
        try db.first(
            "SELECT value FROM unknown_fields WHERE entity = ? AND object = ? AND field = ?",
            Int(entity.rawValue), id, Int(code)
        ) { $0.value(0) }
    }

    /// Unknown fields kept for one object, by code (for tests and diagnostics).
    public func unknownFields(_ entity: Entity, _ id: String) throws -> [UInt8: SQLValue] {
        try read { db in
            var result: [UInt8: SQLValue] = [:]
            try db.forEach(
                "SELECT field, value FROM unknown_fields WHERE entity = ? AND object = ?",
                Int(entity.rawValue), id
            ) { result[UInt8($0.int(0))] = $0.value(1) }
            return result
        }
    }

    /// Moves kept values whose field this build knows into their columns: run at start-up,
    /// so the fields a newer peer sent before this peer upgraded take effect after it.
    static func adoptKnownFields(_ db: Database) throws {
        let kept = try db.query("SELECT entity, object, field, value FROM unknown_fields") {
            ($0.int(0), $0.string(1), UInt8($0.int(2)), $0.value(3))
        }
        for (raw, id, code, value) in kept {
            guard let entity = Entity(rawValue: UInt8(raw)), let column = entity.column(for: code),
                code != Entity.deletedField
            else { continue }
            try db.run("UPDATE \(entity.table) SET \(column) = ? WHERE id = ?", value, id)
            try db.run(
                "DELETE FROM unknown_fields WHERE entity = ? AND object = ? AND field = ?", raw, id,
                Int(code))
        }
    }
}
