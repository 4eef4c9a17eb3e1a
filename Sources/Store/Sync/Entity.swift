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

    /// Every replicated field but the tombstone, in code order (`Fields.swift`).
    public var fields: [EntityField] { Self.tables[Int(rawValue)].fields }

    /// The tombstone, common to every entity: 1 = deleted, and 2 = merged for a tag.
    public var tombstone: EntityField { Self.tables[Int(rawValue)].tombstone }

    /// The field with `code`, the tombstone included; nil for a code this entity lacks.
    public func field(for code: UInt8) -> EntityField? {
        code < 64 ? Self.tables[Int(rawValue)].byCode[Int(code)] : nil
    }

    /// The column of a field code, including the tombstone; nil for a code this entity lacks.
    public func column(for code: UInt8) -> String? { field(for: code)?.column }

    /// Where a field code's column is in `fields` (and so in the rows `EntitySQL.row` reads,
    /// after `zone` and `deleted`); nil for the tombstone and for a code this entity lacks.
    func position(of code: UInt8) -> Int? {
        code < 64 ? Self.tables[Int(rawValue)].positions[Int(code)] : nil
    }

    /// Fields every live object of this kind has from its creation on, as a `FieldMask`:
    /// checked for every new object applied, so no set is built.
    var requiredFields: Int64 { Self.tables[Int(rawValue)].required }

    /// Fields that are set when the object is created and never change afterwards; a change
    /// that tries to alter one of them is refused.
    public var immutableFields: Set<UInt8> { Self.tables[Int(rawValue)].immutable }

    /// Columns an object's ID determines, written when the row is created: a link's photo
    /// and tag. Nil when the ID is malformed.
    public func derivedColumns(id: String) -> [(column: String, value: SQLValue)]? {
        guard self == .link else { return [] }
        var id = id
        // Through the contiguous bytes: a string's own view walked one index at a time was a
        // fiftieth of an apply.
        return id.withUTF8 { bytes -> [(column: String, value: SQLValue)]? in
            let slash = UInt8(ascii: "/")
            guard let at = bytes.firstIndex(of: slash), at > 0, at + 1 < bytes.count,
                !bytes[(at + 1)...].contains(slash)
            else { return nil }
            let photo = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<at]), as: UTF8.self)
            let tag = String(decoding: UnsafeBufferPointer(rebasing: bytes[(at + 1)...]), as: UTF8.self)
            return [("photo_id", .text(photo)), ("tag_id", .text(tag))]
        }
    }

    /// An entity's field table with what is derived from it, built once: these are consulted
    /// for every field of every applied change.
    private struct Table {
        let fields: [EntityField]
        let tombstone: EntityField
        /// By code (0…63), the field with that code, the tombstone included.
        let byCode: [EntityField?]
        /// By code (0…63), the field's index in `fields`.
        let positions: [Int?]
        let required: Int64
        let immutable: Set<UInt8>

        init(_ entity: Entity) {
            switch entity {
            case .share: fields = ShareField.all
            case .participant: fields = ParticipantField.all
            case .photo: fields = PhotoField.all
            case .tag: fields = TagField.all
            case .rating: fields = RatingField.all
            case .link: fields = LinkField.all
            }
            tombstone = EntityField(Entity.deletedField, "deleted", .tombstone(merges: entity == .tag))
            var byCode = [EntityField?](repeating: nil, count: 64)
            var positions = [Int?](repeating: nil, count: 64)
            for (index, field) in fields.enumerated() {
                precondition(field.code < 64 && byCode[Int(field.code)] == nil, "code \(field.code) reused")
                byCode[Int(field.code)] = field
                positions[Int(field.code)] = index
            }
            precondition(byCode[Int(Entity.deletedField)] == nil, "code 15 is the tombstone's")
            byCode[Int(Entity.deletedField)] = tombstone
            self.byCode = byCode
            self.positions = positions
            required = FieldMask.of(fields.filter(\.isRequired).map(\.code))
            immutable = Set(fields.filter(\.isImmutable).map(\.code))
        }
    }

    /// Indexed by raw value (index 0 unused).
    private static let tables: [Table] = [Table(.share)] + Entity.allCases.map(Table.init)
}

/// The tombstone values of the `deleted` field.
public enum Tombstone: Int64, Sendable {
    case alive = 0
    /// Deleted by a person (or by a cascade from one).
    case deleted = 1
    /// A tag that lost deduplication: its links count for the winner of its name.
    case merged = 2
}
