/// The check run when a store opens, after its migrations: every column the field tables
/// (`Fields.swift`) and the shared row shape name exists in the migrated schema.
///
/// The field tables and the migrations are the two descriptions of an entity's storage that
/// cannot be one (a released migration is never edited). A field added to a table without a
/// migration adding its column, or a file whose schema was changed by hand, would otherwise
/// fail at the first write or read of that field, possibly mid-sync; this makes it fail at
/// once, naming what is missing, and before anything is written.
enum SchemaCheck {
    /// Throws `StoreError.schemaMismatch` for the first entity table lacking a column.
    static func verify(_ db: Database) throws {
        for entity in Entity.allCases {
            let missing = try missingColumns(of: entity, db)
            guard missing.isEmpty else {
                throw StoreError.schemaMismatch(path: db.path, table: entity.table, missing: missing)
            }
        }
    }

    /// The columns `entity`'s rows need that its table lacks, in table order.
    static func missingColumns(of entity: Entity, _ db: Database) throws -> [String] {
        let present = Set(
            try db.query("SELECT name FROM pragma_table_info(?)", entity.table) { $0.string(0) })
        let derived = entity.derivedColumns(id: "a/b")?.map(\.column) ?? []
        let needed = ["id", "zone", "deleted"] + derived + entity.fields.map(\.column)
        return needed.filter { !present.contains($0) }
    }
}
