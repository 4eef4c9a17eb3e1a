import Glibc
import Support

extension BlobStore {
    /// What a sweep removed.
    public struct SweepResult: Equatable, Sendable {
        /// Photo data no live photo refers to.
        public var blobs = 0
        /// Partial transfers of data no live photo refers to, and temp files of imports that
        /// never finished.
        public var temporaries = 0

        public init(blobs: Int = 0, temporaries: Int = 0) {
            self.blobs = blobs
            self.temporaries = temporaries
        }
    }

    /// Removes every file that `referenced` does not keep: blobs of other hashes, partial
    /// transfers of other hashes, and import temp files (an import in flight would lose its
    /// file: call it only while nothing writes, at start-up).
    func sweep(keeping referenced: Set<String>) -> SweepResult {
        var result = SweepResult()
        for directory in Self.entries(of: root) where directory.utf8.count == 2 {
            for name in Self.entries(of: "\(root)/\(directory)") where !referenced.contains(name) {
                if unlink("\(root)/\(directory)/\(name)") == 0 { result.blobs += 1 }
            }
        }
        for name in Self.entries(of: "\(root)/tmp") {
            let partialOf = name.hasSuffix(".partial") ? String(name.dropLast(".partial".count)) : nil
            if let hash = partialOf, referenced.contains(hash) { continue }
            if unlink("\(root)/tmp/\(name)") == 0 { result.temporaries += 1 }
        }
        return result
    }

    /// Removes the data of `hash` and any partial transfer of it.
    /// While a hold is on (a backup copies the data its snapshot refers to), the removal
    /// is put off until the hold ends.
    func removeWithPartial(_ hash: String) {
        holds.withLock { holds in
            guard holds.count == 0 else {
                holds.deferred.insert(hash)
                return
            }
            remove(hash)
            unlink("\(root)/tmp/\(hash).partial")
        }
    }

    /// The names in a directory, without `.` and `..` (none when it cannot be read).
    static func entries(of path: String) -> [String] { DirectoryEntries.names(of: path) }
}

extension LibraryStore {
    /// Removes photo data and partial transfers no live photo of this store refers to, and
    /// temp files of imports that never finished: what a delete interrupted by a crash, or a
    /// delete that arrived while the data was in transfer, left behind. Run at start-up,
    /// before anything writes.
    public func sweepBlobs() throws -> BlobStore.SweepResult {
        let referenced = try read { db in
            Set(
                try db.query(
                    "SELECT DISTINCT data_hash FROM photos WHERE deleted = 0 AND data_hash IS NOT NULL"
                ) {
                    $0.string(0)
                })
        }
        return blobs.sweep(keeping: referenced)
    }
}
