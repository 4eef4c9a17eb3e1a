/// Tag deduplication: tags of one zone with the same name are one tag, the one with the
/// smallest UUID (then smallest ID), on every replica.
///
/// Every replica keeps each tag's `winner` column (local, derived, never replicated) equal to
/// the live winner of its name, and every read goes through it, so duplicates are invisible
/// even on a read-only replica that may not clean them up. A replica that may write to the
/// zone also cleans up for real: losers become `merged` tombstones and their photos are
/// linked to the winner, which then replicates like any other change.
extension LibraryStore {
    /// Recomputes `winner` for every tag named `name` in `zone`.
    func recomputeWinners(zone: String, name: String) throws {
        try db.run(
            """
            UPDATE tags SET winner = CASE WHEN deleted = 1 THEN NULL ELSE (
                SELECT w.id FROM tags w WHERE w.zone = ?1 AND w.name = ?2 AND w.deleted = 0
                ORDER BY w.uuid, w.id LIMIT 1) END
            WHERE zone = ?1 AND name = ?2
            """, zone, name)
    }

    /// Writes the cleanup for `zone` into `tx`: merges live losers into their winner and
    /// links every photo of a merged tag to the winner. Returns the number of objects written.
    @discardableResult
    func deduplicate(zone: String, in tx: Transaction) throws -> Int {
        var written = 0
        let losers = try db.query(
            "SELECT id FROM tags WHERE zone = ? AND deleted = 0 AND winner IS NOT NULL AND winner != id", zone
        ) { $0.string(0) }
        for loser in losers {
            try tx.delete(.tag, loser, zone: zone, as: .merged)
            written += 1
        }
        let relinks = try db.query(
            """
            SELECT DISTINCT pt.photo_id, t.winner FROM tags t
            JOIN photo_tags pt ON pt.tag_id = t.id AND pt.linked = 1
            JOIN photos p ON p.id = pt.photo_id AND p.deleted = 0
            WHERE t.zone = ? AND t.deleted = 2 AND t.winner IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM photo_tags x
                              WHERE x.photo_id = pt.photo_id AND x.tag_id = t.winner AND x.linked = 1)
            """, zone
        ) { ($0.string(0), $0.string(1)) }
        for (photo, winner) in relinks {
            try tx.setLink(photo: photo, tag: winner, zone: zone, linked: true)
            written += 1
        }
        return written
    }

    /// Runs the cleanup for `zone` as its own transaction (author `dedup`) if it has
    /// anything to do. Returns the number of objects written.
    @discardableResult
    public func deduplicate(zone: String) throws -> Int {
        try write(author: .dedup) { tx in try deduplicate(zone: zone, in: tx) }
    }
}

extension Transaction {
    /// Sets the link between a photo and a tag.
    func setLink(photo: String, tag: String, zone: String, linked: Bool) throws {
        try set(
            .link, LibraryStore.linkID(photo: photo, tag: tag), zone: zone,
            [
                (LinkField.photo, .text(photo)), (LinkField.tag, .text(tag)),
                (LinkField.linked, .integer(linked ? 1 : 0)),
            ])
    }
}

extension LibraryStore {
    /// The object ID of the link between a photo and a tag.
    public static func linkID(photo: String, tag: String) -> String { "\(photo)/\(tag)" }
}

extension LibraryStore {
    /// Recomputes every tag's winner in `zone` and cleans up, as one transaction (author
    /// `dedup`): the full pass, used for repair and measured by the benchmark. Returns the
    /// number of objects written.
    @discardableResult
    public func deduplicateAll(zone: String) throws -> Int {
        try write(author: .dedup) { tx in
            try recomputeAllWinners(zone: zone)
            return try deduplicate(zone: zone, in: tx)
        }
    }

    /// Every tag's winner in `zone`, in one statement.
    func recomputeAllWinners(zone: String) throws {
        try db.run(
            """
            UPDATE tags SET winner = CASE WHEN deleted = 1 THEN NULL ELSE (
                SELECT w.id FROM tags w WHERE w.zone = tags.zone AND w.name = tags.name AND w.deleted = 0
                ORDER BY w.uuid, w.id LIMIT 1) END
            WHERE zone = ?
            """, zone)
    }
}
