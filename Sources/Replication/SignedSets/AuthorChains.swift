import Store

/// Every author's chain of signed change sets in one zone, as one receiver holds it: for
/// each author device, the highest contiguous seq held and the hashes up to it, and the
/// cut-offs of removed devices.
///
/// Why: a set is accepted only as the next link of its author's chain, so a relay cannot
/// drop a set from the middle, replay an old one, or slip in a second set at a taken place
/// without every receiver seeing it; and a removed device cannot add sets after its
/// cut-off or backdate new ones below it. Pure: the caller checks signatures first, then
/// acts on each `ChainVerdict` (asks for what is missing, keeps what waits, reports
/// conflicts).
public struct AuthorChains: Hashable, Sendable {
    public let zone: String
    private var chains: [PeerID: AuthorChain] = [:]

    /// Chains of `zone`, with the cut-offs of its removed devices.
    public init(zone: String, cutoffs: [PeerID: ChainLink] = [:]) {
        self.zone = zone
        raiseCutoffs(cutoffs)
    }

    /// Adds cut-offs; they only grow: a lower seq than the one held for a device is ignored
    /// (equal seqs keep the smaller hash).
    public mutating func raiseCutoffs(_ cutoffs: [PeerID: ChainLink]) {
        for (device, link) in cutoffs { chains[device, default: AuthorChain()].raiseCutoff(to: link) }
    }

    /// The cut-off held for `device`, if it was removed.
    public func cutoff(of device: PeerID) -> ChainLink? { chains[device]?.cutoff }

    /// What `header` is to the chain of its author.
    public func check(_ header: SignedSetHeader) -> ChainVerdict {
        precondition(header.zone == zone, "a header of zone \(header.zone) checked against zone \(zone)")
        return (chains[header.author] ?? AuthorChain()).check(header)
    }

    /// Checks `header` and records what it proves: a `.next` set advances its author's chain;
    /// a set on a removed device's cut-off chain also makes the set before it checkable.
    /// Other verdicts change nothing.
    @discardableResult
    public mutating func accept(_ header: SignedSetHeader) -> ChainVerdict {
        precondition(header.zone == zone, "a header of zone \(header.zone) accepted into zone \(zone)")
        return chains[header.author, default: AuthorChain()].accept(header)
    }

    /// The highest contiguous seq held of `author` (0: none), and its hash.
    public func held(_ author: PeerID) -> ChainLink? {
        guard let chain = chains[author], chain.held > 0 else { return nil }
        return ChainLink(seq: chain.held, hash: chain.top)
    }

    /// The hash of `author`'s set `seq`, if held.
    public func hash(of author: PeerID, seq: UInt64) -> [UInt8]? {
        guard let chain = chains[author], seq >= 1, seq <= chain.held else { return nil }
        return chain.hashes[Int(seq - 1)]
    }

    /// Author → highest contiguous seq held, for anti-entropy.
    public var vector: SeqVector {
        SeqVector(chains.compactMapValues { $0.held > 0 ? $0.held : nil })
    }
}
