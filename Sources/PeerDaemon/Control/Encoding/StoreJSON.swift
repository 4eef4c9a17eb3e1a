import ControlProtocol
import FoundationEssentials
import Glibc
import Store

/// The JSON shapes of the store's values, as SPEC §9 fixes their keys (snake_case), shared
/// by every command that returns them and by `history` events.
enum StoreJSON {
    /// Milliseconds since 1970 as ISO 8601 UTC with milliseconds (`JSONTime`, as every time).
    static func time(milliseconds: Int64) -> JSON { JSONTime.json(milliseconds: milliseconds) }

    /// A field's value as clients see it: milliseconds as a time, other numbers and text as
    /// they are (a blob is read as its byte count).
    static func value(_ value: SQLValue, of kind: FieldKind) -> JSON {
        switch value {
        case .integer(let number):
            return kind == .milliseconds ? time(milliseconds: number) : .int(Int(number))
        case .text(let text): return .string(text)
        case .real(let number): return .double(number)
        case .blob(let bytes): return .int(bytes.count)
        case .null: return .null
        }
    }
}

extension Photo {
    /// `{"id", "zone", "store", "pending", "tags", "ratings"}` and every field the photo's
    /// field table names for JSON (`PhotoField`): `name`, `size`, `sha256`, and the extras
    /// `unique_name`, `created_at`, `thumbnail_size`.
    var json: JSON {
        var object: [String: JSON] = [
            "id": .string(id), "zone": .string(zone), "store": .string(store.rawValue),
            "pending": .bool(pending),
            "tags": .array(tags.map(\.json)), "ratings": .array(ratings.map(\.json)),
        ]
        for (field, value) in shownFields {
            if let key = field.jsonName { object[key] = StoreJSON.value(value, of: field.kind) }
        }
        return .object(object)
    }
}

extension TagRef {
    /// `{"id", "uuid", "name"}`.
    var json: JSON { ["id": .string(id), "uuid": .string(uuid), "name": .string(name)] }
}

extension RatingRef {
    /// `{"id", "value"}`.
    var json: JSON { ["id": .string(id), "value": .int(value)] }
}

extension TagSummary {
    /// `{"id", "uuid", "name", "zone", "photo_count"}` and the extra `store`.
    var json: JSON {
        [
            "id": .string(id), "uuid": .string(uuid), "name": .string(name), "zone": .string(zone),
            "photo_count": .int(photoCount), "store": .string(store.rawValue),
        ]
    }
}

extension HistoryEntry {
    /// `{"id", "token", "author", "store", "timestamp", "changes": [{"entity", "id", "type",
    /// "zone"}]}`: an entry is known by its token, so its `id` is the token as text.
    var json: JSON {
        [
            "id": .string(String(token)), "token": .int(Int(token)), "author": .string(author),
            "store": .string(store.rawValue),
            "timestamp": StoreJSON.time(milliseconds: timestamp),
            "changes": .array(
                changes.map {
                    [
                        "entity": .string($0.entity), "id": .string($0.id), "type": .string($0.type.rawValue),
                        "zone": .string($0.zone),
                    ]
                }),
        ]
    }
}
