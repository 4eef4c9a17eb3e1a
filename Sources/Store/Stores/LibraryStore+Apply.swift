import Glibc

/// Applying a change set received from a peer: atomically, idempotently, in any order.
///
/// Each field is merged last-writer-wins by stamp; a tombstone beats every other field;
/// changes whose author was not allowed to make them, or that reference objects the zone
/// does not hold, are refused one object at a time and reported, without blocking the rest.
extension LibraryStore {
    /// With `signed`, the set is the body of that signed set of the sender (its author,
    /// relayed by any member): the signed set is kept in the same transaction, whatever of
    /// it is refused, so that its author's chain goes on here and can be relayed.
    public func apply(_ set: ChangeSet, from sender: PeerID, signed: SignedSetRow? = nil) throws
        -> ApplyReport
    {
        var report = try write(author: .sync(sender), stamp: Self.applyStamp(localPeer)) { tx in
            try apply(set, from: sender, signed: signed, in: tx, known: ZoneObjects(), holdNewRows: false)
        }
        try settle(&report, of: set)
        return report
    }

    /// Applies consecutive sets of one sender in one transaction: a receiver taking a zone
    /// gets it in sets of a few thousand changes, and committing each on its own rewrote the
    /// same index pages into the log once per set. The group's new rows are inserted together
    /// in key order when it ends (`NewRow.held`); should one of them exist after all (an
    /// object moved in from another zone, or sent again with newer stamps), the group is
    /// applied again without holding rows back. The result of each set is what applying it
    /// alone would give. When any of them cannot be applied (an error, or a set whose earlier
    /// changes are missing), nothing of the group is kept and each set is applied on its own.
    /// `signed[i]`, when given, is the signed set `sets[i]` is the body of (as for one set).
    public func apply(_ sets: [ChangeSet], signed: [SignedSetRow?]? = nil, from sender: PeerID)
        -> [Result<ApplyReport, any Error>]
    {
        let signed = signed ?? Array(repeating: nil, count: sets.count)
        precondition(signed.count == sets.count, "one signed row (or nil) per set")
        guard sets.count > 1 else {
            return zip(sets, signed).map { set, row in Result { try apply(set, from: sender, signed: row) } }
        }
        var given = zip(sets, signed).map { (set: $0, signed: $1) }
        return applyGroup(from: sender) {
            defer { given = [] }
            return given
        }.map(\.result)
    }

    /// `apply(_:from:)` on sets that are still arriving: the transaction goes on with the sets
    /// `next` hands over while it is open, until `next` hands over none. A receiver's window
    /// holds the sets being applied and those arriving meanwhile, so a group formed before
    /// its apply started held half the window: a 100,000-photo join committed 54 times, each
    /// commit rewriting most pages of the indexes keyed by random IDs (issue 17). Returns
    /// each set taken with its result, in order; `next` has handed over none when it returns.
    public func apply(from sender: PeerID, taking next: () -> [ChangeSet])
        -> [(set: ChangeSet, result: Result<ApplyReport, any Error>)]
    {
        applyGroup(from: sender) { next().map { (set: $0, signed: nil) } }
    }

    private func applyGroup(
        from sender: PeerID, taking next: () -> [(set: ChangeSet, signed: SignedSetRow?)]
    ) -> [(set: ChangeSet, result: Result<ApplyReport, any Error>)] {
        var taken: [(set: ChangeSet, signed: SignedSetRow?)] = []
        // Once `next` hands over none, nothing more is asked of it (a retry takes no more).
        var drained = false
        func take() -> Bool {
            guard !drained else { return false }
            let more = next()
            drained = more.isEmpty
            taken += more
            return !drained
        }
        guard take() else { return [] }
        func together(holdNewRows: Bool) -> Result<[ApplyReport], any Error> {
            Result {
                try write(author: .sync(sender), stamp: Self.applyStamp(localPeer)) { tx in
                    // What one set found in its zone holds for the next: a joiner's links name
                    // tags that came in an earlier set.
                    let known = ZoneObjects()
                    var reports: [ApplyReport] = []
                    while reports.count < taken.count || take() {
                        let (set, signed) = taken[reports.count]
                        reports.append(
                            try apply(
                                set, from: sender, signed: signed, in: tx, known: known,
                                holdNewRows: holdNewRows))
                    }
                    return reports
                }
            }
        }
        var result = together(holdNewRows: true)
        // A group that stopped part way still takes what was handed over for it.
        while take() {}
        if case .failure(is HeldRowExisted) = result { result = together(holdNewRows: false) }
        let sets = taken.map(\.set)
        guard case .success(var reports) = result else {
            return taken.map { set, row in (set, Result { try apply(set, from: sender, signed: row) }) }
        }
        do {
            try settle(&reports, of: sets)
        } catch {
            return sets.map { ($0, .failure(error)) }
        }
        return zip(sets, reports).map { ($0, .success($1)) }
    }

