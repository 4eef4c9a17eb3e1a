extension Migrations {
    /// **History tokens without `AUTOINCREMENT`** (issue 17): `history.token` becomes a plain
    /// `INTEGER PRIMARY KEY`. `AUTOINCREMENT` kept the last token in `sqlite_sequence`, one page
    /// more in every commit that records history: one of the eleven pages a received tag
    /// writes. History rows are never deleted, so SQLite's next rowid (the largest plus one)
    /// is the token `AUTOINCREMENT` handed out. The rows keep their tokens; old entries' change
    /// rows (`history_changes`, before migration 18 packed them) keep theirs and their order.
    /// The child table is rebuilt first, pointing at the new table: with foreign keys on,
    /// dropping `history` under it would delete its rows.
    static let v21 = Migration(
        sql: """
            CREATE TABLE history_new (
                token INTEGER PRIMARY KEY,
                author TEXT NOT NULL,
                timestamp INTEGER NOT NULL,
                changes BLOB
            );
            INSERT INTO history_new (token, author, timestamp, changes)
                SELECT token, author, timestamp, changes FROM history;
            CREATE TABLE history_changes_new (
                token INTEGER NOT NULL REFERENCES history_new(token) ON DELETE CASCADE,
                entity TEXT NOT NULL,
                object TEXT NOT NULL,
                zone TEXT NOT NULL,
                type TEXT NOT NULL
            );
            INSERT INTO history_changes_new (rowid, token, entity, object, zone, type)
                SELECT rowid, token, entity, object, zone, type FROM history_changes;
            DROP TABLE history_changes;
            DROP TABLE history;
            ALTER TABLE history_new RENAME TO history;
            ALTER TABLE history_changes_new RENAME TO history_changes;
            CREATE INDEX history_changes_by_token ON history_changes (token);
            """)
}
