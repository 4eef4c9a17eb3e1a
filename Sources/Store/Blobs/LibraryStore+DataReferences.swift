/// Which photo data a zone refers to, and which zones refer to given data: what replication
/// needs to fetch missing data and to decide whom it may serve data to.
extension LibraryStore {
    /// Photo data a photo refers to: a live photo of a zone, or one an applied change set
    /// names (`ApplyReport.namedData`).
    public struct DataReference: Hashable, Sendable {
        public let hash: String
        public let size: Int64
    }

    /// Data referred to by live photos of `zone` that is not in this store's blob directory.
    public func missingData(zone: String) throws -> [DataReference] {
        let references = try read { db in
            try db.query(
                """
                SELECT DISTINCT data_hash, data_size FROM photos
                WHERE zone = ? AND deleted = 0 AND data_hash IS NOT NULL ORDER BY data_hash
                """, zone
            ) { DataReference(hash: $0.string(0), size: $0.int64(1)) }
        }
        return references.filter { !blobs.contains($0.hash) }
    }

    /// Zones with a live photo whose data has this hash.
    public func zones(referencingData hash: String) throws -> [String] {
        try read { db in
            try db.query(
                "SELECT DISTINCT zone FROM photos WHERE data_hash = ? AND deleted = 0 ORDER BY zone", hash
            ) { $0.string(0) }
        }
    }
}
