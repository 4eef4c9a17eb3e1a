/// Thumbnails this device makes: the jobs of photos it added without one (`thumbnail_jobs`,
/// local, never replicated) and the write that stores a thumbnail and ends its job.
///
/// A job is queued in the transaction that adds its photo and removed in the one that stores
/// the thumbnail, so a kill -9 anywhere in between leaves the job for the next start. Photos
/// that arrive from peers never get one: their thumbnail replicates with them.
extension LibraryStore {
    /// What `setThumbnail(ofPhoto:_:)` did.
    public enum ThumbnailWrite: Equatable, Sendable {
        case stored
        /// The photo was deleted (or never was): only its job, if any, was removed.
        case photoGone
    }

    func queueThumbnailJob(_ photo: String, _ db: Database) throws {
        try db.run("INSERT OR IGNORE INTO thumbnail_jobs (photo_id) VALUES (?)", photo)
    }

    /// Photos waiting for their thumbnail, oldest ID first: at most `limit`, skipping `skip`.
    public func thumbnailJobs(limit: Int, skipping skip: Set<String> = []) throws -> [String] {
        try read { db in
            try db.query("SELECT photo_id FROM thumbnail_jobs ORDER BY photo_id LIMIT ?", limit + skip.count)
            {
                $0.string(0)
            }
        }.filter { !skip.contains($0) }.prefix(limit).map { $0 }
    }

    /// The data file a thumbnail is made of: where the blob store keeps the live photo's
    /// data, or nil when the photo is gone or its data is not here.
    public func dataFile(ofPhoto id: String) throws -> String? {
        let hash = try read { db in
            try db.first("SELECT data_hash FROM photos WHERE id = ? AND deleted = 0", id) {
                $0.optionalString(0)
            }
        }
        guard let hash = hash ?? nil, blobs.contains(hash) else { return nil }
        return blobs.path(for: hash)
    }

    /// Stores a photo's thumbnail as a local change, stamped and replicated like a rename, and
    /// removes the photo's thumbnail job in the same transaction.
    @discardableResult
    public func setThumbnail(ofPhoto id: String, _ thumbnail: [UInt8]) throws -> ThumbnailWrite {
        if thumbnail.count > limits.maxThumbnailBytes {
            throw StoreError.invalid(
                "the thumbnail is \(thumbnail.count) bytes, over the limit of \(limits.maxThumbnailBytes) "
                    + "(max_thumbnail_bytes)")
        }
        return try write(author: .local) { tx in
            try tx.db.run("DELETE FROM thumbnail_jobs WHERE photo_id = ?", id)
            guard
                let zone = try tx.db.first(
                    "SELECT zone FROM photos WHERE id = ? AND deleted = 0", id,
                    map: {
                        $0.string(0)
                    })
            else { return .photoGone }
            if zone != Self.defaultZone {
                try requireWrite(zone, action: "set this photo's thumbnail", tx.db)
            }
            try tx.set(.photo, id, zone: zone, [(PhotoField.thumbnail, .blob(thumbnail))])
            return .stored
        }
    }

    /// Removes a photo's thumbnail job without a thumbnail (its data is not an image).
    public func dropThumbnailJob(_ photo: String) throws {
        try writeLocal { db in try db.run("DELETE FROM thumbnail_jobs WHERE photo_id = ?", photo) }
    }
}
