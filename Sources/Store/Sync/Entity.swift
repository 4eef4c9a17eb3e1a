/// The kinds of replicated object, each stored in one table whose rows share the same
/// shape: `id` (primary key), `zone`, `deleted`, then one column per field.
///
/// The raw values travel in change sets, so they never change once released.
public enum Entity: UInt8, CaseIterable, Sendable, Comparable {
    case share = 1
    case participant = 2
    case photo = 3
    case tag = 4
    case rating = 5
    case link = 6

    /// Field code of the tombstone, common to every entity.
    public static let deletedField: UInt8 = 15

    public static func < (a: Entity, b: Entity) -> Bool { a.rawValue < b.rawValue }

    /// The table the entity's rows live in.
    public var table: String {
        switch self {
        case .share: return "shares"
        case .participant: return "participants"
        case .photo: return "photos"
        case .tag: return "tags"
        case .rating: return "ratings"
        case .link: return "photo_tags"
        }
    }

    /// The name clients see in history.
    public var name: String {
        switch self {
        case .share: return "share"
        case .participant: return "participant"
        case .photo: return "photo"
        case .tag: return "tag"
        case .rating: return "rating"
        case .link: return "photo_tag"
        }
    }

    /// Field code → column, for every replicated field but the tombstone.
    public var fields: [(code: UInt8, column: String)] {
        switch self {
        case .share: return Self.shareFields
        case .participant: return Self.participantFields
        case .photo: return Self.photoFields
        case .tag: return Self.tagFields
        case .rating: return Self.ratingFields
        case .link: return Self.linkFields
        }
    }

    // Built once: `fields` and `column(for:)` run for every field of every applied change.
    private static let shareFields: [(code: UInt8, column: String)] = [
        (1, "owner"), (2, "title"), (3, "public_permission"),
    ]
    private static let participantFields: [(code: UInt8, column: String)] = [
        (1, "peer"), (2, "permission"), (3, "status"),
    ]
    private static let photoFields: [(code: UInt8, column: String)] = [
        (1, "name"), (2, "unique_name"), (3, "created_at"), (4, "data_hash"), (5, "data_size"),
        (6, "thumbnail"),
    ]
    private static let tagFields: [(code: UInt8, column: String)] = [(1, "uuid"), (2, "name")]
    private static let ratingFields: [(code: UInt8, column: String)] = [(1, "photo_id"), (2, "value")]
    // A link's photo and tag are its ID ("photo/tag"), so only `linked` travels.
    private static let linkFields: [(code: UInt8, column: String)] = [(3, "linked")]

    /// The column of a field code, including the tombstone; nil for a code this entity lacks.
    public func column(for code: UInt8) -> String? {
        if code == Entity.deletedField { return "deleted" }
        for field in fields where field.code == code { return field.column }
        return nil
    }

    /// Columns an object's ID determines, written when the row is created: a link's photo
    /// and tag. Nil when the ID is malformed.
    public func derivedColumns(id: String) -> [(column: String, value: SQLValue)]? {
        guard self == .link else { return [] }
        let utf8 = id.utf8
        guard let slash = utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let photo = String(id[..<slash])
        let tag = String(id[id.index(after: slash)...])
        guard !photo.isEmpty, !tag.isEmpty, !tag.utf8.contains(UInt8(ascii: "/")) else { return nil }
        return [("photo_id", .text(photo)), ("tag_id", .text(tag))]
    }

    /// Fields every live object of this kind has from its creation on.
    public var requiredFields: Set<UInt8> {
        switch self {
        case .share, .participant: return Self.firstThree
        case .photo: return Self.photoRequired
        case .tag, .rating: return Self.firstTwo
        case .link: return Self.linkRequired
        }
    }

    /// Fields that are set when the object is created and never change afterwards; a change
    /// that tries to alter one of them is refused.
    public var immutableFields: Set<UInt8> {
        switch self {
        case .share, .participant, .rating: return Self.firstOne
        case .photo: return Self.photoImmutable
        case .tag: return Self.firstTwo
        case .link: return []
        }
    }

    // Built once, like `fields`: both are consulted for every applied object.
    private static let firstOne: Set<UInt8> = [1]
    private static let firstTwo: Set<UInt8> = [1, 2]
    private static let firstThree: Set<UInt8> = [1, 2, 3]
    private static let photoRequired: Set<UInt8> = [1, 2, 3, 4, 5]
    private static let photoImmutable: Set<UInt8> = [2, 3]
    private static let linkRequired: Set<UInt8> = [3]
}

/// The tombstone values of the `deleted` field.
public enum Tombstone: Int64, Sendable {
    case alive = 0
    /// Deleted by a person (or by a cascade from one).
    case deleted = 1
    /// A tag that lost deduplication: its links count for the winner of its name.
    case merged = 2
}

/// Field codes by name, so code reads as `PhotoField.name` rather than `1`.
public enum PhotoField {
    public static let name: UInt8 = 1
    public static let uniqueName: UInt8 = 2
    public static let createdAt: UInt8 = 3
    public static let dataHash: UInt8 = 4
    public static let dataSize: UInt8 = 5
    public static let thumbnail: UInt8 = 6
}

public enum TagField {
    public static let uuid: UInt8 = 1
    public static let name: UInt8 = 2
}

public enum RatingField {
    public static let photo: UInt8 = 1
    public static let value: UInt8 = 2
}

public enum LinkField {
    public static let linked: UInt8 = 3
}

public enum ShareField {
    public static let owner: UInt8 = 1
    public static let title: UInt8 = 2
    public static let publicPermission: UInt8 = 3
}

public enum ParticipantField {
    public static let peer: UInt8 = 1
    public static let permission: UInt8 = 2
    public static let status: UInt8 = 3
}
