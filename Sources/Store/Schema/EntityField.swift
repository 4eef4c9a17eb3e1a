/// One replicated field of an entity, described once: the code it travels under, the
/// column it is stored in, the values it accepts, whether a new object must carry it and
/// whether it may change afterwards, and the key clients see it under.
///
/// Everything else is derived from these descriptions (`Fields.swift` holds them): received
/// values are validated by kind, `Entity`'s required and immutable sets and
/// `column(for:)` come from them, and so do the statements that read and write rows, the
/// mapping of a photo row, the JSON of a photo and the schema check run when a store opens.
public struct EntityField: Hashable, Sendable {
    /// The code the field travels under, unique within its entity. A released code never
    /// changes: it is on the wire and in every store's stamps.
    public let code: UInt8
    /// The column of the entity's table that holds the value.
    public let column: String
    /// What values are valid.
    public let kind: FieldKind
    /// Every new object carries it: a received new object without it is refused.
    public let isRequired: Bool
    /// Set when the object is created and never changed: a change that alters it is refused.
    public let isImmutable: Bool
    /// The key clients see the value under in JSON; nil when it is not shown.
    public let jsonName: String?

    /// Whether a field must be present at creation and may change afterwards.
    struct Rules: OptionSet {
        let rawValue: Int
        static let required = Rules(rawValue: 1)
        static let immutable = Rules(rawValue: 2)
    }

    init(_ code: UInt8, _ column: String, _ kind: FieldKind, _ rules: Rules = [], json: String? = nil) {
        self.code = code
        self.column = column
        self.kind = kind
        isRequired = rules.contains(.required)
        isImmutable = rules.contains(.immutable)
        jsonName = json
    }

    /// The expression a row read selects for the field: the value itself, or the byte count
    /// of a blob (a photo is read without its thumbnail's bytes).
    var readExpression: String { kind.storage == .blob ? "length(\(column))" : column }
}

/// What values a field accepts; received values are validated against it
/// (`FieldKind+Validation.swift`).
public enum FieldKind: Hashable, Sendable {
    /// A name people give: text, non-empty, at most `max_name_bytes`, no control characters.
    case name
    /// An opaque identifier: text, non-empty, at most 64 bytes.
    case identifier
    /// The ID of another object of the zone (which must hold it when the object is new):
    /// text like an identifier.
    case reference(Entity)
    /// A lowercase canonical UUID, whose string order is the order of its 16 bytes.
    case uuid
    /// A SHA-256 digest as 64 lowercase hex digits.
    case hexDigest
    /// A peer ID in its printed form.
    case peerID
    /// The peer ID of the zone's owner, and no other.
    case zoneOwner
    /// `none`, `read-only` or `read-write`.
    case permission
    /// `pending`, `accepted` or `removed`.
    case participantStatus
    /// Where a member listens: HOST:PORT, neither a wildcard host nor port 0.
    case address
    /// Milliseconds since 1970: an integer.
    case milliseconds
    /// The size of photo data: an integer from 0 to `max_photo_bytes`.
    case byteCount
    /// A thumbnail: a blob of at most `max_thumbnail_bytes`, or nothing.
    case thumbnail
    /// A rating: an integer from 1 to 5.
    case rating
    /// A flag: 0 or 1.
    case flag
    /// The tombstone: 1 (deleted), or 2 (merged) where the entity merges (tags).
    case tombstone(merges: Bool)

    /// How SQLite stores the values of a kind.
    public enum Storage: Sendable {
        case text, integer, blob
    }

    public var storage: Storage {
        switch self {
        case .name, .identifier, .reference, .uuid, .hexDigest, .peerID, .zoneOwner, .permission,
            .participantStatus, .address:
            return .text
        case .milliseconds, .byteCount, .rating, .flag, .tombstone:
            return .integer
        case .thumbnail:
            return .blob
        }
    }
}
