/// Zones as data: create, move a photo's graph into one, move objects back, purge a copy.
extension LibraryStore {
    /// Records a zone this store holds (a new share, or one being accepted).
    func createZone(_ zone: String, owner: PeerID, _ db: Database) throws {
        try db.run(
            "INSERT OR IGNORE INTO zones (id, owner, created_at) VALUES (?, ?, ?)", zone, owner.description,
            Int64(HybridLogicalClock.wallMilliseconds()))
        // Joining a share again forgets that it ended.
        try db.run("DELETE FROM ended_shares WHERE zone = ?", zone)
    }

    /// Zones this store holds (the default one too), with their owners, oldest first.
    public func zones() throws -> [ZoneRecord] {
        try read { db in
            try db.query("SELECT id, owner, address FROM zones ORDER BY created_at, id", map: Self.zoneRecord)
                .compactMap { $0 }
        }
    }

    /// Moves a live photo of the default zone, with its ratings, into `zone`; each of its tags
    /// moves with it, or is copied when photos left behind still use it (SPEC §3).
    func movePhoto(_ photo: String, into zone: String, in tx: Transaction) throws {
        let source = Self.defaultZone
        let db = tx.db
        try restamp(.photo, photo, into: zone, in: tx)
        let ratings = try db.query("SELECT id FROM ratings WHERE photo_id = ? AND deleted = 0", photo) {
            $0.string(0)
        }
        for rating in ratings { try restamp(.rating, rating, into: zone, in: tx) }
        let tags = try effectiveTags(ofPhoto: photo, db)
        var copied = Set<String>()
        for tag in tags {
            let othersUseIt =
                try db.first(
                    """
                    SELECT 1 FROM live_links l JOIN photos p ON p.id = l.photo_id AND p.deleted = 0 AND p.zone = ?
                    WHERE l.winner = ? AND l.photo_id != ? LIMIT 1
                    """, source, tag.id, photo
                ) { _ in true } ?? false
            if othersUseIt { copied.insert(tag.id) }
        }
        let moving = Set(
            tags.filter { !copied.contains($0.id) }.map { Self.linkID(photo: photo, tag: $0.id) })
        try dropLinks(ofPhoto: photo, zone: source, except: moving, in: tx)
        for tag in tags {
            var target = tag.id
            if copied.contains(tag.id) {
                target = ids.next()
                try tx.set(
                    .tag, target, zone: zone,
                    [(TagField.uuid, .text(tag.uuid)), (TagField.name, .text(tag.name))])
            } else {
                try restamp(.tag, tag.id, into: zone, in: tx)
            }
            tx.touchTagName(tag.name, zone: source)
            tx.touchTagName(tag.name, zone: zone)
            try tx.setLink(photo: photo, tag: target, zone: zone, linked: true)
        }
    }

    /// Moves every live object of `zone` back into the default zone (stop sharing without
    /// purge); the share record stays behind as the zone's tombstone.
    func moveZoneToDefault(_ zone: String, in tx: Transaction) throws {
        let target = Self.defaultZone
        let db = tx.db
        for entity in [Entity.photo, .tag, .rating] {
            let ids = try db.query("SELECT id FROM \(entity.table) WHERE zone = ? AND deleted = 0", zone) {
                $0.string(0)
            }
            for id in ids { try restamp(entity, id, into: target, in: tx) }
        }
        let names = try db.query("SELECT DISTINCT name FROM tags WHERE zone = ?", target) { $0.string(0) }
        for name in names { tx.touchTagName(name, zone: target) }
        let links = try db.query(
            "SELECT DISTINCT photo_id, winner FROM live_links WHERE zone = ?", zone
        ) {
            ($0.string(0), $0.string(1))
        }
        try hardDelete(zone: zone, entities: [.photo, .tag, .rating, .link], in: tx, record: false)
        for (photo, tag) in links { try tx.setLink(photo: photo, tag: tag, zone: target, linked: true) }
    }

    /// Rewrites every field of an object with the transaction's stamp in `zone`, so the
    /// object enters that zone as new for the zone's replicas.
    func restamp(_ entity: Entity, _ id: String, into zone: String, in tx: Transaction) throws {
        let columns = entity.fields.map(\.column).joined(separator: ", ")
        guard
            let values = try tx.db.first(
                "SELECT \(columns) FROM \(entity.table) WHERE id = ?", id,
                map: { row in
                    entity.fields.enumerated().map { ($0.element, row.value($0.offset)) }
                })
        else { throw StoreError.notFound(kind: entity.name, reference: id) }
        try Self.forgetStamps(entity, id, tx.db)
        try tx.set(entity, id, zone: zone, values.filter { $0.1 != .null })
    }