    /// The transaction's own stamp only dates its history entry: applied fields keep the
    /// stamps they carry.
    private static func applyStamp(_ peer: PeerID) -> Stamp {
        Stamp(hlc: HybridLogicalClock.wallMilliseconds() << 16, peer: peer)
    }

    /// What follows an applied set once its transaction committed: peers hear of a clock that
    /// moved alone, data no photo uses goes, and touched tag names are cleaned up.
    private func settle(_ report: inout ApplyReport, of set: ChangeSet) throws {
        var reports = [report]
        try settle(&reports, of: [set])
        report = reports[0]
    }

    /// `settle` for sets applied in one transaction: each zone is told of its clock, and
    /// cleaned up, once for all of them (the cleanup's count goes to the last set that
    /// touched tags there).
    private func settle(_ reports: inout [ApplyReport], of sets: [ChangeSet]) throws {
        var clockMoved: [String] = []
        var touched: [String: Int] = [:]
        for (index, (report, set)) in zip(reports, sets).enumerated() {
            if report.clockOnly && !clockMoved.contains(set.zone) { clockMoved.append(set.zone) }
            if report.touchedTags { touched[set.zone] = index }
        }
        for zone in clockMoved { notifyClockMoved(zone) }
        // Data of photos these sets deleted (or pointed elsewhere) goes when nothing uses it.
        for hash in Set(reports.flatMap(\.releasedData)) { try collectBlob(hash) }
        for (zone, index) in touched.sorted(by: { $0.value < $1.value }) {
            reports[index].deduplicated = try deduplicateIfNeeded(zone: zone)
        }
    }

