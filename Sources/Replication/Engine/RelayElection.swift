import Store

/// Which members pass an author's signed sets on to a peer that is not connected to the author
/// (docs/PROTOCOL.md §7.8, *Who passes sets on*).
///
/// Without it, every member connected to both the author and the peer sends the peer a copy
/// of each set, and the peer keeps the first and skips the rest: with 50 participants and the
/// owner away, one change cost the zone about 45 copies for each participant its author was not
/// connected to, most of the round's CPU. Each member computes the same choice from what it was
/// told (§7.9): among the peer's neighbours that are also the author's, itself included, the
/// `count` with the lowest score, a mix of their ID with the pair's (so that every member is
/// elected about as often, whichever IDs the pairs have). Views that disagree for a
/// moment (a neighbours message in flight) may make a third member send too, or, rarely, none:
/// a relayer the peer loses makes its other neighbours send what it lacks (§7.9), and a gap a
/// later set shows is asked for again (§7.8).
enum RelayElection {
    /// Members elected per author and peer: one more than needed, so that one of them being
    /// slow, gone or of another view still leaves a copy on its way.
    static let count = 2

    /// Whether `member` is among the `count` elected to pass `author`'s sets to `peer`, among
    /// `candidates` (the members connected to both, as `member` knows them; `member` is counted
    /// in whether or not it is listed).
    static func elects(
        _ member: PeerID, toPass author: PeerID, to peer: PeerID, among candidates: Set<PeerID>
    ) -> Bool {
        elected(toPass: author, to: peer, among: candidates.union([member])).contains(member)
    }

    /// The `count` members elected among `candidates` to pass `author`'s sets to `peer`.
    static func elected(toPass author: PeerID, to peer: PeerID, among candidates: some Sequence<PeerID>)
        -> [PeerID]
    {
        let key = key(author, peer)
        var best: [(UInt64, PeerID)] = []
        for candidate in candidates {
            let entry = (score(candidate, key), candidate)
            guard best.count < count || entry < best[best.count - 1] else { continue }
            best.insert(entry, at: best.firstIndex { entry < $0 } ?? best.count)
            if best.count > count { best.removeLast() }
        }
        return best.map(\.1)
    }

    private static func key(_ author: PeerID, _ peer: PeerID) -> UInt64 {
        mix(author.leadingWord ^ mix(peer.leadingWord))
    }

    private static func score(_ member: PeerID, _ key: UInt64) -> UInt64 { mix(member.leadingWord ^ key) }

    /// A bijection of 64 bits in which every input bit changes about half the output bits
    /// (MurmurHash3's finaliser): XOR alone ranks members by their place in the ID space,
    /// and one far from the others would be elected for half the pairs.
    private static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }
}
