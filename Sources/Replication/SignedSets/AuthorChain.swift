/// One author's chain in one zone, as a receiver holds it: the hashes of sets 1…`held`,
/// the author's cut-off if the device was removed, and the hashes known to lie on the chain
/// ending at that cut-off above what is held.
struct AuthorChain: Hashable, Sendable {
    /// `hashes[i]` is the hash of set `i + 1`.
    private(set) var hashes: [[UInt8]] = []
    private(set) var cutoff: ChainLink?
    /// For a removed device: seq → hash of the set on the cut-off's chain, for seqs from
    /// `anchorFloor` up to the cut-off, all above `held`.
    private(set) var anchors: [UInt64: [UInt8]] = [:]

    var held: UInt64 { UInt64(hashes.count) }
    var top: [UInt8] { hashes.last ?? SignedSetHeader.noPrevious }
    /// The lowest seq whose place on the cut-off's chain is known.
    private var anchorFloor: UInt64 { anchors.keys.min() ?? held + 1 }

    func check(_ header: SignedSetHeader) -> ChainVerdict {
        let seq = header.seq
        if let cutoff, seq > cutoff.seq { return .afterCutoff }
        if seq <= held { return hashes[Int(seq - 1)] == header.hash ? .duplicate : .conflict }
        if cutoff != nil {
            guard let anchored = anchors[seq] else { return .unanchored(need: (seq + 1)...anchorFloor) }
            if anchored != header.hash { return .offCutoffChain }
        }
        if seq > held + 1 { return .gap(need: (held + 1)...(seq - 1)) }
        return header.prevHash == top ? .next : .conflict
    }

    /// Checks `header`, appends it when it is `.next`, and learns the hash of the set before
    /// it when it lies on a cut-off's chain.
    mutating func accept(_ header: SignedSetHeader) -> ChainVerdict {
        let verdict = check(header)
        switch verdict {
        case .next:
            hashes.append(header.hash)
            anchors[header.seq] = nil
        case .gap where cutoff != nil:
            // An anchored set (else the verdict would be .unanchored): its previous hash is
            // on the cut-off's chain too. Learning it needs no trust: the hashes match.
            anchors[header.seq - 1] = header.prevHash
        default: break
        }
        return verdict
    }

    /// Records a cut-off, keeping the higher one (equal seqs: the smaller hash, so every
    /// peer keeps the same one whatever order two removals arrive in).
    mutating func raiseCutoff(to link: ChainLink) {
        if let cutoff,
            cutoff.seq > link.seq
                || (cutoff.seq == link.seq && !link.hash.lexicographicallyPrecedes(cutoff.hash))
        {
            return
        }
        cutoff = link
        anchors = link.seq > held ? [link.seq: link.hash] : [:]
    }
}
