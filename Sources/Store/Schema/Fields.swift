/// The fields of every entity, one line each: the single description the store derives its
/// validation, row reads and writes, required and immutable sets, photo JSON and schema
/// check from (`EntityField`). Every entity also has the tombstone, `Entity.tombstone`.
///
/// To add a field: a line here and in its entity's `all`, a migration adding the column
/// (`Migrations.swift`), and whatever sets it locally (docs/ARCHITECTURE.md, "Adding a field
/// to an entity"). Codes are never reused or changed; the tombstone's 15 is taken.

/// A share record (its ID is the zone's).
public enum ShareField {
    public static let owner = EntityField(1, "owner", .zoneOwner, [.required, .immutable], json: "owner")
    public static let title = EntityField(2, "title", .name, .required, json: "title")
    public static let publicPermission = EntityField(
        3, "public_permission", .permission, .required, json: "public_permission")
    /// The owner's person (absent on shares created before persons, until the owner fills it).
    public static let ownerPerson = EntityField(4, "owner_person", .peerID, json: "owner_person_id")

    public static let all = [owner, title, publicPermission, ownerPerson]
}

/// A participant record (its ID is ZONE/PEER). PEER is a device ID, or, for an invitation
/// nobody has accepted yet, the ID the owner invited (a person's or a device's).
public enum ParticipantField {
    public static let peer = EntityField(1, "peer", .peerID, [.required, .immutable], json: "peer_id")
    public static let permission = EntityField(2, "permission", .permission, .required, json: "permission")
    public static let status = EntityField(3, "status", .participantStatus, .required, json: "status")
    /// The person the device belongs to, once the owner has checked its device list.
    public static let person = EntityField(4, "person", .peerID, json: "person_id")
    /// Where the device listens, as it last told the owner: so that members find each other
    /// (written by the owner; issue 13 replaces it with signed address records).
    public static let address = EntityField(5, "address", .address, json: "address")

    public static let all = [peer, permission, status, person, address]
}

/// A photo.
public enum PhotoField {
    public static let name = EntityField(1, "name", .name, .required, json: "name")
    public static let uniqueName = EntityField(
        2, "unique_name", .identifier, [.required, .immutable], json: "unique_name")
    public static let createdAt = EntityField(
        3, "created_at", .milliseconds, [.required, .immutable], json: "created_at")
    public static let dataHash = EntityField(4, "data_hash", .hexDigest, .required, json: "sha256")
    public static let dataSize = EntityField(5, "data_size", .byteCount, .required, json: "size")
    /// Shown as its byte count.
    public static let thumbnail = EntityField(6, "thumbnail", .thumbnail, json: "thumbnail_size")

    public static let all = [name, uniqueName, createdAt, dataHash, dataSize, thumbnail]
}

/// A tag.
public enum TagField {
    public static let uuid = EntityField(1, "uuid", .uuid, [.required, .immutable], json: "uuid")
    public static let name = EntityField(2, "name", .name, [.required, .immutable], json: "name")

    public static let all = [uuid, name]
}

/// A rating of a photo.
public enum RatingField {
    public static let photo = EntityField(1, "photo_id", .reference(.photo), [.required, .immutable])
    public static let value = EntityField(2, "value", .rating, .required, json: "value")

    public static let all = [photo, value]
}

/// The link between a photo and a tag: its ID is PHOTO/TAG (`Entity.derivedColumns`), so only
/// whether it is set travels.
public enum LinkField {
    public static let linked = EntityField(3, "linked", .flag, .required)

    public static let all = [linked]
}
