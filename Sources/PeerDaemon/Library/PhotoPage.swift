import ControlProtocol
import Store

/// What `photo.list` asks for: the filters (share, tag, device) and, for a client that pages
/// (the gallery's grid), at most `limit` photos after the photo `after`.
///
/// Both stores are read in the same order (oldest first, then by ID) and merged, so a page
/// holds the first `limit` photos of the whole library that follow the cursor.
struct PhotoPage {
    /// The most photos one page may ask for.
    static let maximumLimit = 1000

    private let library: Library
    private let zone: (store: LibraryStore, zone: String)?
    private let tag: String?
    private let device: PeerID?
    private let after: PhotoPosition?
    private let limit: Int?

    init(_ args: ControlArguments, library: Library) throws {
        self.library = library
        zone = try args.optionalString("share").map { try library.zone(named: $0) }
        tag = try args.optionalString("tag")
        device = try args.optionalString("device").map { reference in
            let known = try library.stores.flatMap { try $0.numberedPeers() }
            return try PeerReference.resolve(reference, among: Array(Set(known)), kind: "device")
        }
        limit = try args.optionalInt("limit")
        if let limit, !(1...Self.maximumLimit).contains(limit) {
            throw ControlError(
                .invalidArguments, "photo.list: limit must be from 1 to \(Self.maximumLimit), got \(limit)")
        }
        after = try args.optionalString("after").map { reference in
            let photo = try ControlRoutes.photo(reference, in: library)
            return PhotoPosition(createdAt: photo.createdAt, id: photo.id)
        }
    }

    /// The page's photos, in order.
    func photos() throws -> [Photo] {
        if let zone {
            return try zone.store.photos(
                zone: zone.zone, tagName: tag, addedBy: device, after: after, limit: limit)
        }
        let merged = try library.stores.flatMap {
            try $0.photos(tagName: tag, addedBy: device, after: after, limit: limit)
        }
        .sorted {
            PhotoPosition(createdAt: $0.createdAt, id: $0.id)
                < PhotoPosition(createdAt: $1.createdAt, id: $1.id)
        }
        return limit.map { Array(merged.prefix($0)) } ?? merged
    }
}