    /// Applies one set inside `tx`. With `holdNewRows`, an object whose stamps are all past the
    /// zone's clock is taken to be new and its row held back (`NewRow.held`): the caller
    /// applies the set again without holding should one exist after all.
    private func apply(
        _ set: ChangeSet, from sender: PeerID, signed: SignedSetRow?, in tx: Transaction, known: ZoneObjects,
        holdNewRows: Bool
    ) throws -> ApplyReport {
        var report = ApplyReport()
        let changesBefore = tx.changeCount
        let db = tx.db
        guard let side = try ownerSide(of: set.zone, db) else { throw SyncError.unknownZone(set.zone) }
        let current = try loadClock(set.zone, db)
        guard current.dominates(set.since) else {
            throw SyncError.notReady(zone: set.zone, have: current, need: set.since)
        }
        if let signed { try storeSignedSet(signed, zone: set.zone, db) }
        let ordered = Self.byEntity(set.objects)
        let context = ApplyContext(
            zone: set.zone, owner: side, sender: sender, sibling: isSibling(sender),
            aheadLimit: limits.aheadLimit(wall: clock.wall()), known: known)
        for index in ordered {
            let object = set.objects[index]
            do {
                let own = deliverable(object, context)
                let new: NewRow =
                    holdNewRows && own.fields.allSatisfy({ $0.stamp.hlc > current[$0.stamp.peer] })
                    ? .held : .now
                let winners: [(UInt8, SQLValue, Stamp)]
                if let inserted = try insertIfNew(own, context, tx, new) {
                    winners = inserted
                } else {
                    // The merge reads the object's row: if it is held, it goes in first.
                    try tx.insertHeld(ObjectKey(entity: object.entity, id: object.id))
                    let (merged, stale, existing, prior) = try merge(own, context, tx)
                    report.stale += stale
                    if object.entity == .photo, existing != nil,
                        let hash = try releasedData(object.id, by: merged, db)
                    {
                        report.releasedData.insert(hash)
                    }
                    try tx.write(
                        object.entity, object.id, zone: set.zone, merged, existing: existing, prior: prior)
                    winners = merged
                }
                report.stale += object.fields.count - own.fields.count
                report.applied += winners.count
                if object.entity == .photo, let named = try namedData(own, db) {
                    report.namedData.append(named)
                }
                if !winners.isEmpty { context.noteInZone(object.entity, object.id) }
                if object.entity == .share || object.entity == .participant {
                    context.permissions = [:]
                    try known.forget(after: tx)
                }
                if !winners.isEmpty && (object.entity == .tag || object.entity == .link) {
                    report.touchedTags = true
                }
            } catch let refusal as ChangeRefusal {
                if context.checksAhead {
                    for field in object.fields where field.stamp.peer == sender {
                        context.refusedLowest[sender] = min(
                            context.refusedLowest[sender] ?? .max, field.stamp.hlc)
                    }
                }
                report.refused.append(
                    Refusal(
                        entity: object.entity, id: object.id, reason: refusal.reason,
                        fields: object.fields.map { FieldStamp(code: $0.field, stamp: $0.stamp) },
                        waitsForReference: refusal.waitsForReference,
                        forWantOfPermission: refusal.forWantOfPermission))
            }
        }
        // A participant vouches only for its own changes; the owner, who relays, for
        // everyone's. A participant's refused change is not claimed: it is sent again
        // until its author has undone it (a refusal notice lost with its connection is
        // then sent again), and one refused for being stamped too far ahead leaves the
        // clock where it was, so that what the author writes once its clock is fixed is
        // taken.
        var vouched = context.relaysAsOwner ? set.until : VectorClock([sender: set.until[sender]])
        if context.checksAhead {
            for (peer, hlc) in vouched.entries {
                if context.refusedAhead[peer] != nil {
                    vouched[peer] = max(current[peer], context.highestTaken(by: peer))
                } else if let lowest = context.refusedLowest[peer] {
                    vouched[peer] = max(current[peer], min(hlc, context.aheadLimit, lowest - 1))
                } else {
                    vouched[peer] = min(hlc, context.aheadLimit)
                }
            }
        }
        // Between fellow participants (neither owns the zone) a sender's entry counts only
        // as far as the changes it sent: nothing else tells the owner of a claim made only
        // here, and a claim the owner never hears of would keep this replica from ever
        // agreeing with it. (To the owner, a participant may claim its entry past its
        // changes: that is how the owner learns of changes it refused and the author undid.)
        if !context.relaysAsOwner && !side.includes(localPeer) {
            vouched[sender] = min(
                vouched[sender], max(current[sender], context.highestTaken(by: sender)))
        }
        // A signed set (relayed: in its author's order, but in any order with others' sets)
        // moves its author's entry only over a chain held whole here. One whose changes were
        // refused for want of a record or photo that came later leaves the entry below it,
        // and the author's later sets do not carry it past: a delta sent from the entry (the
        // owner's, or the author's at their next connection) brings the refused changes again.
        if let signed {
            let author = signed.author
            if try !holdsChain(before: signed, current, zone: set.zone, db) {
                vouched[author] = current[author]
            } else if !report.refused.isEmpty {
                vouched[author] = min(vouched[author], max(current[author], signed.hlc - 1))
            }
        }
        try mergeClock(set.zone, with: vouched, db)
        // Only the clock moved (every object refused, or already held): the peers this
        // one relays to must hear of it too, or they never agree with it.
        report.clockOnly =
            tx.changeCount == changesBefore && vouched.entries.contains(where: { $0.value > current[$0.key] })
        return report
    }

    /// Whether `clock` covers the changes of every set of the author's chain before `signed`.
    private func holdsChain(before signed: SignedSetRow, _ clock: VectorClock, zone: String, _ db: Database)
        throws -> Bool
    {
        guard signed.seq > 1 else { return true }
        let previous = try db.first(
            "SELECT hlc FROM signed_sets WHERE zone = ? AND author = ? AND seq = ?", zone,
            signed.author.bytes,
            Int64(signed.seq - 1)
        ) { $0.uint64(0) }
        return previous.map { clock[signed.author] >= $0 } ?? false
    }

