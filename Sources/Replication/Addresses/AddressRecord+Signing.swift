import Store
import Support

/// Making and checking the signature of an address record.
extension AddressRecord {
    /// What the signature covers before the body: keeps a record from passing for a
    /// membership operation, a device-list entry or a set, and the reverse.
    static let domainTag = Array("peershare addresses v1\0".utf8)

    /// A record of `addresses` (at most `MessageLimits.maxAddresses`, wildcards dropped)
    /// signed by `identity`.
    public static func signed(addresses: [PeerAddress], version: UInt64, by identity: PeerIdentity)
        -> AddressRecord
    {
        let kept = Array(addresses.filter { !$0.isWildcard }.prefix(MessageLimits().maxAddresses))
        let body = body(device: identity.peerID, version: version, addresses: kept)
        return AddressRecord(
            device: identity.peerID, version: version, addresses: kept,
            signature: Signature.sign(domainTag + body, with: identity), certificate: identity.certificateDER)
    }

    /// Whether the certificate is the device's (its SHA-256 is the device ID) and the
    /// signature is by its key over this record.
    public var isAuthentic: Bool {
        SHA256Hasher.digest(certificate) == device.bytes
            && Signature.verify(signature, of: Self.domainTag + body, certificateDER: certificate)
    }
}