    /// Takes a photo's links out of the default zone, which replicates only to the person's
    /// other devices: a link in `moving` (to a tag that moves along, keeping the link's ID)
    /// is removed here and written anew in the share, where every replica takes it as moved;
    /// any other link is unlinked where it is, so that the other devices drop it too.
    private func dropLinks(
        ofPhoto photo: String, zone: String, except moving: Set<String>, in tx: Transaction
    )
        throws
    {
        let links = try tx.db.query(
            "SELECT id, tag_id, linked FROM photo_tags pt WHERE \(Self.linksOf(photo: "?1", link: "pt")) AND zone = ?2",
            photo, zone
        ) { ($0.string(0), $0.optionalString(1), $0.int64(2)) }
        for (id, tag, linked) in links {
            if moving.contains(id) || tag == nil {
                try Self.forgetStamps(.link, id, tx.db)
                try tx.db.run("DELETE FROM photo_tags WHERE id = ?", id)
                tx.record(.link, id, zone: zone, .delete)
            } else if linked != 0, let tag {
                try tx.setLink(photo: photo, tag: tag, zone: zone, linked: false)
            }
        }
    }

    /// Deletes rows of `zone` outright, with their stamps (a purge: no tombstones).
    func hardDelete(zone: String, entities: [Entity], in tx: Transaction, record: Bool = true) throws {
        let db = tx.db
        for entity in entities {
            if record {
                let ids = try db.query("SELECT id, deleted FROM \(entity.table) WHERE zone = ?", zone) {
                    ($0.string(0), $0.int64(1))
                }
                for (id, deleted) in ids where deleted == 0 { tx.record(entity, id, zone: zone, .delete) }
            }
            try db.run("DELETE FROM \(entity.table) WHERE zone = ?", zone)
            try db.run("DELETE FROM stamp_order WHERE zone = ? AND entity = ?", zone, Int(entity.rawValue))
            try db.run("DELETE FROM unknown_fields WHERE zone = ? AND entity = ?", zone, Int(entity.rawValue))
        }
    }

    /// Removes this store's whole copy of a zone (participant leaving, removed, or share
    /// stopped): rows, stamps, clock, membership operations and the zone itself. Unused photo data goes too.
    public func purge(zone: String) throws {
        try purge(zone: zone) { _ in }
    }

    /// `purge(zone:)`, with `also` run in the same transaction: what must be recorded if, and
    /// only if, the copy is gone (a departure, which a kill between two transactions would
    /// otherwise lose, the owner never told).
    func purge(zone: String, also: (Database) throws -> Void) throws {
        let hashes = try read { db in
            try db.query("SELECT DISTINCT data_hash FROM photos WHERE zone = ?", zone) {
                $0.optionalString(0)
            }
        }
        try write(author: .purge) { tx in
            let db = tx.db
            try hardDelete(zone: zone, entities: Entity.allCases, in: tx)
            try db.run("DELETE FROM stamp_order WHERE zone = ?", zone)
            try db.run("DELETE FROM unknown_fields WHERE zone = ?", zone)
            try db.run("DELETE FROM zones WHERE id = ?", zone)
            try db.run("DELETE FROM membership_operations WHERE zone = ?", zone)
            try db.run("DELETE FROM signed_sets WHERE zone = ?", zone)
            try db.run("DELETE FROM signed_set_tops WHERE zone = ?", zone)
            try db.run("DELETE FROM log_members WHERE zone = ?", zone)
            try db.run("DELETE FROM join_accepts WHERE zone = ?", zone)
            try also(db)
        }
        for hash in hashes.compactMap({ $0 }) { try collectBlob(hash) }
    }

    /// Empties the default zone (this device was removed from its person's devices): its
    /// photos, tags, ratings, stamps, clock and sets go, and unused photo data; the zone stays,
    /// empty, for the library this device starts again.
    public func purgeDefaultZone() throws {
        let zone = Self.defaultZone
        try purge(zone: zone)
        try writeLocal { db in try createZone(zone, owner: localPeer, db) }
    }
}

extension LibraryStore {
    /// Live photos and visible tags per zone, counted in SQL.
    public func counts() throws -> [String: (photos: Int, tags: Int)] {
        try read { db in
            var result: [String: (photos: Int, tags: Int)] = [:]
            try db.forEach("SELECT zone, count(*) FROM photos WHERE deleted = 0 GROUP BY zone") {
                result[$0.string(0), default: (0, 0)].photos = $0.int(1)
            }
            try db.forEach("SELECT zone, count(*) FROM tags WHERE deleted = 0 AND winner = id GROUP BY zone")
            {
                result[$0.string(0), default: (0, 0)].tags = $0.int(1)
            }
            return result
        }
    }
}
