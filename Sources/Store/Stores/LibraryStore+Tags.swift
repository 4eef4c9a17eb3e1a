/// Tags: tag, toggle, untag, delete, and the zone's tag list with photo counts.
extension LibraryStore {
    /// Tags a photo with the zone's tag of that name, or a new tag (new UUID) if the zone has
    /// none — the sample's addTag.
    public func tag(photo: String, name: String) throws -> TagRef {
        try validateName(name, what: "tag name")
        let zone = try livePhotoZone(photo)
        try requireWriteUnlessDefault(zone, action: "tag this photo")
        let tag = try write(author: .local) { tx in try tagPhoto(photo, name: name, zone: zone, in: tx) }
        try deduplicateIfNeeded(zone: zone)
        return tag
    }

    /// Inside a transaction: links the photo to the live winner named `name`, creating it.
    func tagPhoto(_ photo: String, name: String, zone: String, in tx: Transaction) throws -> TagRef {
        let existing = try tx.db.first(
            "SELECT id, uuid FROM tags WHERE zone = ? AND name = ? AND deleted = 0 AND winner = id", zone,
            name
        ) { TagRef(id: $0.string(0), uuid: $0.string(1), name: name) }
        let tag: TagRef
        if let existing {
            tag = existing
        } else {
            tag = TagRef(id: ids.next(), uuid: ids.next(), name: name)
            try tx.set(
                .tag, tag.id, zone: zone, [(TagField.uuid, .text(tag.uuid)), (TagField.name, .text(name))])
            try Self.recomputeWinners(zone: zone, name: name, tx.db)
        }
        if try !carries(photo: photo, tag: tag.id, tx.db) {
            try tx.setLink(photo: photo, tag: tag.id, zone: zone, linked: true)
        }
        return tag
    }

    /// Removes a tag from a photo: every set link of the photo that counts for this tag is
    /// unset, so this removal is the latest write of the name's group.
    public func untag(photo: String, tag: String) throws {
        let zone = try livePhotoZone(photo)
        try requireWriteUnlessDefault(zone, action: "untag this photo")
        try write(author: .local) { tx in
            guard try carries(photo: photo, tag: tag, tx.db) else {
                throw StoreError.invalid("photo \(photo.prefix(8)) does not carry tag \(tag.prefix(8))")
            }
            let raw = try tx.db.query(
                """
                SELECT pt.tag_id FROM photo_tags pt JOIN tags t ON t.id = pt.tag_id
                WHERE \(Self.linksOf(photo: "?1", link: "pt")) AND pt.linked = 1 AND t.winner = ?2
                """, photo, tag
            ) { $0.string(0) }
            for rawTag in raw { try tx.setLink(photo: photo, tag: rawTag, zone: zone, linked: false) }
        }
    }

    /// Tags the photo if it lacks the tag, untags it otherwise. Returns true if now tagged.
    public func toggle(photo: String, tag: String) throws -> Bool {
        if try read({ db in try carries(photo: photo, tag: tag, db) }) {
            try untag(photo: photo, tag: tag)
            return false
        }
        let zone = try livePhotoZone(photo)
        try requireWriteUnlessDefault(zone, action: "tag this photo")
        try write(author: .local) { tx in
            let tagZone = try tx.db.first("SELECT zone FROM tags WHERE id = ? AND deleted = 0", tag) {
                $0.string(0)
            }
            guard tagZone == zone else {
                throw StoreError.invalid("tag \(tag.prefix(8)) belongs to another share than the photo")
            }
            try tx.setLink(photo: photo, tag: tag, zone: zone, linked: true)
        }
        return true
    }

    /// Deletes a tag (and its merged duplicates) and removes it from its photos.
    public func deleteTag(_ id: String) throws {
        guard
            let zone = try read({ db in
                try db.first("SELECT zone FROM tags WHERE id = ? AND deleted = 0", id) { $0.string(0) }
            })
        else { throw StoreError.notFound(kind: "tag", reference: id) }
        try requireWriteUnlessDefault(zone, action: "delete this tag")
        try write(author: .local) { tx in
            let family = try tx.db.query("SELECT id FROM tags WHERE winner = ? OR id = ?", id, id) {
                $0.string(0)
            }
            for member in family {
                let photos = try tx.db.query(
                    "SELECT photo_id FROM photo_tags WHERE tag_id = ? AND linked = 1", member
                ) {
                    $0.string(0)
                }
                for photo in photos { try tx.setLink(photo: photo, tag: member, zone: zone, linked: false) }
                try tx.delete(.tag, member, zone: zone)
            }
        }
    }

    /// Live tags (dedup winners) with the number of live photos carrying each.
    public func tags(zone: String? = nil) throws -> [TagSummary] {
        try read { db in
            var sql = """
                SELECT w.id, w.uuid, w.name, w.zone, (
                    SELECT COUNT(DISTINCT l.photo_id) FROM live_links l
                    JOIN photos p ON p.id = l.photo_id AND p.deleted = 0
                    WHERE l.winner = w.id)
                FROM tags w WHERE w.deleted = 0 AND w.winner = w.id
                """
            var values: [any SQLBindable] = []
            if let zone {
                sql += " AND w.zone = ?"
                values.append(zone)
            }
            sql += " ORDER BY w.name, w.uuid"
            return try db.query(sql, values: values) {
                TagSummary(
                    id: $0.string(0), uuid: $0.string(1), name: $0.string(2), zone: $0.string(3), store: kind,
                    photoCount: $0.int(4))
            }
        }
    }

    /// Live tags whose name is exactly `name`, in any zone of this store.
    public func tags(named name: String) throws -> [TagSummary] {
        try tags().filter { $0.name == name }
    }

    /// Cleans up duplicate tags of `zone` when it has any and this peer may write there.
    /// Returns the number of objects written. Most writes leave no duplicate (a tag added, a
    /// link set): one indexed read then spares the cleanup's write transaction.
    @discardableResult
    func deduplicateIfNeeded(zone: String) throws -> Int {
        let due = try read { db in
            try Self.hasLiveLosers(zone: zone, db) && permission(of: localPeer, in: zone, db) == .readWrite
        }
        return due ? try deduplicate(zone: zone) : 0
    }
}
