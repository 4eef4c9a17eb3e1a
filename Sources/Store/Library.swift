import Glibc

/// A person's whole library: the private store (what they own) and the shared store (what
/// others share with them), each with its own photo data directory.
///
/// It resolves the IDs people type (unique prefixes) to the store that holds the object,
/// so callers — the daemon's commands — never have to know which store that is.
public final class Library: @unchecked Sendable {
    public let privateStore: LibraryStore
    public let sharedStore: LibraryStore
    public let localPeer: PeerID
    public let limits: StoreLimits
    /// The key share-URL tokens are derived from (`invite.key`, mode 0600).
    let inviteSecret: [UInt8]
    /// What the start-up sweep removed: data, partial transfers and temp files no live photo
    /// refers to (left by a crash between a delete and its clean-up, or by a delete that came
    /// during a transfer).
    public let sweptAtStart: BlobStore.SweepResult

    /// Opens (creating if needed) `private.sqlite`, `shared.sqlite` and the blob directories
    /// in `directory`.
    public init(
        directory: String, localPeer: PeerID, limits: StoreLimits = StoreLimits(),
        clock: HybridLogicalClock = HybridLogicalClock(), ids: IDSource = IDSource()
    ) throws {
        try BlobStore.makeDirectory(directory)
        try BlobStore.makeDirectory(directory + "/blobs")
        self.localPeer = localPeer
        self.limits = limits
        inviteSecret = try SecretFile.loadOrCreate(path: directory + "/invite.key")
        privateStore = try LibraryStore(
            path: directory + "/private.sqlite", kind: .private, localPeer: localPeer,
            blobs: try BlobStore(root: directory + "/blobs/private"), clock: clock, limits: limits, ids: ids)
        sharedStore = try LibraryStore(
            path: directory + "/shared.sqlite", kind: .shared, localPeer: localPeer,
            blobs: try BlobStore(root: directory + "/blobs/shared"), clock: clock, limits: limits, ids: ids)
        // After a restart (or a clock set back) the clock resumes above every stamp held, so a
        // local write is stamped above what it overwrites; a stamp further ahead than the
        // limit is not followed.
        let limit = limits.aheadLimit(wall: clock.wall())
        for store in [privateStore, sharedStore] {
            if let highest = try store.highestClockEntry(upTo: limit) { clock.observe(highest) }
        }
        let swept = try privateStore.sweepBlobs()
        let sweptShared = try sharedStore.sweepBlobs()
        sweptAtStart = BlobStore.SweepResult(
            blobs: swept.blobs + sweptShared.blobs, temporaries: swept.temporaries + sweptShared.temporaries)
    }

    public var stores: [LibraryStore] { [privateStore, sharedStore] }

    /// Closes both databases (checkpointing their write-ahead logs); later operations fail.
    public func close() {
        for store in stores { store.close() }
    }

    public func store(_ kind: StoreKind) -> LibraryStore { kind == .private ? privateStore : sharedStore }

    /// The store holding `zone`.
    public func store(holdingZone zone: String) throws -> LibraryStore {
        for store in stores where try store.requireZoneExists(zone) { return store }
        throw StoreError.unknownZone(zone)
    }

    /// Adds a photo from a file into the default zone, or into a share zone given by prefix.
    public func addPhoto(
        file: String, name: String? = nil, thumbnail: [UInt8]? = nil, tags: [String] = [],
        share: String? = nil
    ) throws -> String {
        let outcome = try importPhoto(
            file: file, name: name, thumbnail: thumbnail, tags: tags, share: share, allowDuplicates: true)
        guard case .added(let id) = outcome else { preconditionFailure("a duplicate was allowed") }
        return id
    }

    /// What `importPhoto` did with a file.
    public enum PhotoImport: Equatable, Sendable {
        case added(id: String)
        /// Nothing was added: a live photo of the library (`photo`) already has this data.
        case duplicate(of: String)
    }

    /// Adds a photo from a file as `addPhoto` does; unless `allowDuplicates`, a file whose data
    /// a live photo of either store already has adds nothing. The file is read once, hashed as
    /// it is copied (the copy of a duplicate lands on the blob that holds it already, or is
    /// collected again), so a duplicate costs no more than a photo, and a file that changes
    /// while it is read is refused as in `addPhoto`.
    public func importPhoto(
        file: String, name: String?, thumbnail: [UInt8]?, tags: [String], share: String?,
        allowDuplicates: Bool
    ) throws -> PhotoImport {
        let zone = try share.map { try resolve(.share, $0) }
        let store = zone.map { $0.store } ?? privateStore
        let displayName = name ?? String(file.split(separator: "/").last ?? "photo")
        try store.validateName(displayName, what: "photo name")
        for tag in tags { try store.validateName(tag, what: "tag name") }
        let data = try store.blobs.importFile(at: file, limit: limits.maxPhotoBytes)
        if !allowDuplicates, let existing = try photo(withData: data.hash) {
            try store.collectBlob(data.hash)
            return .duplicate(of: existing)
        }
        do {
            return .added(
                id: try store.addPhoto(
                    zone: zone?.id ?? LibraryStore.defaultZone, name: displayName, data: data,
                    thumbnail: thumbnail, tags: tags))
        } catch {
            try? store.collectBlob(data.hash)
            throw error
        }
    }

