/// The ordered, append-only list of schema migrations, keyed on `PRAGMA user_version`.
///
/// A released migration is never edited: a change to the schema is a new entry at the end,
/// so a store written by any earlier version opens and upgrades in place.
enum Migrations {
    static let all: [Migration] =
        [
            v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18,
        ].map(Migration.init(sql:)) + [v19, v20, v21, v22, v23]

    /// Brings `db` to the latest version, each migration in its own transaction (a new
    /// store's all in one: each page is then written to the log once, not once per migration,
    /// and a new store takes half the disk it did while it is first opened). Returns what it
    /// did.
    @discardableResult
    static func migrate(_ db: Database) throws -> Outcome {
        let current = try db.first("PRAGMA user_version") { $0.int(0) } ?? 0
        guard current <= all.count else {
            throw StoreError.schemaTooNew(path: db.path, version: current, supported: all.count)
        }
        if current == 0 {
            try db.transaction {
                for migration in all { try migration.run(db) }
                try db.execute("PRAGMA user_version = \(all.count)")
            }
            return .created
        }
        for (index, migration) in all.enumerated() where index >= current {
            try db.transaction {
                try migration.run(db)
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
        return current < all.count ? .upgraded : .current
    }

    /// What `migrate` did.
    enum Outcome {
        /// A new store, at the latest version.
        case created
        /// An existing store, brought to the latest version.
        case upgraded
        /// Nothing: the store was at the latest version.
        case current
    }

    /// Share invitations the owner can check and revoke (only the hash of each URL's token
    /// is kept), and shares a participant left whose owner has not been told yet. Both local,
    /// never replicated.
    static let v2 = """
        CREATE TABLE invitations (
            zone TEXT PRIMARY KEY,
            generation INTEGER NOT NULL,
            token_hash TEXT NOT NULL
        );
        CREATE TABLE departures (
            zone TEXT PRIMARY KEY,
            owner TEXT NOT NULL
        );
        """

    /// Where the owner of an accepted share listens (HOST:PORT of its URL), so the daemon
    /// can dial it again after a restart, and tell it about a departure.
    static let v3 = """
        ALTER TABLE zones ADD COLUMN address TEXT;
        ALTER TABLE departures ADD COLUMN address TEXT;
        """

    /// Tags by name without their tombstone: merging a tag (`deleted` 0 → 2) no longer moves
    /// its entry in the index, so deduplication rewrites only the rows themselves. Candidate
    /// winners are found in the same (zone, name, uuid, id) order, live ones checked on the row.
    static let v4 = """
        DROP INDEX tags_by_name;
        CREATE INDEX tags_by_zone_name ON tags (zone, name, uuid, id);
        """

    /// A photo carries a tag name when the latest link written between the photo and any tag
    /// of that name (every tag counting for the same winner) is a tagging: a removal made
    /// after the last tagging holds, whichever duplicate each replica linked. `live_links`
    /// is that rule: links that are set and that no later removal in their group overrides
    /// (stamps compared as everywhere: HLC, then peer ID bytes). Every read of a photo's
    /// tags goes through it. (CROSS JOIN keeps SQLite from scanning every link's stamp for
    /// each link: the removals looked for are the few unset links of the same photo.)
    ///
    /// `unknown_fields` keeps the values of fields a newer version sent that this one does not
    /// know (their stamps are in `stamps`), so they replicate on and are adopted after an
    /// upgrade (`LibraryStore+UnknownFields`).
    static let v5 = """
        CREATE TABLE unknown_fields (
            entity INTEGER NOT NULL,
            object TEXT NOT NULL,
            field INTEGER NOT NULL,
            zone TEXT NOT NULL,
            value,
            PRIMARY KEY (entity, object, field)
        ) WITHOUT ROWID;
        CREATE INDEX unknown_fields_by_zone ON unknown_fields (zone);
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
        """

    /// Where each participant of a share this peer owns says it listens, so that the owner
    /// dials it too (after a resume or a restart) instead of only waiting to be dialed. Local,
    /// never replicated: a peer's own word about its address, given on its connections.
    static let v6 = """
        CREATE TABLE peer_addresses (
            peer TEXT PRIMARY KEY,
            address TEXT NOT NULL,
            updated_at INTEGER NOT NULL
        );
        """

    /// Persons (issue 12): the signed entries of device lists, kept as received, and which
    /// person this library's device belongs to (`meta` key `local_person`).
    static let v7 = """
        CREATE TABLE device_list_entries (
            person BLOB NOT NULL,
            hash BLOB NOT NULL,
            entry BLOB NOT NULL,
            PRIMARY KEY (person, hash)
        );
        """

    /// Persons in sharing: a share names its owner's person and a participant its person
    /// (both replicated fields, filled in as the owner learns them), and each library keeps
    /// which person each device it has met belongs to (local, from checked device lists).
    static let v8 = """
        ALTER TABLE shares ADD COLUMN owner_person TEXT;
        ALTER TABLE participants ADD COLUMN person TEXT;
        CREATE TABLE device_persons (
            device TEXT PRIMARY KEY,
            person TEXT NOT NULL
        ) WITHOUT ROWID;
        """

    /// Signed membership operations (issue 12, step 2): each zone's log as received or
    /// issued, kept whole (local bookkeeping: replicated by their own message, never in
    /// change sets).
    static let v9 = """
        CREATE TABLE membership_operations (
            zone TEXT NOT NULL,
            hash BLOB NOT NULL,
            operation BLOB NOT NULL,
            PRIMARY KEY (zone, hash)
        );
        """

    /// The change sets this device signed, one per local transaction and zone, numbered per
    /// zone (`seq` 1, 2, 3…) and chained by hash (docs/REPLICATION.md, *Signed change sets*):
    /// what members will relay for it. Local bookkeeping beside the state tables.
    static let v10 = """
        CREATE TABLE signed_sets (
            zone TEXT NOT NULL,
            author BLOB NOT NULL,
            seq INTEGER NOT NULL,
            hash BLOB NOT NULL,
            hlc INTEGER NOT NULL,
            bytes BLOB NOT NULL,
            PRIMARY KEY (zone, author, seq)
        );
        """

    /// Where each participant listens, as a replicated field of its record written by the
    /// owner, so that participants dial each other (the mesh, issue 12). Values kept by an
    /// earlier version as an unknown field move into the column when the store opens.
    static let v11 = """
        ALTER TABLE participants ADD COLUMN address TEXT;
        """

    /// Other devices' signed change sets are kept beside this device's own in `signed_sets`
    /// (members relay them), with the certificates of their authors, to pass on with them, and
    /// each author's last set per zone (read for every exchange, which would otherwise scan
    /// every set of the zone).
    static let v12 = """
        CREATE TABLE set_authors (
            device BLOB PRIMARY KEY,
            certificate BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE signed_set_tops (
            zone TEXT NOT NULL,
            author BLOB NOT NULL,
            seq INTEGER NOT NULL,
            hash BLOB NOT NULL,
            PRIMARY KEY (zone, author)
        ) WITHOUT ROWID;
        INSERT INTO signed_set_tops (zone, author, seq, hash)
            SELECT zone, author, seq, hash FROM signed_sets s
            WHERE seq = (SELECT max(seq) FROM signed_sets WHERE zone = s.zone AND author = s.author);
        """

    /// Members of a shared zone known from its signed membership log, or from joining,
    /// before the owner's records name them (joining through a member while the owner is
    /// away, issue 12): the devices the log's fold admits with their permission, the member
    /// this device joined through with its address. Local bookkeeping, never replicated; the
    /// owner's records win once they name the device.
    static let v13 = """
        CREATE TABLE log_members (
            zone TEXT NOT NULL,
            device TEXT NOT NULL,
            permission TEXT,
            address TEXT,
            PRIMARY KEY (zone, device)
        ) WITHOUT ROWID;
        """

    /// Where devices listen, as they signed it (issue 13): the newest signed address record
    /// of each device (this one's own included), and the address a dial last reached it at.
    /// Local bookkeeping, never replicated; a row may hold a confirmation without a record
    /// (an address learnt from a URL or a connection).
    static let v14 = """
        CREATE TABLE address_records (
            device TEXT PRIMARY KEY,
            version INTEGER NOT NULL DEFAULT 0,
            record BLOB,
            confirmed_address TEXT,
            confirmed_at INTEGER
        ) WITHOUT ROWID;
        """

    /// One-time links that make a new device one of this library's person's (issue 14): the
    /// SHA-256 of each link's token, when it expires, when it was used. Local, never
    /// replicated.
    static let v15 = """
        CREATE TABLE device_links (
            token_hash TEXT PRIMARY KEY,
            expires_at INTEGER NOT NULL,
            used_at INTEGER,
            name TEXT
        ) WITHOUT ROWID;
        """

    /// Sharing kept in view (issue 15), local and never replicated: on the owner's side, the
    /// uninvited accepts of a private share waiting for `share approve` or `share deny` (a
    /// denied one is kept, so the same device is not asked about again); on a participant's
    /// side, the shares that ended for it (stopped, or removed from), with why, until
    /// `share dismiss`.
    static let v16 = """
        CREATE TABLE join_requests (
            zone TEXT NOT NULL,
            device TEXT NOT NULL,
            person TEXT,
            requested_at INTEGER NOT NULL,
            denied_at INTEGER,
            PRIMARY KEY (zone, device)
        ) WITHOUT ROWID;
        CREATE TABLE ended_shares (
            zone TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            owner TEXT NOT NULL,
            owner_person TEXT,
            reason TEXT NOT NULL,
            message TEXT NOT NULL,
            ended_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        """

    /// The gallery (issue 16), local and never replicated: photos added on this device whose
    /// thumbnail the daemon still has to make (a row is written with the photo and removed
    /// when the thumbnail is stored or the data proves not to be an image, so a kill -9 in
    /// between loses no work), the order the gallery pages photos in, and the live photos'
    /// hashes apart from their rows (the start-up sweep reads them without reading the rows,
    /// which now hold thumbnails: 1.4 s to 0.35 s with 100,000 photos).
    static let v17 = """
        CREATE TABLE thumbnail_jobs (photo_id TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE INDEX photos_by_time ON photos (deleted, created_at, id);
        CREATE INDEX photos_by_live_hash ON photos (deleted, data_hash);
        """

    /// A leaner layout for what every write touches (issue 17). **Stamps grouped by stamp**:
    /// one row per object and distinct stamp, `fields` the bitmask of the field codes that
    /// carry it (bit n = code n), instead of one row per field. An object written in one
    /// transaction — every new photo, tag, rating and link — has one row and one
    /// `stamps_by_zone` entry instead of one of each per field; a field written later moves
    /// its bit to a row of its new stamp. Every field's bit is in at most one row of its
    /// object. `stamps_by_zone` holds the fields too, so a delta reads its stamps off the
    /// index alone. And `photos_by_hash` goes: every lookup by hash is of live photos, which
    /// `photos_by_live_hash (deleted, data_hash)` serves, and each photo written paid for a
    /// second random insert of its 64-character hash. **History changes packed**: a transaction's changes go into one blob on its
    /// `history` row (`HistoryPacking`) instead of one `history_changes` row each; the rows
    /// earlier versions wrote stay and are still read.
    static let v18 = """
        CREATE TABLE stamp_groups (
            entity INTEGER NOT NULL,
            object TEXT NOT NULL,
            peer INTEGER NOT NULL,
            hlc INTEGER NOT NULL,
            zone TEXT NOT NULL,
            fields INTEGER NOT NULL,
            PRIMARY KEY (entity, object, peer, hlc)
        ) WITHOUT ROWID;
        INSERT INTO stamp_groups (entity, object, peer, hlc, zone, fields)
            SELECT entity, object, peer, hlc, max(zone), sum(1 << field) FROM stamps
            GROUP BY entity, object, peer, hlc;
        DROP VIEW live_links;
        DROP TABLE stamps;
        ALTER TABLE stamp_groups RENAME TO stamps;
        CREATE INDEX stamps_by_zone ON stamps (zone, peer, hlc, fields);
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
        ALTER TABLE history ADD COLUMN changes BLOB;
        DROP INDEX photos_by_hash;
        """

    static let v1 = """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE peers (idx INTEGER PRIMARY KEY, peer_id BLOB NOT NULL UNIQUE);
        CREATE TABLE zones (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE clocks (
            zone TEXT NOT NULL REFERENCES zones(id) ON DELETE CASCADE,
            peer INTEGER NOT NULL,
            hlc INTEGER NOT NULL,
            PRIMARY KEY (zone, peer)
        ) WITHOUT ROWID;
        CREATE TABLE stamps (
            entity INTEGER NOT NULL,
            object TEXT NOT NULL,
            field INTEGER NOT NULL,
            zone TEXT NOT NULL,
            peer INTEGER NOT NULL,
            hlc INTEGER NOT NULL,
            PRIMARY KEY (entity, object, field)
        ) WITHOUT ROWID;
        CREATE INDEX stamps_by_zone ON stamps (zone, peer, hlc);

        CREATE TABLE shares (
            id TEXT PRIMARY KEY, zone TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
            owner TEXT, title TEXT, public_permission TEXT
        );
        CREATE TABLE participants (
            id TEXT PRIMARY KEY, zone TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
            peer TEXT, permission TEXT, status TEXT
        );
        CREATE INDEX participants_by_zone ON participants (zone);
        CREATE TABLE photos (
            id TEXT PRIMARY KEY, zone TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
            name TEXT, unique_name TEXT, created_at INTEGER, data_hash TEXT, data_size INTEGER,
            thumbnail BLOB
        );
        CREATE INDEX photos_by_zone ON photos (zone, deleted);
        CREATE INDEX photos_by_hash ON photos (data_hash);
        CREATE TABLE tags (
            id TEXT PRIMARY KEY, zone TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
            uuid TEXT, name TEXT,
            winner TEXT  -- derived locally: the live tag this one counts as (dedup), never replicated
        );
        CREATE INDEX tags_by_name ON tags (zone, name, deleted, uuid, id);
        CREATE INDEX tags_by_winner ON tags (winner);
        CREATE TABLE ratings (
            id TEXT PRIMARY KEY, zone TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
            photo_id TEXT, value INTEGER
        );
        CREATE INDEX ratings_by_photo ON ratings (photo_id);
        CREATE TABLE photo_tags (
            id TEXT PRIMARY KEY, zone TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
            photo_id TEXT, tag_id TEXT, linked INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX photo_tags_by_photo ON photo_tags (photo_id, linked);
        CREATE INDEX photo_tags_by_tag ON photo_tags (tag_id, linked);

        CREATE TABLE history (
            token INTEGER PRIMARY KEY AUTOINCREMENT,
            author TEXT NOT NULL,
            timestamp INTEGER NOT NULL
        );
        CREATE TABLE history_changes (
            token INTEGER NOT NULL REFERENCES history(token) ON DELETE CASCADE,
            entity TEXT NOT NULL,
            object TEXT NOT NULL,
            zone TEXT NOT NULL,
            type TEXT NOT NULL
        );
        CREATE INDEX history_changes_by_token ON history_changes (token);
        """
}
