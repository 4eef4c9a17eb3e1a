import Store

/// The store's signer of this device's own change sets: the `ChangeSetCodec` bytes of each
/// set, signed with the device's key as the next link of its chain in the zone.
struct OwnSetSigning: OwnSetSigner {
    let identity: PeerIdentity

    func sign(_ set: ChangeSet, seq: UInt64, previous: [UInt8]?) -> SignedSetRecord {
        let signed = SignedChangeSet.sign(
            zone: set.zone, seq: seq, prevHash: previous ?? SignedSetHeader.noPrevious,
            body: ChangeSetCodec.encode(set), by: identity)
        return SignedSetRecord(hash: signed.hash, bytes: signed.encoded)
    }
}
