import Store

extension SeqVector {
    /// `u16` count, then per author (sorted by ID, without repeats): 32-byte device ID,
    /// `u64` seq (≥ 1).
    public var encoded: [UInt8] {
        var writer = BinaryWriter(capacity: 2 + entries.count * 40)
        precondition(entries.count <= Self.maximumEntries, "a seq vector names at most 4,096 authors")
        writer.write(UInt16(entries.count))
        for (author, seq) in entries.sorted(by: { $0.key < $1.key }) {
            writer.write(author)
            writer.write(seq)
        }
        return writer.bytes
    }

    /// Decodes a vector strictly: at most `maximumEntries`, sorted, no repeats, no zero seq,
    /// nothing after.
    public init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = BinaryReader(bytes)
        let count = Int(try reader.readUInt16("seq vector size"))
        guard count <= Self.maximumEntries else {
            throw .fieldTooLarge(field: "seq vector", length: count, maximum: Self.maximumEntries)
        }
        var entries: [PeerID: UInt64] = [:]
        var previous: PeerID?
        for _ in 0..<count {
            let author = try reader.readPeerID("seq vector author")
            let seq = try reader.readUInt64("seq vector seq")
            if let previous, !(previous < author) {
                throw .invalidValue(field: "seq vector", reason: "authors not sorted or repeated")
            }
            guard seq > 0 else {
                throw .invalidValue(field: "seq vector seq", reason: "0 (authors without sets are left out)")
            }
            entries[author] = seq
            previous = author
        }
        try reader.expectEnd(of: "seq vector")
        self.init(entries)
    }
}