    /// The positions of `objects` by entity, in the order of `Entity` (shares and participants
    /// first, links last), and in their own order within one entity: a stable counting sort,
    /// as comparing and moving the objects themselves was a twentieth of an apply.
    static func byEntity(_ objects: [ObjectChange]) -> [Int] {
        var counts = [Int](repeating: 0, count: Entity.allCases.count + 2)
        for object in objects { counts[Int(object.entity.rawValue) + 1] += 1 }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var order = [Int](repeating: 0, count: objects.count)
        for (index, object) in objects.enumerated() {
            let slot = Int(object.entity.rawValue)
            order[counts[slot]] = index
            counts[slot] += 1
        }
        return order
    }

    /// The data hash a photo refers to before `winners` are written, when they delete the
    /// photo or point it at other data.
    private func releasedData(_ photo: String, by winners: [(UInt8, SQLValue, Stamp)], _ db: Database) throws
        -> String?
    {
        let releases = winners.contains { code, value, _ in
            (code == Entity.deletedField && value != .integer(0)) || code == PhotoField.dataHash.code
        }
        guard releases else { return nil }
        return try db.first("SELECT data_hash FROM photos WHERE id = ?", photo) { $0.optionalString(0) }
            ?? nil
    }

    private func mergeClock(_ zone: String, with until: VectorClock, _ db: Database) throws {
        for (peer, hlc) in until.entries {
            try db.run(
                """
                INSERT INTO clocks (zone, peer, hlc) VALUES (?, ?, ?)
                ON CONFLICT (zone, peer) DO UPDATE SET hlc = max(hlc, excluded.hlc)
                """, zone, try index(of: peer, db), hlc)
        }
    }

    /// Writes `object` as a new row without first looking its row up, when it is plainly
    /// new and acceptable: every object of a zone being received is new, and the lookup that
    /// found nothing was a tenth of an apply. Returns the fields written, or nil, having
    /// written nothing, when it lacks a field a new object has, a stamp is past the limit, a
    /// check refuses, or the row exists: `merge` then decides, as for any object, so what is
    /// refused and why stays its own. The row is inserted as `new` says (a held row found to
    /// exist undoes the whole transaction instead).
    private func insertIfNew(
        _ object: ObjectChange, _ context: ApplyContext, _ tx: Transaction, _ new: NewRow
    )
        throws -> [(UInt8, SQLValue, Stamp)]?
    {
        // An update of a few fields is not new: it goes to `merge` before any check here.
        guard !object.fields.isEmpty, isComplete(object),
            object.fields.allSatisfy({ $0.stamp.hlc <= context.aheadLimit })
        else { return nil }
        do {
            try checkAuthors(object, context, tx.db)
            var seen: UInt64 = 0
            for field in object.fields {
                try checkOnce(field, &seen)
                try validate(field, of: object.entity, context: context)
            }
            try checkReferences(object, context, tx.db)
        } catch is ChangeRefusal {
            return nil
        }
        let fields = object.fields.map { ($0.field, $0.value, $0.stamp) }
        guard try tx.write(object.entity, object.id, zone: context.zone, fields, new: new) else {
            return nil
        }
        // What `checkStamp` and `merge` note of each stamp taken.
        for field in object.fields {
            context.noteTaken(field.stamp)
            context.observe(field.stamp, clock: clock)
        }
        return fields
    }

    /// Refuses a field that appears twice in one object (codes of 64 and more are refused by
    /// `validate` at their first appearance).
    private func checkOnce(_ field: FieldChange, _ seen: inout UInt64) throws {
        guard field.field < 64 else { return }
        guard seen & (1 << field.field) == 0 else {
            throw ChangeRefusal("field \(field.field) appears twice")
        }
        seen |= 1 << field.field
    }

