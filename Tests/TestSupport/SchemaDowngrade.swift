/// SQL taking a store back to an earlier schema, for tests that open data an earlier version
/// wrote: each runs after the later downgrades, before the test's own drops.
public enum SchemaDowngrade {
    /// SQL taking a store of the latest schema back to `version` (17 to 22): each downgrade
    /// from the latest down to it, in order.
    public static func fromLatest(to version: Int) -> String {
        let steps = [
            (22, toSchema22), (21, toSchema21), (20, toSchema20), (19, toSchema19), (18, toSchema18),
            (17, toSchema17),
        ]
        return steps.filter { $0.0 >= version }.map(\.1).joined()
    }

    /// Undoes migration 23: no join accepts kept.
    public static let toSchema22 = """
        DROP TABLE join_accepts;
        PRAGMA user_version = 22;
        """

    /// Undoes migration 22: departures without the stamp of their leave.
    public static let toSchema21 = """
        ALTER TABLE departures DROP COLUMN stamp;
        PRAGMA user_version = 21;
        """

    /// Undoes migration 21: history tokens handed out by `AUTOINCREMENT` again, the last one
    /// kept in `sqlite_sequence` (set by the copy), and `history_changes` rebuilt under it.
    public static let toSchema20 = """
        CREATE TABLE history_old (
            token INTEGER PRIMARY KEY AUTOINCREMENT,
            author TEXT NOT NULL,
            timestamp INTEGER NOT NULL,
            changes BLOB
        );
        INSERT INTO history_old (token, author, timestamp, changes)
            SELECT token, author, timestamp, changes FROM history;
        CREATE TABLE history_changes_old (
            token INTEGER NOT NULL REFERENCES history_old(token) ON DELETE CASCADE,
            entity TEXT NOT NULL,
            object TEXT NOT NULL,
            zone TEXT NOT NULL,
            type TEXT NOT NULL
        );
        INSERT INTO history_changes_old (rowid, token, entity, object, zone, type)
            SELECT rowid, token, entity, object, zone, type FROM history_changes;
        DROP TABLE history_changes;
        DROP TABLE history;
        ALTER TABLE history_old RENAME TO history;
        ALTER TABLE history_changes_old RENAME TO history_changes;
        CREATE INDEX history_changes_by_token ON history_changes (token);
        PRAGMA user_version = 20;
        """

    /// Undoes migration 20: no index of the live losers.
    public static let toSchema19 = """
        DROP INDEX tags_live_losers;
        PRAGMA user_version = 19;
        """

    /// Undoes migration 19 (after `toSchema19`): stamps back in a `stamps` table of their own (one row per object
    /// and distinct stamp, from `stamp_order`, which holds the same groups), no `stamps`
    /// column in the rows, `photo_tags_by_photo` back, and migration 18's view.
    public static let toSchema18 = """
        DROP VIEW live_links;
        CREATE TABLE stamps (
            entity INTEGER NOT NULL,
            object TEXT NOT NULL,
            peer INTEGER NOT NULL,
            hlc INTEGER NOT NULL,
            zone TEXT NOT NULL,
            fields INTEGER NOT NULL,
            PRIMARY KEY (entity, object, peer, hlc)
        ) WITHOUT ROWID;
        INSERT INTO stamps (entity, object, peer, hlc, zone, fields)
            SELECT entity, object, peer, hlc, zone, fields FROM stamp_order;
        CREATE INDEX stamps_by_zone ON stamps (zone, peer, hlc, fields);
        DROP TABLE stamp_order;
        CREATE INDEX photo_tags_by_photo ON photo_tags (photo_id, linked);
        DROP INDEX photo_tags_unlinked;
        ALTER TABLE shares DROP COLUMN stamps;
        ALTER TABLE participants DROP COLUMN stamps;
        ALTER TABLE photos DROP COLUMN stamps;
        ALTER TABLE tags DROP COLUMN stamps;
        ALTER TABLE ratings DROP COLUMN stamps;
        ALTER TABLE photo_tags DROP COLUMN stamps;
        CREATE VIEW live_links AS
        SELECT pt.id AS id, pt.photo_id AS photo_id, pt.tag_id AS tag_id, t.winner AS winner, pt.zone AS zone
        FROM photo_tags pt JOIN tags t ON t.id = pt.tag_id
        LEFT JOIN stamps s ON s.entity = 6 AND s.object = pt.id AND s.fields & 8 != 0
        LEFT JOIN peers sp ON sp.idx = s.peer
        WHERE pt.linked = 1 AND t.winner IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM photo_tags o CROSS JOIN tags ot CROSS JOIN stamps so
            WHERE o.photo_id = pt.photo_id AND o.linked = 0 AND ot.id = o.tag_id AND ot.winner = t.winner
              AND so.entity = 6 AND so.object = o.id AND so.fields & 8 != 0
              AND (so.hlc > s.hlc OR (so.hlc = s.hlc
                   AND (SELECT peer_id FROM peers WHERE idx = so.peer) > sp.peer_id)));
        PRAGMA user_version = 18;
        """

    /// Undoes migration 18 (after `toSchema18`): stamps one row per field again (with migration 5's view over
    /// them, as schema 17 had it), `photos_by_hash` back, and no packed history (entries written since lose their
    /// changes, which no upgrade test reads).
    public static let toSchema17 = """
        DROP VIEW live_links;
        CREATE TABLE field_stamps (
            entity INTEGER NOT NULL,
            object TEXT NOT NULL,
            field INTEGER NOT NULL,
            zone TEXT NOT NULL,
            peer INTEGER NOT NULL,
            hlc INTEGER NOT NULL,
            PRIMARY KEY (entity, object, field)
        ) WITHOUT ROWID;
        WITH RECURSIVE bits (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM bits WHERE n < 63)
        INSERT INTO field_stamps (entity, object, field, zone, peer, hlc)
            SELECT s.entity, s.object, bits.n, s.zone, s.peer, s.hlc FROM stamps s JOIN bits
            WHERE s.fields & (1 << bits.n) != 0;
        DROP TABLE stamps;
        ALTER TABLE field_stamps RENAME TO stamps;
        CREATE INDEX stamps_by_zone ON stamps (zone, peer, hlc);
        CREATE VIEW live_links AS
        SELECT pt.id AS id, pt.photo_id AS photo_id, pt.tag_id AS tag_id, t.winner AS winner, pt.zone AS zone
        FROM photo_tags pt JOIN tags t ON t.id = pt.tag_id
        LEFT JOIN stamps s ON s.entity = 6 AND s.object = pt.id AND s.field = 3
        LEFT JOIN peers sp ON sp.idx = s.peer
        WHERE pt.linked = 1 AND t.winner IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM photo_tags o CROSS JOIN tags ot CROSS JOIN stamps so
            WHERE o.photo_id = pt.photo_id AND o.linked = 0 AND ot.id = o.tag_id AND ot.winner = t.winner
              AND so.entity = 6 AND so.object = o.id AND so.field = 3
              AND (so.hlc > s.hlc OR (so.hlc = s.hlc
                   AND (SELECT peer_id FROM peers WHERE idx = so.peer) > sp.peer_id)));
        ALTER TABLE history DROP COLUMN changes;
        CREATE INDEX photos_by_hash ON photos (data_hash);
        PRAGMA user_version = 17;
        """
}