    /// The oldest live photo of either store whose data has this SHA-256 (hex), if any.
    public func photo(withData hash: String) throws -> String? {
        for store in stores {
            let found = try store.read { db in
                try db.first(
                    // The few photos with this data, by the hash index (in time order, the
                    // planner would walk every live photo to find them).
                    """
                    SELECT id FROM photos INDEXED BY photos_by_live_hash
                    WHERE data_hash = ? AND deleted = 0 ORDER BY created_at, id LIMIT 1
                    """,
                    hash
                ) { $0.string(0) }
            }
            if let found { return found }
        }
        return nil
    }

    /// The current invitation token of a share this peer owns (the secret of its URL), and
    /// whether this call made it (`LibraryStore.currentInvitation`).
    public func currentInvitation(zone: String) throws -> (token: String, made: Bool) {
        try privateStore.currentInvitation(zone: zone, secret: inviteSecret)
    }

    /// Revokes every URL of the share handed out so far; returns the new token.
    public func revokeInvitations(zone: String) throws -> String {
        try privateStore.revokeInvitations(zone: zone, secret: inviteSecret)
    }

    /// What a typed reference resolved to.
    public struct Resolved: Sendable {
        public let store: LibraryStore
        public let id: String
    }

    /// Resolves a unique ID prefix of a live object in either store.
    public func resolve(_ entity: ResolvableEntity, _ reference: String) throws -> Resolved {
        let prefix = reference.lowercased()
        var matches: [Resolved] = []
        for store in stores {
            for id in try store.matchingIDs(entity, prefix: prefix) {
                if id == prefix { return Resolved(store: store, id: id) }
                matches.append(Resolved(store: store, id: id))
            }
        }
        guard !prefix.isEmpty, let first = matches.first else {
            throw StoreError.notFound(kind: entity.rawValue, reference: reference)
        }
        guard matches.count == 1 else {
            let total = try stores.reduce(0) { $0 + (try $1.countMatching(entity, prefix: prefix)) }
            throw StoreError.ambiguous(kind: entity.rawValue, reference: reference, matches: total)
        }
        return first
    }

    /// Resolves a tag given by ID prefix, or by exact name among the photo's zone's tags.
    public func resolveTag(_ reference: String, forPhoto photo: Resolved? = nil) throws -> Resolved {
        do {
            return try resolve(.tag, reference)
        } catch let error as StoreError {
            guard case .notFound = error, let photo else { throw error }
            let zone = try photo.store.livePhotoZone(photo.id)
            guard let tag = try photo.store.tags(zone: zone).first(where: { $0.name == reference }) else {
                throw error
            }
            return Resolved(store: photo.store, id: tag.id)
        }
    }
}

/// The kinds of object people refer to by ID prefix.
public enum ResolvableEntity: String, Sendable {
    case photo, tag, rating, share
}

extension LibraryStore {
    /// IDs of live objects starting with `prefix` (at most a few: enough to tell unique from
    /// ambiguous).
    func matchingIDs(_ entity: ResolvableEntity, prefix: String) throws -> [String] {
        let upper = prefix + "~"
        let sql: String
        switch entity {
        case .photo: sql = "SELECT id FROM photos WHERE id >= ? AND id < ? AND deleted = 0 LIMIT 5"
        case .tag:
            sql = "SELECT id FROM tags WHERE id >= ? AND id < ? AND deleted = 0 AND winner = id LIMIT 5"
        case .rating: sql = "SELECT id FROM ratings WHERE id >= ? AND id < ? AND deleted = 0 LIMIT 5"
        case .share: sql = "SELECT id FROM zones WHERE id >= ? AND id < ? AND id != 'default' LIMIT 5"
        }
        return try read { db in try db.query(sql, prefix, upper) { $0.string(0) } }
    }

    /// How many live objects' IDs start with `prefix`.
    func countMatching(_ entity: ResolvableEntity, prefix: String) throws -> Int {
        let upper = prefix + "~"
        let sql: String
        switch entity {
        case .photo: sql = "SELECT count(*) FROM photos WHERE id >= ? AND id < ? AND deleted = 0"
        case .tag: sql = "SELECT count(*) FROM tags WHERE id >= ? AND id < ? AND deleted = 0 AND winner = id"
        case .rating: sql = "SELECT count(*) FROM ratings WHERE id >= ? AND id < ? AND deleted = 0"
        case .share: sql = "SELECT count(*) FROM zones WHERE id >= ? AND id < ? AND id != 'default'"
        }
        return try read { db in try db.first(sql, prefix, upper) { $0.int(0) } ?? 0 }
    }

    func requireZoneExists(_ zone: String) throws -> Bool {
        try read { db in try db.first("SELECT 1 FROM zones WHERE id = ?", zone) { _ in true } } ?? false
    }
}

extension Library {
    /// What this library holds of its own: live photos and shares (owned or taken part in)
    /// in both stores. A daemon with none is fresh: it may become another device of a person.
    public func heldLibrary() throws -> (photos: Int, shares: Int) {
        var photos = 0
        var shares = 0
        for store in stores {
            let counts = try store.read { db in
                (
                    try db.first("SELECT count(*) FROM photos WHERE deleted = 0") { $0.int(0) } ?? 0,
                    try db.first("SELECT count(*) FROM zones WHERE id != ?", LibraryStore.defaultZone) {
                        $0.int(0)
                    }
                        ?? 0
                )
            }
            photos += counts.0
            shares += counts.1
        }
        return (photos, shares)
    }
}
