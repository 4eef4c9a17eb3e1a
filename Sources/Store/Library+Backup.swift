import Glibc

/// A backup of the library while it stays in use: both stores as of one moment each, the
/// photo data they refer to, and the key share URLs are derived from.
extension Library {
    /// What a backup of the library holds.
    public struct BackupContents: Sendable {
        /// Per store: its file name in the backup, SHA-256, size, and live photos.
        public var stores: [StoreCopy] = []
        /// Photo data files copied, and their bytes.
        public var dataFiles = 0
        public var dataBytes: Int64 = 0
        /// Data the snapshot refers to that had not arrived from peers (fetched again after
        /// a restore).
        public var pendingData = 0
    }

    /// One store file of a backup.
    public struct StoreCopy: Sendable {
        public let file: String
        public let sha256: String
        public let size: Int64
        public let photos: Int
    }

    /// The files of a library, relative to its directory, as a backup lays them out too.
    public static func storeFile(_ kind: StoreKind) -> String { "\(kind.rawValue).sqlite" }
    public static let inviteKeyFile = "invite.key"
    public static func dataDirectory(_ kind: StoreKind) -> String { "blobs/\(kind.rawValue)" }

    /// Bytes of photo data a backup would copy now, for progress.
    public func backupDataBytes() throws -> Int64 {
        try stores.reduce(0) { $0 + (try $1.liveDataBytes()) }
    }

    /// Writes the library into `directory` (new, made 0700): each store's snapshot, then the
    /// data that snapshot refers to, with removals of data held off meanwhile so a photo
    /// deleted after the snapshot keeps its data until it is copied; every copy is checked
    /// against its hash. `copied` is told each chunk of data copied.
    public func backup(into directory: String, copied: (Int) -> Void) throws -> BackupContents {
        try VerifiedCopy.makeDirectory(directory)
        try VerifiedCopy.makeDirectory(directory + "/blobs")
        var contents = BackupContents()
        try privateStore.holdingBlobs {
            try sharedStore.holdingBlobs {
                for store in stores {
                    try backUp(store, into: directory, contents: &contents, copied: copied)
                }
            }
        }
        try writeSecret(inviteSecret, to: directory + "/" + Self.inviteKeyFile)
        return contents
    }

    private func backUp(
        _ store: LibraryStore, into directory: String, contents: inout BackupContents, copied: (Int) -> Void
    ) throws {
        let file = Self.storeFile(store.kind)
        let snapshot = try store.snapshot(into: directory + "/" + file)
        let digest = try BlobStore.digest(ofFile: directory + "/" + file, limit: .max)
        var info = stat()
        stat(directory + "/" + file, &info)
        contents.stores.append(
            StoreCopy(file: file, sha256: digest, size: Int64(info.st_size), photos: snapshot.photos))
        let data = directory + "/" + Self.dataDirectory(store.kind)
        try VerifiedCopy.makeDirectory(data)
        for reference in snapshot.data {
            guard store.blobs.contains(reference.hash) else {
                contents.pendingData += 1
                continue
            }
            let bucket = data + "/" + reference.hash.prefix(2)
            try VerifiedCopy.makeDirectory(bucket)
            let copy = try VerifiedCopy.copy(
                store.blobs.path(for: reference.hash), to: bucket + "/" + reference.hash,
                expected: reference.hash,
                copied: copied)
            contents.dataFiles += 1
            contents.dataBytes += copy.size
        }
    }

    private func writeSecret(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.io(operation: "creating", path: path, reason: BlobStore.errorText())
        }
        defer { Glibc.close(fd) }
        try bytes.withUnsafeBytes { try BlobStore.writeAll(fd, $0, path) }
    }
}
