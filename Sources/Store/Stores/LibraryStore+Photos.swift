import FoundationEssentials
import Support

/// Photos: add, rename, delete (with the sample's cascades) and read.
extension LibraryStore {
    /// Adds a photo whose data is already in the blob store. Without a `thumbnail`, the same
    /// transaction queues a thumbnail job for it, and the job observers hear of it once the
    /// photo is committed.
    public func addPhoto(
        zone: String = LibraryStore.defaultZone, name: String, data: (hash: String, size: Int64),
        thumbnail: [UInt8]? = nil, tags: [String] = [], id: String? = nil
    ) throws -> String {
        let id = id ?? ids.next()
        try validateName(name, what: "photo name")
        for tag in tags { try validateName(tag, what: "tag name") }
        if let thumbnail, thumbnail.count > limits.maxThumbnailBytes {
            throw StoreError.invalid(
                "the thumbnail is \(thumbnail.count) bytes, over the limit of \(limits.maxThumbnailBytes)")
        }
        try requireZone(zone)
        try requireWriteUnlessDefault(zone, action: "add a photo")
        try write(author: .local) { tx in
            var values: [(EntityField, SQLValue)] = [
                (PhotoField.name, .text(name)), (PhotoField.uniqueName, .text(ids.next())),
                (PhotoField.createdAt, .integer(Int64(HybridLogicalClock.physical(of: tx.stamp.hlc)))),
                (PhotoField.dataHash, .text(data.hash)), (PhotoField.dataSize, .integer(data.size)),
            ]
            if let thumbnail {
                values.append((PhotoField.thumbnail, .blob(thumbnail)))
            } else {
                try queueThumbnailJob(id, tx.db)
            }
            try tx.set(.photo, id, zone: zone, values)
            for tag in Set(tags) { _ = try tagPhoto(id, name: tag, zone: zone, in: tx) }
        }
        if thumbnail == nil { notifyThumbnailJobQueued() }
        return id
    }

    public func renamePhoto(_ id: String, to name: String) throws {
        try validateName(name, what: "photo name")
        let zone = try livePhotoZone(id)
        try requireWriteUnlessDefault(zone, action: "rename this photo")
        try write(author: .local) { tx in try tx.set(.photo, id, zone: zone, [(PhotoField.name, .text(name))])
        }
    }

    /// Deletes a photo, its ratings and its tag links (tags stay), then its data when no other
    /// photo of this store uses the data any more.
    public func deletePhoto(_ id: String) throws {
        let zone = try livePhotoZone(id)
        try requireWriteUnlessDefault(zone, action: "delete this photo")
        let hash = try read { db in
            try db.first("SELECT data_hash FROM photos WHERE id = ?", id) { $0.optionalString(0) }
        }
        try write(author: .local) { tx in
            let db = tx.db
            let ratings = try db.query("SELECT id FROM ratings WHERE photo_id = ? AND deleted = 0", id) {
                $0.string(0)
            }
            for rating in ratings { try tx.delete(.rating, rating, zone: zone) }
            let links = try db.query(
                "SELECT tag_id FROM photo_tags pt WHERE \(Self.linksOf(photo: "?1", link: "pt")) AND linked = 1",
                id
            ) {
                $0.string(0)
            }
            for tag in links { try tx.setLink(photo: id, tag: tag, zone: zone, linked: false) }
            try tx.delete(.photo, id, zone: zone)
        }
        if let unused = hash ?? nil { try collectBlob(unused) }
    }

    /// Removes a blob (and any partial transfer of it) when no live photo of this store
    /// refers to it.
    public func collectBlob(_ hash: String) throws {
        let used = try read { db in
            try db.first("SELECT 1 FROM photos WHERE data_hash = ? AND deleted = 0 LIMIT 1", hash) { _ in true
            }
        }
        if used == nil { blobs.removeWithPartial(hash) }
    }

    /// The live photo with exactly this ID.
    public func photo(_ id: String) throws -> Photo? {
        try read { db in
            try db.first(Self.photoSelect + " WHERE id = ? AND deleted = 0", id) { try makePhoto($0, db) }
        }
    }

    /// Live photos, optionally of one zone, carrying one tag name, added by one device, and
    /// one page of them: at most `limit`, after `after` in the order of `PhotoPosition`.
    public func photos(
        zone: String? = nil, tagName: String? = nil, addedBy device: PeerID? = nil,
        after: PhotoPosition? = nil,
        limit: Int? = nil
    ) throws -> [Photo] {
        try read { db in
            var sql = Self.photoSelect + " WHERE deleted = 0"
            var values: [any SQLBindable] = []
            if let after {
                sql += " AND (created_at, id) > (?, ?)"
                values += [after.createdAt, after.id] as [any SQLBindable]
            }
            if let device {
                // The device that added a photo is the one that stamped its data hash, which
                // never changes after.
                sql += """
                     AND stamp_peer(stamps, ?) = (SELECT idx FROM peers WHERE peer_id = ?)
                    """
                values += [Int(PhotoField.dataHash.code), device.bytes] as [any SQLBindable]
            }
            if let zone {
                sql += " AND zone = ?"
                values.append(zone)
            }
            if let tagName {
                sql += """
                     AND id IN (SELECT l.photo_id FROM live_links l
                    JOIN tags w ON w.id = l.winner WHERE w.name = ?)
                    """
                values.append(tagName)
            }
            sql += " ORDER BY created_at, id"
            if let limit {
                sql += " LIMIT ?"
                values.append(limit)
            }
            var result: [Photo] = []
            try db.forEach(sql, values: values) { result.append(try makePhoto($0, db)) }
            return result
        }
    }