    /// Decides which fields of `object` win against what the store holds; throws a
    /// `ChangeRefusal` when the object must be refused as a whole.
    private func merge(
        _ object: ObjectChange, _ context: ApplyContext, _ tx: Transaction
    ) throws -> ([(UInt8, SQLValue, Stamp)], Int, Int64?, (zone: String, stamps: StampGroups)?) {
        let db = tx.db
        let entity = object.entity
        guard !object.fields.isEmpty else { return ([], 0, nil, nil) }
        try checkAuthors(object, context, db)
        var row = try db.first(EntitySQL.row(entity), object.id) { row in
            (0..<(entity.fields.count + 3)).map { row.value($0) }
        }
        var held = row.map { StampGroups($0[entity.fields.count + 2]) } ?? StampGroups()
        if let existing = row, case .text(let otherZone) = existing[0], otherZone != context.zone {
            // The owner may move an object between its zones (stopped, then shared again):
            // the stale copy of the old zone gives way. Anyone else is refused.
            guard context.relaysAsOwner, try ownerSide(of: otherZone, db)?.includes(context.sender) == true
            else {
                throw ChangeRefusal("the object belongs to another zone")
            }
            // A set of the old zone that arrives after the move (relayed late, or from a device
            // that has not seen the move) is stale there: the object stays where its newer
            // fields put it.
            if let highest = held.highestHLC, object.fields.allSatisfy({ $0.stamp.hlc < highest }) {
                return ([], object.fields.count, nil, nil)
            }
            try Self.forgetStamps(entity, object.id, db)
            try db.run(EntitySQL.delete(entity), object.id)
            try context.known.forget(after: tx)
            row = nil
            held = StampGroups()
        }
        // At most one stamp per field: a short list beats a dictionary. The stamps come with
        // the row (an object without a row has none).
        let stamps = fieldStamps(held, db)
        let tombstoned = row.map { $0[1] != .integer(0) } ?? false
        var seen: UInt64 = 0
        let immutable = entity.immutableFields
        for field in object.fields {
            try checkOnce(field, &seen)
            try checkStamp(field.stamp, context)
            try validate(field, of: entity, context: context)
            if let row, immutable.contains(field.field), let index = entity.position(of: field.field),
                row[index + 2] != .null, row[index + 2] != field.value
            {
                throw ChangeRefusal(
                    "field \(entity.column(for: field.field) ?? "?") cannot change after creation")
            }
        }
        if row == nil {
            try checkComplete(object)
            try checkReferences(object, context, db)
        }
        var winners: [(UInt8, SQLValue, Stamp)] = []
        winners.reserveCapacity(object.fields.count)
        var stale = 0
        for field in object.fields {
            context.observe(field.stamp, clock: clock)
            if tombstoned && field.field != Entity.deletedField {
                stale += 1
            } else if let old = stamps.first(where: { $0.code == field.field })?.stamp, field.stamp <= old {
                stale += 1
            } else {
                winners.append((field.field, field.value, field.stamp))
            }
        }
        let existing: Int64? = row.map { if case .integer(let v) = $0[1] { return v } else { return 0 } }
        let prior = row.map { row -> (zone: String, stamps: StampGroups) in
            guard case .text(let zone) = row[0] else { return ("", held) }
            return (zone, held)
        }
        return (winners, stale, existing, prior)
    }
}

extension LibraryStore {
    /// The data `photo` names, if it carries a data hash and no deletion; its size from the
    /// set, or from its row when the set changes the hash alone.
    fileprivate func namedData(_ photo: ObjectChange, _ db: Database) throws -> DataReference? {
        var hash: String?
        var size: Int64?
        for field in photo.fields {
            switch (field.field, field.value) {
            case (PhotoField.dataHash.code, .text(let text)): hash = text
            case (PhotoField.dataSize.code, .integer(let value)): size = value
            case (Entity.deletedField, .integer(let value)) where value != 0: return nil
            default: break
            }
        }
        guard let hash else { return nil }
        guard
            let size = try size
                ?? db.first("SELECT data_size FROM photos WHERE id = ?", photo.id, map: { $0.int64(0) })
        else { return nil }
        return DataReference(hash: hash, size: size)
    }
}

