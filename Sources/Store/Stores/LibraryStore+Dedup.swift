/// Tag deduplication: tags of one zone with the same name are one tag, the one with the
/// smallest UUID (then smallest ID), on every replica.
///
/// Every replica keeps each tag's `winner` column (local, derived, never replicated) equal to
/// the live winner of its name, and every read goes through it, so duplicates are invisible
/// even on a read-only replica that may not clean them up. A replica that may write to the
/// zone also cleans up for real: losers become `merged` tombstones, which replicate like any
/// other change. Their links stay as they are and count for the winner (`live_links`): a
/// copy of a link under the winner, written by the cleanup, would be a newer write than a
/// removal of the original made meanwhile elsewhere, and would undo it.
extension LibraryStore {
    /// Recomputes `winner` for every tag named `name` in `zone`, writing only the rows whose
    /// winner changes (a name shared by many merged copies is recomputed on every share add).
    static func recomputeWinners(zone: String, name: String, _ db: Database) throws {
        try db.run(
            """
            UPDATE tags SET winner = computed.winner FROM (
                SELECT t.rowid AS row, CASE WHEN t.deleted = 1 THEN NULL ELSE (
                    SELECT w.id FROM tags w WHERE w.zone = ?1 AND w.name = ?2 AND w.deleted = 0 AND w.uuid IS NOT NULL
                    ORDER BY w.uuid, w.id LIMIT 1) END AS winner
                FROM tags t WHERE t.zone = ?1 AND t.name = ?2) AS computed
            WHERE tags.rowid = computed.row AND tags.winner IS NOT computed.winner
            """, zone, name)
    }

    /// Every tag's winner in `zone`, in one statement that writes only the rows whose
    /// winner changes (each tag's winner is looked up once, then compared with the stored one).
    static func recomputeAllWinners(zone: String, _ db: Database) throws {
        try db.run(
            """
            WITH computed AS MATERIALIZED (
                SELECT t.rowid AS row, t.winner AS old, CASE WHEN t.deleted = 1 THEN NULL ELSE (
                    SELECT w.id FROM tags w WHERE w.zone = t.zone AND w.name = t.name AND w.deleted = 0 AND w.uuid IS NOT NULL
                    ORDER BY w.uuid, w.id LIMIT 1) END AS winner
                FROM tags t WHERE t.zone = ?)
            UPDATE tags SET winner = computed.winner FROM computed
            WHERE tags.rowid = computed.row AND computed.old IS NOT computed.winner
            """, zone)
    }

    /// Writes the cleanup for `zone` into `tx` as set-based SQL: merges live losers into
    /// their winner (which does not change any winner). Returns the number of objects written.
    /// With `names`, only tags of those names are looked at: enough after a transaction
    /// whose touched names are known, when the rest of the zone was clean.
    @discardableResult
    func deduplicate(zone: String, names: Set<String>? = nil, in tx: Transaction) throws -> Int {
        let db = tx.db
        let me = try index(of: localPeer, db)
        try db.execute(Self.dedupTablesSQL + "DELETE FROM dedup_losers; DELETE FROM dedup_names;")
        if let names {
            for name in names { try db.run("INSERT INTO dedup_names (name) VALUES (?)", name) }
        }
        let bit = FieldMask.bit(Entity.deletedField)
        try db.run(Self.losersSQL(onlyNames: names != nil), zone, Int(Entity.deletedField), bit)
        let losers = try db.query("SELECT id FROM dedup_losers") { $0.string(0) }
        guard !losers.isEmpty else { return 0 }
        // The tombstone's bit leaves the group of its old stamp (whose `stamp_order` row goes
        // when left without fields) and joins the group of this transaction's stamp
        // (`StampGroups.move`, in SQL: `stamp_move`). The losers drive the writes: they are a
        // few of the zone's order rows (SQLite otherwise scans all of those), and their rows,
        // in `rowid` order, are written page by page rather than at random (which took a
        // quarter of a second for 50,000 losers, most of it pages written out of a full cache
        // and read back).
        let tag = Int(Entity.tag.rawValue)
        try db.run(
            """
            UPDATE stamp_order SET fields = l.rest
            FROM (SELECT id, peer, hlc, rest FROM dedup_losers WHERE rest != 0 ORDER BY peer, hlc, id) l
            WHERE stamp_order.zone = ? AND stamp_order.peer = l.peer AND stamp_order.hlc = l.hlc
              AND stamp_order.entity = ? AND stamp_order.object = l.id
            """, zone, tag)
        try db.run(
            """
            DELETE FROM stamp_order WHERE zone = ? AND entity = ?
              AND (peer, hlc, object) IN (SELECT peer, hlc, id FROM dedup_losers WHERE rest = 0)
            """, zone, tag)
        let hlc = tx.stamp.hlc
        try db.run(
            """
            UPDATE tags SET deleted = 2, stamps = stamp_move(stamps, ?, ?, ?)
            WHERE rowid IN (SELECT row FROM dedup_losers)
            """, bit, me, hlc)
        try db.run(
            """
            INSERT INTO stamp_order (zone, peer, hlc, entity, object, fields)
            SELECT ?, ?, ?, ?, id, ? FROM dedup_losers WHERE true
            ON CONFLICT DO UPDATE SET fields = fields | excluded.fields
            """, zone, me, hlc, tag, bit)
        tx.record(.tag, losers.map { ($0, .delete) }, zone: zone)
        tx.markLocalChange(in: zone)
        return losers.count
    }

