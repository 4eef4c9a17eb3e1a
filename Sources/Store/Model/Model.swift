/// Which of a person's two databases an object lives in.
public enum StoreKind: String, Sendable, Codable, CaseIterable {
    /// Everything the person owns, shared or not.
    case `private`
    /// What other people share with the person.
    case shared
}

/// What a participant (or anyone holding a public URL) may do in a share.
public enum Permission: String, Sendable, Codable, CaseIterable {
    case none
    case readOnly = "read-only"
    case readWrite = "read-write"
}

/// Where a participant stands in a share.
public enum ParticipantStatus: String, Sendable, Codable, CaseIterable {
    case pending
    case accepted
    case removed
}

/// A tag as it hangs off a photo.
public struct TagRef: Hashable, Sendable, Codable {
    public let id: String
    public let uuid: String
    public let name: String
}

/// A rating as it hangs off a photo.
public struct RatingRef: Hashable, Sendable, Codable {
    public let id: String
    public let value: Int
}

/// A photo as people see it: its attributes and the state of its data.
public struct Photo: Hashable, Sendable {
    public let id: String
    public let zone: String
    public let store: StoreKind
    public let name: String
    public let uniqueName: String
    public let createdAt: Int64
    public let size: Int64
    public let sha256: String
    /// True while the full-size data has not fully arrived from a peer.
    public let pending: Bool
    public let thumbnailSize: Int
    public let tags: [TagRef]
    public let ratings: [RatingRef]
}

/// A tag with how many live photos carry it.
public struct TagSummary: Hashable, Sendable {
    public let id: String
    public let uuid: String
    public let name: String
    public let zone: String
    public let store: StoreKind
    public let photoCount: Int
}

/// A share's membership record as replicated from its owner.
public struct ShareInfo: Hashable, Sendable {
    public let zone: String
    public let store: StoreKind
    public let owner: PeerID
    public let title: String
    public let publicPermission: Permission
    public let stopped: Bool
    public let participants: [Participant]
}

/// One participant of a share.
public struct Participant: Hashable, Sendable {
    public let peer: PeerID
    public let permission: Permission
    public let status: ParticipantStatus
}

/// A zone this store holds: its ID, its owner, and where the owner listens when this store
/// knows it (the HOST:PORT of the share's URL, or the one the owner last gave).
public struct ZoneRecord: Hashable, Sendable {
    public let id: String
    public let owner: PeerID
    public let address: String?
}

/// A share this participant left whose owner has not been told yet.
public struct Departure: Hashable, Sendable {
    public let zone: String
    public let owner: PeerID
    /// Where the owner listened when the share was left (HOST:PORT), if known.
    public let address: String?
}

/// Where a member of this store's zones said it listens (HOST:PORT), on its connections.
public struct MemberAddress: Hashable, Sendable {
    public let peer: PeerID
    public let address: String
}