/// The outcome of applying one change set.
public struct ApplyReport: Sendable, Equatable {
    /// Field changes that won and were written.
    public var applied = 0
    /// Field changes the store already had, or that lost to newer ones.
    public var stale = 0
    /// Objects refused, with the reason.
    public var refused: [Refusal] = []
    /// Objects written by the deduplication that followed.
    public var deduplicated = 0
    var touchedTags = false
    /// Data hashes photos of this set no longer refer to (deleted, or pointed elsewhere).
    var releasedData: Set<String> = []
    /// The set moved the zone's clock without committing any change.
    var clockOnly = false
    /// The photo data this set names that its sender may give: that of each photo not
    /// refused and not deleted whose data-hash field the sender may deliver (a participant
    /// only its own), taken or not (a repeat names it again, for data still missing). What to
    /// fetch from the sender; data that is here already is found when its transfer opens.
    public internal(set) var namedData: [LibraryStore.DataReference] = []

    public init() {}
}

/// Why a change set could not be applied at all.
public enum SyncError: Error, Equatable, CustomStringConvertible {
    case unknownZone(String)
    /// The set was computed from a clock the receiver does not dominate: an earlier set is
    /// missing. Anti-entropy from the receiver's clock fixes it.
    case notReady(zone: String, have: VectorClock, need: VectorClock)

    public var description: String {
        switch self {
        case .unknownZone(let zone): return "change set for zone \(zone), which this store does not hold"
        case .notReady(let zone, let have, let need):
            return
                "change set for zone \(zone) needs clock \(need) but this store has \(have): resync from its clock"
        }
    }
}

/// What one apply knows about the zone, including the permissions it has looked up (a
/// membership change in the same set clears them).
final class ApplyContext {
    let zone: String
    /// The zone's owner: the device that created it, and its person's current devices.
    let owner: OwnerSide
    let sender: PeerID
    /// The sender speaks for the zone's owner: it is a current device of the owner (in the
    /// default zone, the person's own library, any device of this person), or another
    /// device of this person (whose copy of a share taken part in this device takes whole).
    /// It delivers every field, by whoever wrote it (the default zone holds objects other
    /// people wrote while they were shared), as the owner relays what it accepted.
    let relaysAsOwner: Bool
    var permissions: [PeerID: Permission] = [:]
    /// Photos and tags known to be in their zones, shared by the sets of one transaction.
    let known: ZoneObjects
    /// The highest stamp observed so far, so the clock's lock is taken only when it grows.
    private var observed: UInt64 = 0

    /// The highest HLC acceptable in this apply (`StoreLimits.maxClockAheadMilliseconds`
    /// past the wall clock, read once).
    let aheadLimit: UInt64
    /// Whether stamps past `aheadLimit` are refused: at the owner, receiving a participant's
    /// changes. A participant takes what the owner relays (the owner checked it), and only
    /// keeps its own clock from following stamps that far ahead.
    let checksAhead: Bool
    /// By author, the lowest stamp refused for being too far ahead, and the highest one that
    /// was not.
    var refusedAhead: [PeerID: UInt64] = [:]
    /// By author, in the order first seen: a set has one author or a few, and this is
    /// updated for every field applied (a dictionary's hashing was 1.4 % of an apply).
    private var taken: [(peer: PeerID, hlc: UInt64)] = []
    /// By author, the lowest stamp of a refused change (at the owner, from a participant).
    var refusedLowest: [PeerID: UInt64] = [:]

    init(
        zone: String, owner: OwnerSide, sender: PeerID, sibling: Bool = false, aheadLimit: UInt64,
        known: ZoneObjects = ZoneObjects()
    ) {
        self.zone = zone
        self.known = known
        self.owner = owner
        self.sender = sender
        relaysAsOwner = owner.includes(sender) || sibling
        self.aheadLimit = aheadLimit
        checksAhead = !relaysAsOwner
    }

    /// Whether `author` may have written the owner's records (the share and its
    /// participants): a current device of the owner, or, relayed by the owner's side, a
    /// device that was one when it wrote.
    func mayAdminister(_ author: PeerID) -> Bool {
        relaysAsOwner ? owner.included(author) : owner.includes(author)
    }

    func isInZone(_ entity: Entity, _ id: String) -> Bool {
        known.contains(entity, id, zone: zone)
    }

