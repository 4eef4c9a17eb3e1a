extension Migrations {
    /// **Live losers indexed** (issue 17): the tags a cleanup merges — live, with a winner
    /// other than themselves — in a partial index by zone. Every tag written, local or
    /// received, is followed by a cleanup of its zone on a replica that may write there;
    /// that pass read every tag of the zone to find the few losers (32 ms for 100,000 tags
    /// and none to merge, in the sqlite3 shell). Now it reads the losers alone, in `rowid`
    /// order. A tag enters the index when it loses and leaves it when it is merged or wins
    /// again: tags without duplicates, nearly all of them, never write to it.
    static let v20 = Migration(
        sql: """
            CREATE INDEX tags_live_losers ON tags (zone) WHERE deleted = 0 AND winner != id;
            """)
}
