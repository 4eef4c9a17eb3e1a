import Store

/// Some consecutive sets of one author: what one peer asks another for.
public struct SeqRange: Hashable, Sendable {
    public let author: PeerID
    public let seqs: ClosedRange<UInt64>

    public init(author: PeerID, seqs: ClosedRange<UInt64>) {
        self.author = author
        self.seqs = seqs
    }
}
