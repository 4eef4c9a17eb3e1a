/// What a receiver holding some of an author's chain makes of one more of its headers
/// (signature already checked).
public enum ChainVerdict: Hashable, Sendable {
    /// The next set of the chain: accept it.
    case next
    /// A set already held (same seq, same hash): drop it.
    case duplicate
    /// Sets between the held chain and this one are missing: ask for `need`, keep this one.
    case gap(need: ClosedRange<UInt64>)
    /// The author signed two different sets at one place of its chain (the same seq with
    /// another hash, or a set that does not follow the one held before it): evidence of
    /// equivocation, to keep and report; never applied.
    case conflict
    /// A set of a removed device beyond its cut-off: made after its removal, refused.
    case afterCutoff
    /// A set of a removed device at or below its cut-off that is not on the chain ending at
    /// the cut-off's hash: the device backdated it, refused.
    case offCutoffChain
    /// A set of a removed device below its cut-off, not yet known to lie on the chain ending
    /// at the cut-off: ask for `need` (the sets above it, up to where the chain is known),
    /// keep this one and check it again once they have been seen.
    case unanchored(need: ClosedRange<UInt64>)
}
