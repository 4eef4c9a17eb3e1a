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
        case .share: return [(1, "owner"), (2, "title"), (3, "public_permission")]
        case .participant: return [(1, "peer"), (2, "permission"), (3, "status")]
        case .photo:
            return [
                (1, "name"), (2, "unique_name"), (3, "created_at"), (4, "data_hash"), (5, "data_size"),
                (6, "thumbnail"),
            ]
        case .tag: return [(1, "uuid"), (2, "name")]
        case .rating: return [(1, "photo_id"), (2, "value")]
        // A link's photo and tag are its ID ("photo/tag"), so only `linked` travels.
        case .link: return [(3, "linked")]
        }
    }

    /// The column of a field code, including the tombstone; nil for a code this entity lacks.
    public func column(for code: UInt8) -> String? {
        if code == Entity.deletedField { return "deleted" }
        return fields.first { $0.code == code }?.column
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
        case .share: return [1, 2, 3]
        case .participant: return [1, 2, 3]
        case .photo: return [1, 2, 3, 4, 5]
        case .tag: return [1, 2]
        case .rating: return [1, 2]
        case .link: return [3]
        }
    }

    /// Fields that are set when the object is created and never change afterwards; a change
    /// that tries to alter one of them is refused.
    public var immutableFields: Set<UInt8> {
        switch self {
        case .share: return [1]
        case .participant: return [1]
        case .photo: return [2, 3]
        case .tag: return [1, 2]
        case .rating: return [1]
        case .link: return []
        }
    }
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
