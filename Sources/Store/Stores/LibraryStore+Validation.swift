/// The checks every receiver makes on every incoming object, so that a tampered or buggy
/// peer cannot write what its author was not allowed to, nor corrupt the zone.
extension LibraryStore {
    /// The part of an object this sender may deliver: a participant delivers only its own
    /// fields (what others wrote reaches everyone through the owner, who relays), the owner
    /// everything.
    func deliverable(_ object: ObjectChange, _ context: ApplyContext) -> ObjectChange {
        guard !context.relaysAsOwner else { return object }
        if object.fields.allSatisfy({ $0.stamp.peer == context.sender }) { return object }
        var own = object
        own.fields = object.fields.filter { $0.stamp.peer == context.sender }
        return own
    }

    /// Refuses an object whose fields were written by someone without the right to.
    func checkAuthors(_ object: ObjectChange, _ context: ApplyContext, _ db: Database) throws {
        switch object.entity {
        case .share:
            guard object.id == context.zone else { throw ChangeRefusal("share record of another zone") }
            guard !object.fields.isEmpty, object.fields.allSatisfy({ context.mayAdminister($0.stamp.peer) })
            else {
                throw ChangeRefusal("only the owner changes the share")
            }
        case .participant:
            let member = try participantPeer(object.id, zone: context.zone)
            for field in object.fields where !context.mayAdminister(field.stamp.peer) {
                let leaving =
                    field.stamp.peer == member && field.field == ParticipantField.status.code
                    && field.value == .text(ParticipantStatus.removed.rawValue)
                guard leaving else { throw ChangeRefusal("only the owner changes membership") }
            }
        default:
            // Each distinct author once, in field order (usually one author for all fields).
            for (i, field) in object.fields.enumerated() {
                let author = field.stamp.peer
                if object.fields[..<i].contains(where: { $0.stamp.peer == author }) { continue }
                if try !mayHaveWritten(author, context, db) {
                    throw ChangeRefusal(
                        "\(author.short) may not write to this share", forWantOfPermission: true)
                }
            }
        }
    }

    /// Whether a data change by `author` is acceptable from this sender. From a participant
    /// (at the owner), its author must be allowed to write now. From the owner, who checked
    /// each change when it arrived and relays only what it accepted, the author must be the
    /// owner or someone who has been a participant: a change made before its author left or
    /// lost write access stays valid, so every replica keeps the same history of the zone.
    private func mayHaveWritten(_ author: PeerID, _ context: ApplyContext, _ db: Database) throws -> Bool {
        if context.mayAdminister(author) { return true }
        if !context.relaysAsOwner {
            return try cachedPermission(of: author, context, db) == .readWrite
        }
        // The person's own library, from another of its devices: it took each change itself.
        if context.zone == Self.defaultZone { return true }
        if let known = context.permissions[author] { return known != .none }
        // Someone who has been a participant (a record, even a removed one), or who may be
        // one now through its person (another device of a participant, of this person's).
        let record = try db.first(
            "SELECT 1 FROM participants WHERE id = ?", Self.participantID(zone: context.zone, peer: author)
        ) { _ in true }
        let verdict: Permission =
            try record != nil || permission(of: author, in: context.zone, db) != .none ? .readWrite : .none
        context.permissions[author] = verdict
        return verdict != .none
    }

    private func cachedPermission(of author: PeerID, _ context: ApplyContext, _ db: Database) throws
        -> Permission
    {
        if let known = context.permissions[author] { return known }
        let permission = try permission(of: author, in: context.zone, db)
        context.permissions[author] = permission
        return permission
    }

    private func participantPeer(_ id: String, zone: String) throws -> PeerID {
        let prefix = zone + "/"
        guard id.hasPrefix(prefix), let peer = try? PeerID(parsing: String(id.dropFirst(prefix.count))) else {
            throw ChangeRefusal("malformed participant ID")
        }
        return peer
    }

