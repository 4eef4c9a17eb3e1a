/// Changes refused by the peer that decides a zone's content, undone where they were made.
///
/// A participant's change can be refused by the owner (its permission was lowered while it
/// was offline, its clock is far ahead…). Left alone, the author would keep showing it while
/// nobody else ever would: replicas apart for good. So the refusing side tells the author
/// what it refused, with its own version of each object, and the author takes that version
/// for every field it wrote that was refused — and for fields the authority holds newer —
/// in one transaction recorded in history as `refused:<peer>`.
extension LibraryStore {
    /// Every field, with value and stamp (tombstone included), of each of `keys` that this
    /// store holds in `zone`: what a peer whose change to them was refused here undoes to.
    public func currentVersions(zone: String, of keys: [(entity: Entity, id: String)]) throws
        -> [ObjectChange]
    {
        try read { db in
            var versions: [ObjectChange] = []
            for (entity, id) in keys {
                if let version = try currentVersion(entity, id, zone: zone, db) { versions.append(version) }
            }
            return versions
        }
    }

    private func currentVersion(_ entity: Entity, _ id: String, zone: String, _ db: Database) throws
        -> ObjectChange?
    {
        guard
            let row = try db.first(
                EntitySQL.row(entity), id,
                map: { row in (0..<(entity.fields.count + 2)).map { row.value($0) } }),
            row[0] == .text(zone)
        else { return nil }
        var fields: [FieldChange] = []
        for (code, stamp) in try fieldStamps(entity, id, db).sorted(by: { $0.code < $1.code }) {
            let value: SQLValue?
            if code == Entity.deletedField {
                value = row[1]
            } else if let index = entity.position(of: code) {
                value = row[index + 2]
            } else {
                value = try Self.unknownFieldValue(entity, id, code: code, db)
            }
            if let value { fields.append(FieldChange(field: code, value: value, stamp: stamp)) }
        }
        return ObjectChange(entity: entity, id: id, fields: fields)
    }

    /// Undoes this peer's changes that `authority` refused in `zone`, taking `versions` (the
    /// authority's objects, as `currentVersions` gives them) for them. Returns the number of
    /// objects changed; an object the authority does not hold and that is left without
    /// fields (created here, refused there) is deleted.
    @discardableResult
    public func undoRefused(
        zone: String, refusals: [Refusal], versions: [ObjectChange], authority: PeerID
    ) throws -> Int {
        guard let owner = try read({ db in try ownerSide(of: zone, db) }) else {
            throw StoreError.unknownZone(zone)
        }
        let context = ApplyContext(
            zone: zone, owner: owner, sender: authority, aheadLimit: Stamp.invalidHLC - 1)
        let released = refusals.filter { $0.entity == .photo }.map(\.id)
        let hashes = try read { db in
            try released.compactMap { id in
                try db.first("SELECT data_hash FROM photos WHERE id = ?", id) { $0.optionalString(0) } ?? nil
            }
        }
        let changed = try write(author: .refused(authority)) { tx in
            var changed = 0
            for refusal in refusals {
                let version = versions.first(where: refusal.names)
                if try undo(refusal, to: version, zone: zone, context: context, in: tx) { changed += 1 }
            }
            return changed
        }
        // A photo created here and refused is gone, and its data with it.
        for hash in hashes { try collectBlob(hash) }
        if changed > 0 { try deduplicateIfNeeded(zone: zone) }
        return changed
    }

    /// Undoes one refused object; true when it changed.
    private func undo(
        _ refusal: Refusal, to version: ObjectChange?, zone: String, context: ApplyContext, in tx: Transaction
    ) throws -> Bool {
        let entity = refusal.entity
        let id = refusal.id
        let db = tx.db
        let row = try db.first(EntitySQL.row(entity), id) { $0.value(0) }
        guard row == nil || row == .text(zone) else { return false }
        var current = try currentVersion(entity, id, zone: zone, db)?.fields ?? []
        let original = current
        for field in version?.fields ?? [] {
            // The authority's fields are validated like any received field (values, stamps).
            do {
                try validate(field, of: entity, context: context)
            } catch is ChangeRefusal {
                throw StoreError.invalid("the refusal of \(entity.name) \(id) carries an invalid field")
            }
        }
        for refused in refusal.fields {
            guard let index = current.firstIndex(where: { $0.field == refused.code }),
                current[index].stamp == refused.stamp
            else { continue }  // written again here since, or never held: nothing to undo
            if let theirs = version?.fields.first(where: { $0.field == refused.code }) {
                current[index] = theirs
            } else {
                current.remove(at: index)
            }
        }
        for theirs in version?.fields ?? [] {
            if let index = current.firstIndex(where: { $0.field == theirs.field }) {
                if current[index].stamp < theirs.stamp { current[index] = theirs }
            } else {
                current.append(theirs)
            }
        }
        guard current != original else { return false }
        let tombstone: Int64? = try db.first("SELECT deleted FROM \(entity.table) WHERE id = ?", id) {
            $0.int64(0)
        }
        let tagName = try db.first("SELECT name FROM tags WHERE id = ?", id) { $0.optionalString(0) } ?? nil
        try Self.forgetStamps(entity, id, db)
        try db.run(EntitySQL.delete(entity), id)
        if !current.isEmpty, isComplete(ObjectChange(entity: entity, id: id, fields: current)) {
            try tx.write(
                entity, id, zone: zone, current.map { ($0.field, $0.value, $0.stamp) },
                existing: .some(tombstone))
        } else if tombstone != nil {
            tx.record(entity, id, zone: zone, .delete)
        }
        if entity == .tag, let name = tagName { tx.touchTagName(name, zone: zone) }
        return true
    }
}