    /// The cleanup's temporary tables (one per connection): the losers of one pass, by
    /// `rowid`, and the names it is limited to.
    static let dedupTablesSQL = """
        CREATE TEMP TABLE IF NOT EXISTS dedup_losers (
            row INTEGER PRIMARY KEY, id TEXT NOT NULL, peer INTEGER, hlc INTEGER, rest INTEGER
        );
        CREATE TEMP TABLE IF NOT EXISTS dedup_names (name TEXT PRIMARY KEY) WITHOUT ROWID;

        """

    /// Fills `dedup_losers` with the live losers of zone `?1` (of the names in `dedup_names`
    /// with `onlyNames`), each with the stamp of its tombstone (`?2` the field's code) and
    /// the other fields of that stamp (`?3` the field's bit). The zone's are found on
    /// `tags_live_losers` (migration 20), which holds only them; the names' on the index by
    /// name.
    static func losersSQL(onlyNames: Bool) -> String {
        """
        INSERT INTO dedup_losers (row, id, peer, hlc, rest)
        SELECT rowid, id, stamp_peer(stamps, ?2), stamp_hlc(stamps, ?2), stamp_fields(stamps, ?2) & ~?3 FROM tags t
        WHERE zone = ?1 AND deleted = 0 AND winner != id\(onlyNames ? " AND t.name IN (SELECT name FROM dedup_names)" : "")
        """
    }

    /// Whether `zone` has a live tag that is not its name's winner: what the cleanup merges
    /// (found on `tags_live_losers`, which holds only them).
    static func hasLiveLosers(zone: String, _ db: Database) throws -> Bool {
        try db.first(
            "SELECT 1 FROM tags WHERE zone = ? AND deleted = 0 AND winner != id LIMIT 1", zone,
            map: { _ in true })
            ?? false
    }

    /// Runs the cleanup for `zone` as its own transaction (author `dedup`) if it has
    /// anything to do. Returns the number of objects written.
    @discardableResult
    public func deduplicate(zone: String) throws -> Int {
        try write(author: .dedup) { tx in try deduplicate(zone: zone, in: tx) }
    }

    /// Runs `body` as a local write, then the cleanup of the tag names it touched, in
    /// `zones` in order, each as its own transaction (author `dedup`) if it has anything to
    /// do. Every earlier transaction left its zone clean, so only those names can have
    /// duplicates: the result is the whole zone's cleanup, without reading the whole zone.
    func writeThenDeduplicate(_ zones: [String], _ body: (Transaction) throws -> Void) throws {
        let touched = try write(author: .local) { tx in
            try body(tx)
            return tx.touchedTags
        }
        for zone in zones {
            guard let names = touched[zone], !names.isEmpty,
                try read({ db in try Self.hasLiveLosers(zone: zone, db) })
            else { continue }
            _ = try write(author: .dedup) { tx in try deduplicate(zone: zone, names: names, in: tx) }
        }
    }

    /// Recomputes every tag's winner in `zone` and cleans up, as one transaction (author
    /// `dedup`): the full pass, used for repair and measured by the benchmark. Returns the
    /// number of objects written.
    @discardableResult
    public func deduplicateAll(zone: String) throws -> Int {
        try write(author: .dedup) { tx in
            try Self.recomputeAllWinners(zone: zone, tx.db)
            return try deduplicate(zone: zone, in: tx)
        }
    }
}

extension Transaction {
    /// Sets the link between a photo and a tag.
    func setLink(photo: String, tag: String, zone: String, linked: Bool) throws {
        try set(
            .link, LibraryStore.linkID(photo: photo, tag: tag), zone: zone,
            [(LinkField.linked, .integer(linked ? 1 : 0))])
    }
}

extension LibraryStore {
    /// The object ID of the link between a photo and a tag.
    public static func linkID(photo: String, tag: String) -> String { "\(photo)/\(tag)" }

    /// SQL condition for the links of one photo: their IDs run from `photo/` to just before
    /// `photo0` ('0' follows '/'), so the index on `id` finds them and links need no index of
    /// their own by photo (migration 19). `photo` is an SQL expression (a parameter or a
    /// column); `link` the alias of the `photo_tags` row.
    static func linksOf(photo: String, link: String) -> String {
        "\(link).id > \(photo) || '/' AND \(link).id < \(photo) || '0'"
    }
}
