/// A place on an author's chain: a set's seq and hash. A removal's cut-off is one.
public struct ChainLink: Hashable, Sendable {
    public let seq: UInt64
    public let hash: [UInt8]

    public init(seq: UInt64, hash: [UInt8]) {
        self.seq = seq
        self.hash = hash
    }
}