    func noteInZone(_ entity: Entity, _ id: String) {
        if entity == .photo || entity == .tag { known.note(entity, id, zone: zone) }
    }

    /// The highest stamp of `author` that was not refused for being too far ahead (0: none).
    func highestTaken(by author: PeerID) -> UInt64 {
        taken.first { $0.peer == author }?.hlc ?? 0
    }

    /// Notes a stamp that was not too far ahead.
    func noteTaken(_ stamp: Stamp) {
        if let i = taken.firstIndex(where: { $0.peer == stamp.peer }) {
            if stamp.hlc > taken[i].hlc { taken[i].hlc = stamp.hlc }
        } else {
            taken.append((stamp.peer, stamp.hlc))
        }
    }

    /// Moves the local clock past a received stamp, unless it is too far ahead.
    func observe(_ stamp: Stamp, clock: HybridLogicalClock) {
        guard stamp.hlc > observed, stamp.hlc <= aheadLimit else { return }
        observed = stamp.hlc
        clock.observe(stamp.hlc)
    }
}

extension LibraryStore {
    /// Refuses a stamp no peer can have made: past the year 4199 anywhere, or, at the owner,
    /// further ahead of this peer's clock than `maxClockAheadMilliseconds`.
    func checkStamp(_ stamp: Stamp, _ context: ApplyContext) throws {
        guard stamp.hlc > context.aheadLimit else {
            context.noteTaken(stamp)
            return
        }
        if stamp.hlc >= Stamp.invalidHLC {
            throw ChangeRefusal("invalid stamp \(stamp.hlc) by \(stamp.peer.short)")
        }
        guard context.checksAhead else { return }
        context.refusedAhead[stamp.peer] = min(context.refusedAhead[stamp.peer] ?? .max, stamp.hlc)
        let ahead =
            HybridLogicalClock.physical(of: stamp.hlc) - HybridLogicalClock.physical(of: context.aheadLimit)
            + limits.maxClockAheadMilliseconds
        throw ChangeRefusal(
            "stamped \(Self.describe(milliseconds: ahead)) ahead of this peer's clock (more than the "
                + "\(Self.describe(milliseconds: limits.maxClockAheadMilliseconds)) allowed): "
                + "check the author's system clock")
    }

    /// A duration as people read it: "90 ms", "42 s", "3 h", "12 days".
    static func describe(milliseconds: UInt64) -> String {
        switch milliseconds {
        case ..<1_000: return "\(milliseconds) ms"
        case ..<120_000: return "\(milliseconds / 1_000) s"
        case ..<7_200_000: return "\(milliseconds / 60_000) min"
        case ..<172_800_000: return "\(milliseconds / 3_600_000) h"
        default: return "\(milliseconds / 86_400_000) days"
        }
    }
}

/// Photos and tags known to be in a zone during one apply transaction: checked once, or
/// written by it. Objects leave a zone only when the owner moves them or membership changes,
/// and either empties it.
final class ZoneObjects {
    private var byZone: [String: Set<ObjectKey>] = [:]

    func contains(_ entity: Entity, _ id: String, zone: String) -> Bool {
        byZone[zone]?.contains(ObjectKey(entity: entity, id: id)) ?? false
    }

    func note(_ entity: Entity, _ id: String, zone: String) {
        byZone[zone, default: []].insert(ObjectKey(entity: entity, id: id))
    }

    /// Forgets every object noted, which is then looked up in its table again: the rows `tx`
    /// holds back go in first (`Transaction.insertHeldRows`), or they would not be found.
    func forget(after tx: Transaction) throws {
        try tx.insertHeldRows()
        byZone = [:]
    }
}

struct ChangeRefusal: Error {
    let reason: String
    /// Refused for now: the change refers to a photo or tag this store has not received.
    let waitsForReference: Bool
    /// Refused because the records held here do not let its author write.
    let forWantOfPermission: Bool
    init(_ reason: String, waitsForReference: Bool = false, forWantOfPermission: Bool = false) {
        self.reason = reason
        self.waitsForReference = waitsForReference
        self.forWantOfPermission = forWantOfPermission
    }
}
