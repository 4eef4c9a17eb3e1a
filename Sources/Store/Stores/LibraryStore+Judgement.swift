/// The records a permission refusal was judged by, sent with its notice, so that the author
/// can tell a verdict from a device whose records are behind its own.
///
/// Why: a person's devices are all the zone's owner, and each judges a participant's write
/// by the records it holds. When one device has changed the participant's permission and
/// another has not heard of it yet, the second refuses what the first takes (and passes on).
/// Undone on its author, such a change would stay on every owner device but not on the
/// author's copy. So a refusal for want of permission carries the refusing side's records of
/// the author; an author holding a newer version of them keeps its change (the refusing side's
/// clock does not claim it, so it is sent again), and undoes it otherwise.
extension LibraryStore {
    /// This store's participant records of `author` in `zone` (its device's, and its
    /// persons'), every field with value and stamp: what its permission was judged by here.
    public func recordsJudging(author: PeerID, zone: String) throws -> [ObjectChange] {
        let persons = deviceGroups.withLock { $0.persons(of: author) }.map(\.description)
        let ids = try read { db in
            var ids = [Self.participantID(zone: zone, peer: author)]
            for person in persons {
                ids += try db.query(
                    "SELECT id FROM participants WHERE zone = ? AND person = ?", zone, person
                ) { $0.string(0) }
            }
            return ids
        }
        return try currentVersions(zone: zone, of: Set(ids).sorted().map { (.participant, $0) })
    }

    /// Whether this store holds a newer version than `records` (participant records a peer
    /// judged a refusal by) of a record's permission or status: the peer's records were
    /// behind. This device's own writes (its leave) do not count.
    public func holdsNewerRecords(than records: [ObjectChange], zone: String) throws -> Bool {
        let judged = [ParticipantField.permission.code, ParticipantField.status.code]
        return try read { db in
            for record in records where record.entity == .participant {
                for (code, stamp) in try fieldStamps(.participant, record.id, db)
                where judged.contains(code) && stamp.peer != localPeer {
                    let theirs = record.fields.first { $0.field == code }?.stamp
                    if theirs.map({ $0 < stamp }) ?? true { return true }
                }
            }
            return false
        }
    }
}
