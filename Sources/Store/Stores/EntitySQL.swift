/// The per-entity statements that applying a change set runs for every object, built once
/// instead of formatted again for each object (the text is also the statement cache's key).
enum EntitySQL {
    /// `zone, deleted`, every field column and `stamps` of the row with a given ID.
    static func row(_ entity: Entity) -> String { rows[Int(entity.rawValue)] }

    /// The zone of the row with a given ID.
    static func zone(_ entity: Entity) -> String { zones[Int(entity.rawValue)] }

    /// `zone, stamps` of the row with a given ID.
    static func stamps(_ entity: Entity) -> String { stampColumns[Int(entity.rawValue)] }

    /// Deletes the row with a given ID.
    static func delete(_ entity: Entity) -> String { deletes[Int(entity.rawValue)] }

    private static func byEntity(_ sql: (Entity) -> String) -> [String] {
        [""] + (1...Entity.allCases.count).map { sql(Entity(rawValue: UInt8($0))!) }
    }

    private static let rows = byEntity { entity in
        let columns = (["zone", "deleted"] + entity.fields.map(\.column) + ["stamps"]).joined(separator: ", ")
        return "SELECT \(columns) FROM \(entity.table) WHERE id = ?"
    }
    private static let zones = byEntity { "SELECT zone FROM \($0.table) WHERE id = ?" }
    private static let stampColumns = byEntity { "SELECT zone, stamps FROM \($0.table) WHERE id = ?" }
    private static let deletes = byEntity { "DELETE FROM \($0.table) WHERE id = ?" }
}
