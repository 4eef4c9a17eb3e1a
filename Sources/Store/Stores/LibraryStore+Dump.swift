/// The canonical content of a zone: what people see, independent of stamps, delivery order
/// and whether duplicates were cleaned up, so two replicas can be compared line by line.
extension LibraryStore {
    public func canonicalDump(zone: String) throws -> String {
        try read { db in
            var lines: [String] = []
            try db.forEach("SELECT owner, title, public_permission, deleted FROM shares WHERE id = ?", zone) {
                lines.append(
                    "share \($0.optionalString(0) ?? "") \($0.optionalString(1) ?? "") \($0.optionalString(2) ?? "") \($0.int64(3))"
                )
            }
            try db.forEach(
                "SELECT peer, permission, status FROM participants WHERE zone = ? AND deleted = 0 ORDER BY id",
                zone
            ) {
                lines.append(
                    "participant \($0.optionalString(0) ?? "") \($0.optionalString(1) ?? "") \($0.optionalString(2) ?? "")"
                )
            }
            try db.forEach(
                """
                SELECT id, name, unique_name, created_at, data_hash, data_size, hex(thumbnail) FROM photos
                WHERE zone = ? AND deleted = 0 ORDER BY id
                """, zone
            ) { row in
                let fields = (1...6).map { row.optionalString($0) ?? "-" }.joined(separator: " ")
                lines.append("photo \(row.string(0)) \(fields)")
            }
            try db.forEach(
                """
                SELECT r.id, r.photo_id, r.value FROM ratings r JOIN photos p ON p.id = r.photo_id AND p.deleted = 0
                WHERE r.zone = ? AND r.deleted = 0 ORDER BY r.id
                """, zone
            ) { lines.append("rating \($0.string(0)) \($0.string(1)) \($0.int(2))") }
            try db.forEach(
                "SELECT id, uuid, name FROM tags WHERE zone = ? AND deleted = 0 AND winner = id ORDER BY id",
                zone
            ) {
                lines.append("tag \($0.string(0)) \($0.string(1)) \($0.string(2))")
            }
            try db.forEach(
                """
                SELECT DISTINCT l.photo_id, l.winner FROM live_links l
                JOIN photos p ON p.id = l.photo_id AND p.deleted = 0
                WHERE l.zone = ? ORDER BY 1, 2
                """, zone
            ) { lines.append("link \($0.string(0)) \($0.string(1))") }
            return lines.joined(separator: "\n")
        }
    }
}
