/// Signs the change sets this device writes, as they commit.
///
/// Why: members will relay each other's changes, so each local transaction's changes to a
/// zone are kept as the author signed them (`signed_sets`), numbered and chained per zone.
/// The store holds no keys and no wire format: the replication layer, which has both,
/// gives it a signer.
public protocol OwnSetSigner: Sendable {
    /// `set` signed as this device's set number `seq` of its zone, after the set whose hash
    /// is `previous` (nil for the first).
    func sign(_ set: ChangeSet, seq: UInt64, previous: [UInt8]?) -> SignedSetRecord
}

/// A signed set as stored: its hash (what the next set names) and its encoded bytes.
public struct SignedSetRecord: Hashable, Sendable {
    public let hash: [UInt8]
    public let bytes: [UInt8]

    public init(hash: [UInt8], bytes: [UInt8]) {
        self.hash = hash
        self.bytes = bytes
    }
}