    /// `id, zone`, then every photo field as `Photo.values` holds it (a blob as its length).
    static let photoSelect =
        "SELECT id, zone, " + PhotoField.all.map(\.readExpression).joined(separator: ", ") + " FROM photos"

    /// A row of `photoSelect` as a photo, with its tags and ratings.
    private func makePhoto(_ row: Row, _ db: Database) throws -> Photo {
        let id = row.string(0)
        let values = PhotoField.all.enumerated().map { index, field in
            let column = index + 2
            guard !row.isNull(column) else {
                return field.kind.storage == .text ? SQLValue.text("") : .integer(0)
            }
            return row.value(column)
        }
        var hash = ""
        if let index = Entity.photo.position(of: PhotoField.dataHash.code),
            case .text(let text) = values[index]
        {
            hash = text
        }
        return Photo(
            id: id, zone: row.string(1), store: kind, values: values,
            pending: hash.isEmpty || !blobs.contains(hash),
            tags: try effectiveTags(ofPhoto: id, db), ratings: try liveRatings(ofPhoto: id, db))
    }

    /// The photo's tags as people see them: each live link (`live_links`: no later removal in
    /// its name's group) counted for the winner of its tag.
    func effectiveTags(ofPhoto id: String, _ db: Database) throws -> [TagRef] {
        try db.query(
            """
            SELECT DISTINCT w.id, w.uuid, w.name FROM live_links l JOIN tags w ON w.id = l.winner
            WHERE \(Self.linksOf(photo: "?1", link: "l")) ORDER BY w.name, w.uuid
            """, id
        ) { TagRef(id: $0.string(0), uuid: $0.string(1), name: $0.string(2)) }
    }

    /// Whether one of the photo's tags as people see them (`effectiveTags`) is `tag`: its
    /// live links whose tag counts for that winner, found by their IDs (`photo/tag`) rather
    /// than by reading all of the photo's tags.
    func carries(photo: String, tag winner: String, _ db: Database) throws -> Bool {
        try db.first(
            "SELECT 1 FROM live_links WHERE id IN (SELECT ?1 || '/' || t.id FROM tags t WHERE t.winner = ?2) LIMIT 1",
            photo, winner, map: { _ in true }) ?? false
    }

    func liveRatings(ofPhoto id: String, _ db: Database) throws -> [RatingRef] {
        try db.query("SELECT id, value FROM ratings WHERE photo_id = ? AND deleted = 0 ORDER BY id", id) {
            RatingRef(id: $0.string(0), value: $0.int(1))
        }
    }

    /// Where a live photo stands in the order photos are listed in, or nil.
    public func position(ofPhoto id: String) throws -> PhotoPosition? {
        try read { db in
            try db.first("SELECT created_at, id FROM photos WHERE id = ? AND deleted = 0", id) {
                PhotoPosition(createdAt: $0.int64(0), id: $0.string(1))
            }
        }
    }

    /// The thumbnail bytes of a live photo.
    public func thumbnail(ofPhoto id: String) throws -> [UInt8]? {
        try read { db in
            try db.first("SELECT thumbnail FROM photos WHERE id = ? AND deleted = 0", id) {
                $0.optionalBytes(0)
            }
        }
            ?? nil
    }

    /// The zone of a live photo, or `notFound`.
    func livePhotoZone(_ id: String) throws -> String {
        guard
            let zone = try read({ db in
                try db.first("SELECT zone FROM photos WHERE id = ? AND deleted = 0", id) { $0.string(0) }
            })
        else { throw StoreError.notFound(kind: "photo", reference: id) }
        return zone
    }

    func requireWriteUnlessDefault(_ zone: String, action: String) throws {
        if zone != Self.defaultZone { try read { db in try requireWrite(zone, action: action, db) } }
    }

    func requireZone(_ zone: String) throws {
        let known = try read { db in try db.first("SELECT 1 FROM zones WHERE id = ?", zone) { _ in true } }
        guard known != nil else { throw StoreError.unknownZone(zone) }
    }

    /// False for text with control characters (C0, DEL, C1) or line and paragraph
    /// separators, which would break one-line output and logs.
    static func hasNoControlCharacters(_ text: String) -> Bool {
        !text.unicodeScalars.contains { s in
            s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
    }

    func validateName(_ name: String, what: String) throws {
        if name.trimmingWhitespace().isEmpty {
            throw StoreError.invalid("a \(what) cannot be empty")
        }
        if name.utf8.count > limits.maxNameBytes {
            throw StoreError.invalid(
                "a \(what) is at most \(limits.maxNameBytes) bytes, this one has \(name.utf8.count) (max_name_bytes)"
            )
        }
        if !Self.hasNoControlCharacters(name) {
            throw StoreError.invalid("a \(what) cannot contain control characters or line breaks")
        }
    }

}
