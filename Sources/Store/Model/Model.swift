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

/// A photo as people see it: its fields, the state of its data, its tags and ratings.
public struct Photo: Hashable, Sendable {
    public let id: String
    public let zone: String
    public let store: StoreKind
    /// The value of each field of `PhotoField.all`, in that order, as a photo is read: text
    /// or an integer, never null (a missing text is "", a missing number 0), and a blob (the
    /// thumbnail) as its byte count.
    public let values: [SQLValue]
    /// True while the full-size data has not fully arrived from a peer.
    public let pending: Bool
    public let tags: [TagRef]
    public let ratings: [RatingRef]

    /// The value of one of the photo's fields.
    public subscript(field: EntityField) -> SQLValue {
        Entity.photo.position(of: field.code).map { values[$0] } ?? .null
    }

    /// The fields clients see, with their values: every field with a JSON name.
    public var shownFields: [(field: EntityField, value: SQLValue)] {
        zip(PhotoField.all, values).filter { $0.0.jsonName != nil }.map { ($0.0, $0.1) }
    }

    public var name: String { text(PhotoField.name) }
    public var uniqueName: String { text(PhotoField.uniqueName) }
    /// Milliseconds since 1970.
    public var createdAt: Int64 { integer(PhotoField.createdAt) }
    /// The size of the full data, in bytes.
    public var size: Int64 { integer(PhotoField.dataSize) }
    /// The SHA-256 of the full data, in lowercase hex.
    public var sha256: String { text(PhotoField.dataHash) }
    public var thumbnailSize: Int { Int(integer(PhotoField.thumbnail)) }

    private func text(_ field: EntityField) -> String {
        if case .text(let text) = self[field] { return text }
        return ""
    }

    private func integer(_ field: EntityField) -> Int64 {
        if case .integer(let value) = self[field] { return value }
        return 0
    }
}

/// Where a photo stands in the order photos are listed in (oldest first, then by ID): the
/// cursor a page of `photos(after:limit:)` continues from.
public struct PhotoPosition: Hashable, Sendable, Comparable {
    public let createdAt: Int64
    public let id: String

    public init(createdAt: Int64, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    public static func < (a: PhotoPosition, b: PhotoPosition) -> Bool {
        (a.createdAt, a.id) < (b.createdAt, b.id)
    }
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
    /// The owner's person, once known (shares made before persons gain it when the owner
    /// next starts).
    public let ownerPerson: PersonID?
}

/// One participant of a share.
public struct Participant: Hashable, Sendable {
    /// The participant's device; for an invitation nobody accepted yet, the ID invited (a
    /// person's or a device's).
    public let peer: PeerID
    public let permission: Permission
    public let status: ParticipantStatus
    /// The device's person, once the owner has checked its device list.
    public let person: PersonID?
    /// Where the device listens (HOST:PORT), as it last told the owner: how other members
    /// find it.
    public private(set) var address: String? = nil
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
    /// The clock reading of the signed leave told to the owner, taken when the share was
    /// left; nil for a departure an earlier version recorded.
    public let stamp: UInt64?
}

/// Where a member of this store's zones said it listens (HOST:PORT), on its connections.
public struct MemberAddress: Hashable, Sendable {
    public let peer: PeerID
    public let address: String
}
