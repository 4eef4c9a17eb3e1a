/// This device's own signed change sets: one per local transaction and zone, written in
/// the transaction itself, so that no committed local change is ever without its set.
extension LibraryStore {
    /// From now on every local transaction also records its signed sets (`signed_sets`).
    public func signOwnSets(with signer: OwnSetSigner) {
        lock.withLock { ownSetSigner = signer }
    }

    /// This device's signed sets of `zone`, in order: `seq`, hash and encoded bytes.
    public func ownSignedSets(zone: String) throws -> [(seq: UInt64, hash: [UInt8], bytes: [UInt8])] {
        try read { db in
            try db.query(
                "SELECT seq, hash, bytes FROM signed_sets WHERE zone = ? AND author = ? ORDER BY seq", zone,
                localPeer.bytes
            ) { ($0.uint64(0), $0.bytes(1), $0.bytes(2)) }
        }
    }

    /// Signs and stores the fields this transaction wrote to `zone` with its stamp, as the
    /// next set of this device's chain in that zone.
    func recordOwnSet(zone: String, stamp: Stamp, signer: OwnSetSigner, _ db: Database) throws {
        let selfIndex = try index(of: localPeer, db)
        var fields: [PendingField] = []
        try db.forEach(
            "SELECT entity, object, field FROM stamps WHERE zone = ? AND peer = ? AND hlc = ?", zone,
            selfIndex,
            stamp.hlc
        ) { row in
            guard let entity = Entity(rawValue: UInt8(row.int(0))) else { return }
            fields.append(
                PendingField(
                    stamp: stamp, key: ObjectKey(entity: entity, id: row.string(1)), field: UInt8(row.int(2)))
            )
        }
        guard !fields.isEmpty else { return }
        fields.sort()
        let set = ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([localPeer: stamp.hlc]),
            objects: try group(fields[...], db))
        let last = try db.first(
            "SELECT seq, hash FROM signed_sets WHERE zone = ? AND author = ? ORDER BY seq DESC LIMIT 1", zone,
            localPeer.bytes
        ) { ($0.uint64(0), $0.bytes(1)) }
        let seq = (last?.0 ?? 0) + 1
        let record = signer.sign(set, seq: seq, previous: last?.1)
        try db.run(
            "INSERT INTO signed_sets (zone, author, seq, hash, hlc, bytes) VALUES (?, ?, ?, ?, ?, ?)", zone,
            localPeer.bytes, Int64(seq), record.hash, Int64(stamp.hlc), record.bytes)
    }
}
