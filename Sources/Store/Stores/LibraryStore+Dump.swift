/// The canonical content of a zone: what people see, independent of stamps, delivery order
/// and whether duplicates were cleaned up, so two replicas can be compared line by line.
///
/// Each line holds every field of its object as the entity's field table lists them
/// (`Fields.swift`), so a new field is compared too; a missing value is `-`, a blob is hex.
extension LibraryStore {
    public func canonicalDump(zone: String) throws -> String {
        try read { db in
            var lines: [String] = []
            func dump(_ kind: String, _ sql: String, from first: Int = 0) throws {
                try db.forEach(sql, zone) { row in
                    let values = (first..<row.columnCount).map { row.optionalString($0) ?? "-" }
                    lines.append(([kind] + values).joined(separator: " "))
                }
            }
            try dump("share", "SELECT \(Self.dumpColumns(.share)), deleted FROM shares WHERE id = ?")
            try dump(
                "participant",
                "SELECT id, \(Self.dumpColumns(.participant)) FROM participants WHERE zone = ? AND deleted = 0 ORDER BY id",
                from: 1)
            try dump(
                "photo",
                "SELECT id, \(Self.dumpColumns(.photo)) FROM photos WHERE zone = ? AND deleted = 0 ORDER BY id"
            )
            try dump(
                "rating",
                """
                SELECT r.id, \(Self.dumpColumns(.rating, table: "r")) FROM ratings r
                JOIN photos p ON p.id = r.photo_id AND p.deleted = 0
                WHERE r.zone = ? AND r.deleted = 0 ORDER BY r.id
                """)
            try dump(
                "tag",
                "SELECT id, \(Self.dumpColumns(.tag)) FROM tags WHERE zone = ? AND deleted = 0 AND winner = id ORDER BY id"
            )
            try dump(
                "link",
                """
                SELECT DISTINCT l.photo_id, l.winner FROM live_links l
                JOIN photos p ON p.id = l.photo_id AND p.deleted = 0
                WHERE l.zone = ? ORDER BY 1, 2
                """)
            return lines.joined(separator: "\n")
        }
    }

    /// Every field column of `entity`, in table order, blobs as hex.
    private static func dumpColumns(_ entity: Entity, table: String? = nil) -> String {
        entity.fields.map { field in
            let column = table.map { "\($0).\(field.column)" } ?? field.column
            return field.kind.storage == .blob ? "hex(\(column))" : column
        }.joined(separator: ", ")
    }
}
