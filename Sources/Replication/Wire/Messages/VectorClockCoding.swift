import Store

/// Vector clocks and zone IDs as replication messages carry them.
///
/// A clock is `u16 count`, then `count` × (`peer ID (32)` `hlc (u64)`), entries in peer-ID
/// order so that equal clocks encode to equal bytes. Zero entries are never written.
extension BinaryWriter {
    public mutating func write(_ clock: VectorClock) {
        let entries = clock.entries.sorted { $0.key < $1.key }
        precondition(entries.count <= Int(UInt16.max), "a clock has at most 65,535 entries")
        write(UInt16(entries.count))
        for (peer, hlc) in entries {
            write(peer)
            write(hlc)
        }
    }
}

extension BinaryReader {
    /// A clock of at most `limits.maxClockEntries` entries; a repeated peer or a zero entry is
    /// refused, since no honest encoder writes one.
    public mutating func readVectorClock(_ field: String, limits: MessageLimits) throws(WireError)
        -> VectorClock
    {
        let count = Int(try readUInt16(field + " size"))
        guard count <= limits.maxClockEntries else {
            throw .fieldTooLarge(field: field, length: count, maximum: limits.maxClockEntries)
        }
        guard count * 40 <= remaining else {
            throw .truncated(field: field, needed: count * 40, remaining: remaining)
        }
        var clock = VectorClock()
        for _ in 0..<count {
            let peer = try readPeerID(field + " peer")
            let hlc = try readUInt64(field + " entry")
            guard hlc > 0, clock[peer] == 0 else {
                throw .invalidValue(field: field, reason: "repeated peer or zero entry")
            }
            clock[peer] = hlc
        }
        return clock
    }

    /// A zone ID: a non-empty string of at most `limits.maxZoneIDBytes` bytes.
    public mutating func readZoneID(_ field: String, limits: MessageLimits) throws(WireError) -> String {
        let zone = try readString(field, maximumBytes: limits.maxZoneIDBytes)
        guard !zone.isEmpty else { throw .invalidValue(field: field, reason: "empty zone ID") }
        return zone
    }
}
