import Store

/// Author device → highest contiguous seq held, for one zone: what a peer tells another in
/// anti-entropy so that each sends the sets the other lacks, oldest first per author.
///
/// Why a vector of seqs: chains are contiguous, so one number per author says exactly
/// which sets a peer holds, and comparing two vectors gives the missing ranges.
public struct SeqVector: Hashable, Sendable {
    /// Authors one encoded vector may name: a zone's devices, with a wide margin.
    public static let maximumEntries = 4_096

    /// Only authors with at least one set (seq ≥ 1).
    public private(set) var entries: [PeerID: UInt64]

    public init(_ entries: [PeerID: UInt64] = [:]) {
        self.entries = entries.filter { $0.value > 0 }
    }

    /// The highest contiguous seq held of `author`; 0 for none.
    public subscript(author: PeerID) -> UInt64 {
        entries[author] ?? 0
    }

    /// Raises `author`'s seq to `seq` (never lowers it).
    public mutating func advance(_ author: PeerID, to seq: UInt64) {
        if seq > self[author] { entries[author] = seq }
    }

    /// The sets this vector holds and `other` lacks, by author (sorted by author ID).
    public func missing(from other: SeqVector) -> [SeqRange] {
        entries.keys.sorted().compactMap { author in
            let have = self[author]
            let theirs = other[author]
            return have > theirs ? SeqRange(author: author, seqs: (theirs + 1)...have) : nil
        }
    }
}
