/// One schema migration: SQL, or SQL with a step in Swift where SQL alone cannot do it.
struct Migration: Sendable {
    let run: @Sendable (Database) throws -> Void

    init(sql: String) {
        run = { db in try db.execute(sql) }
    }

    init(_ run: @escaping @Sendable (Database) throws -> Void) {
        self.run = run
    }
}

extension Migrations {
    /// **Stamps in the row** (issue 17, docs/design/WRITES.md §1): each object's stamp
    /// groups move from the `stamps` table, keyed by the object's random UUID, into a
    /// `stamps` column of its own row (`StampGroups`), and deltas find them in stamp order in
    /// `stamp_order (zone, peer, hlc, entity, object, fields)`, one row per object and distinct
    /// stamp, appended in HLC order. A new object costs one random B-tree insert fewer.
    /// `live_links` reads a link's `linked` stamp from its row (`StampFunctions`). And
    /// `photo_tags_by_photo` goes: a link's ID is `photo/tag`, so the index on `id` finds a
    /// photo's links (`LibraryStore.linksOf`), and every new link wrote one random B-tree
    /// entry fewer (a join 12 % faster, issue 17). Only the removals `live_links` looks for
    /// (unset links of a photo) keep an index by photo, `photo_tags_unlinked`, partial: a new
    /// link, which is set, writes nothing there, and a photo with hundreds of tags is not
    /// scanned once per tag. Stamps whose object has no row (none should exist: a row's
    /// deletion takes its stamps) are dropped.
    static let v19 = Migration { db in
        try db.execute(
            """
            DROP VIEW live_links;
            DROP INDEX photo_tags_by_photo;
            CREATE INDEX photo_tags_unlinked ON photo_tags (photo_id) WHERE linked = 0;
            ALTER TABLE shares ADD COLUMN stamps BLOB;
            ALTER TABLE participants ADD COLUMN stamps BLOB;
            ALTER TABLE photos ADD COLUMN stamps BLOB;
            ALTER TABLE tags ADD COLUMN stamps BLOB;
            ALTER TABLE ratings ADD COLUMN stamps BLOB;
            ALTER TABLE photo_tags ADD COLUMN stamps BLOB;
            CREATE TABLE stamp_order (
                zone TEXT NOT NULL,
                peer INTEGER NOT NULL,
                hlc INTEGER NOT NULL,
                entity INTEGER NOT NULL,
                object TEXT NOT NULL,
                fields INTEGER NOT NULL,
                PRIMARY KEY (zone, peer, hlc, entity, object)
            ) WITHOUT ROWID;
            """)
        for entity in Entity.allCases {
            try packStamps(of: entity, db)
            try db.run(
                """
                INSERT INTO stamp_order (zone, peer, hlc, entity, object, fields)
                SELECT t.zone, s.peer, s.hlc, s.entity, s.object, s.fields
                FROM stamps s JOIN \(entity.table) t ON t.id = s.object WHERE s.entity = ?
                """, Int(entity.rawValue))
        }
        try db.execute(
            """
            DROP TABLE stamps;
            CREATE VIEW live_links AS
            SELECT pt.id AS id, pt.photo_id AS photo_id, pt.tag_id AS tag_id, t.winner AS winner, pt.zone AS zone
            FROM photo_tags pt JOIN tags t ON t.id = pt.tag_id
            WHERE pt.linked = 1 AND t.winner IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM photo_tags o CROSS JOIN tags ot
                WHERE o.photo_id = pt.photo_id AND o.linked = 0 AND ot.id = o.tag_id AND ot.winner = t.winner
                  AND (stamp_hlc(o.stamps, 3) > stamp_hlc(pt.stamps, 3) OR (stamp_hlc(o.stamps, 3) = stamp_hlc(pt.stamps, 3)
                       AND (SELECT peer_id FROM peers WHERE idx = stamp_peer(o.stamps, 3))
                         > (SELECT peer_id FROM peers WHERE idx = stamp_peer(pt.stamps, 3)))));
            """)
    }

    /// Writes each object's groups of the old `stamps` table into its row.
    private static func packStamps(of entity: Entity, _ db: Database) throws {
        var object: String?
        var groups: [StampGroups.Group] = []
        func flush() throws {
            guard let object, !groups.isEmpty else { return }
            try db.run(
                "UPDATE \(entity.table) SET stamps = ? WHERE id = ?",
                sqlValues: [StampGroups(groups).encoded, .text(object)])
        }
        try db.forEach(
            "SELECT object, peer, hlc, fields FROM stamps WHERE entity = ? ORDER BY object",
            Int(entity.rawValue)
        ) { row in
            let id = row.string(0)
            if id != object {
                try flush()
                object = id
                groups = []
            }
            groups.append(StampGroups.Group(mask: row.int64(3), peer: row.int64(1), hlc: row.uint64(2)))
        }
        try flush()
    }
}