    /// Refuses a field with a value its kind does not accept, or an unknown field (of a
    /// newer version) that cannot be kept: a code out of range or a value over the limit.
    func validate(_ field: FieldChange, of entity: Entity, context: ApplyContext) throws {
        guard let known = entity.field(for: field.field) else {
            guard Self.isStorableUnknownCode(field.field) else {
                throw ChangeRefusal("unknown field \(field.field)")
            }
            guard Self.byteCount(field.value) <= limits.maxUnknownFieldBytes else {
                throw ChangeRefusal(
                    "unknown field \(field.field) is over \(limits.maxUnknownFieldBytes) bytes")
            }
            return
        }
        guard known.kind.accepts(field.value, limits: limits, owner: context.owner) else {
            throw ChangeRefusal("invalid value for \(entity.name).\(known.column)")
        }
    }

    /// Refuses a new object that lacks a field every object of its kind has (a tombstone
    /// alone is fine: the object was created and deleted before the receiver saw it).
    func checkComplete(_ object: ObjectChange) throws {
        guard !isComplete(object) else { return }
        let missing = object.entity.requiredFields & ~FieldMask.of(object.fields.lazy.map(\.field))
        var names: [String] = []
        FieldMask.forEach(missing) { code in names += object.entity.column(for: code).map { [$0] } ?? [] }
        throw ChangeRefusal("a new \(object.entity.name) lacks \(names.joined(separator: ", "))")
    }

    /// Whether `object` could be new: every field its kind requires, or a tombstone alone
    /// (codes of 64 and more have no bit, and `validate` refuses them).
    func isComplete(_ object: ObjectChange) -> Bool {
        let present = FieldMask.of(object.fields.lazy.map(\.field))
        return present == FieldMask.bit(Entity.deletedField) || object.entity.requiredFields & ~present == 0
    }

    /// Refuses a new object that points at a photo or tag the zone does not hold.
    func checkReferences(_ object: ObjectChange, _ context: ApplyContext, _ db: Database) throws {
        func value(_ code: UInt8) -> String? {
            object.fields.first { $0.field == code }.flatMap { $0.value.textValue }
        }
        func requireRef(_ entity: Entity, _ id: String?) throws {
            guard let id else {
                throw ChangeRefusal("a new \(object.entity.name) must name its \(entity.name)")
            }
            if context.isInZone(entity, id) { return }
            // The person's own library from another of its devices may hold a link to a tag
            // that moved to a share since (a photo deleted before the share): taken as it is.
            if context.relaysAsOwner && context.zone == Self.defaultZone { return }
            let zone = try db.first(EntitySQL.zone(entity), id) { $0.string(0) }
            guard zone == context.zone else {
                // Not here at all: it may still be on its way (from another peer), which is
                // no verdict on the change. In another zone: it is not this zone's.
                throw ChangeRefusal(
                    "refers to \(entity.name) \(id), missing in this zone", waitsForReference: zone == nil)
            }
            context.noteInZone(entity, id)
        }
        let isTombstoneOnly = object.fields.allSatisfy { $0.field == Entity.deletedField }
        if !isTombstoneOnly {
            for field in object.entity.fields {
                if case .reference(let target) = field.kind { try requireRef(target, value(field.code)) }
            }
        }
        switch object.entity {
        case .link:
            guard let derived = object.entity.derivedColumns(id: object.id), derived.count == 2,
                case .text(let photo) = derived[0].value, case .text(let tag) = derived[1].value
            else {
                throw ChangeRefusal("a link's ID must be PHOTO/TAG")
            }
            try requireRef(.photo, photo)
            try requireRef(.tag, tag)
        case .participant:
            let member = try participantPeer(object.id, zone: context.zone)
            guard value(ParticipantField.peer.code) == member.description || isTombstoneOnly else {
                throw ChangeRefusal("participant record does not match its ID")
            }
        default:
            break
        }
    }

    static func isHexDigest(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.count == 64 && bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        }
    }

    /// Lowercase 8-4-4-4-12 hex: the form whose string order is the order of the 16 bytes.
    public static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                if b != 45 { return false }
            } else if !((48...57).contains(b) || (97...102).contains(b)) {
                return false
            }
        }
        return true
    }
}

extension LibraryStore {
    /// The bytes a value takes, roughly as stored.
    static func byteCount(_ value: SQLValue) -> Int {
        switch value {
        case .null: return 0
        case .integer, .real: return 8
        case .text(let text): return text.utf8.count
        case .blob(let bytes): return bytes.count
        }
    }
}
