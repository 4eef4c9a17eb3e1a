/// Ratings: 1…5, many per photo.
extension LibraryStore {
    /// Rates a photo; returns the new rating's ID.
    public func rate(photo: String, value: Int) throws -> String {
        guard (1...5).contains(value) else { throw StoreError.invalid("a rating is 1 to 5, not \(value)") }
        let zone = try livePhotoZone(photo)
        try requireWriteUnlessDefault(zone, action: "rate this photo")
        let id = ids.next()
        try write(author: .local) { tx in
            try tx.set(
                .rating, id, zone: zone,
                [(RatingField.photo, .text(photo)), (RatingField.value, .integer(Int64(value)))])
        }
        return id
    }

    public func ratings(ofPhoto photo: String) throws -> [RatingRef] {
        _ = try livePhotoZone(photo)
        return try read { db in try liveRatings(ofPhoto: photo, db) }
    }

    /// The device that wrote each live rating of `photo`, by rating ID: the writer of the
    /// rating's photo field, which is set once, when the rating is made (SPEC §15, who rated).
    public func raters(ofPhoto photo: String) throws -> [String: PeerID] {
        try read { db in
            var raters: [String: PeerID] = [:]
            try db.forEach(
                """
                SELECT r.id, stamp_peer(r.stamps, ?) FROM ratings r
                WHERE r.photo_id = ? AND r.deleted = 0 AND r.stamps IS NOT NULL
                """, Int(RatingField.photo.code), photo
            ) { row in
                if let peer = peer(numbered: row.int64(1), db) { raters[row.string(0)] = peer }
            }
            return raters
        }
    }

    public func deleteRating(_ id: String) throws {
        let zone = try read { db in
            try db.first(
                """
                SELECT r.zone FROM ratings r JOIN photos p ON p.id = r.photo_id
                WHERE r.id = ? AND r.deleted = 0 AND p.deleted = 0
                """, id
            ) { $0.string(0) }
        }
        guard let zone else { throw StoreError.notFound(kind: "rating", reference: id) }
        try requireWriteUnlessDefault(zone, action: "delete this rating")
        try write(author: .local) { tx in try tx.delete(.rating, id, zone: zone) }
    }
}
