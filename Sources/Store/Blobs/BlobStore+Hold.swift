/// Which blob removals wait for a backup: while one copies the data its snapshot of the
/// store refers to, a photo deleted meanwhile must not take that data away.
struct BlobHolds: Sendable {
    /// Holds in force (backups running).
    var count = 0
    /// Hashes whose removal was asked for during a hold.
    var deferred: Set<String> = []
}

extension LibraryStore {
    /// Runs `body` with every removal of this store's photo data put off; when the last hold
    /// ends, the data put off is collected again (removed only if still unused: a photo may
    /// have been added with it meanwhile).
    ///
    /// A removal and the start of a hold exclude each other (both take the holds' lock), so
    /// data removed before a hold starts was unreferenced by a commit made before it, and a
    /// snapshot taken inside the hold never refers to it.
    public func holdingBlobs<T>(_ body: () throws -> T) throws -> T {
        blobs.holds.withLock { $0.count += 1 }
        defer {
            let released = blobs.holds.withLock { holds -> Set<String> in
                holds.count -= 1
                guard holds.count == 0 else { return [] }
                defer { holds.deferred = [] }
                return holds.deferred
            }
            for hash in released { try? collectBlob(hash) }
        }
        return try body()
    }
}
