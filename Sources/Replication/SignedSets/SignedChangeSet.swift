import Store
import Support

/// A change set as its author signed it: the signed header, then the body (the
/// `ChangeSetCodec` bytes, opaque here).
///
/// Why: once members relay each other's changes, a relay must not be able to forge, alter,
/// reorder or move a set to another zone. The author signs the header, which names the zone,
/// the set's place on the author's chain and the body's SHA-256; relays pass on these bytes
/// unchanged. Encoded: header fields, signature, body (its length is in the header).
public struct SignedChangeSet: Hashable, Sendable {
    public let header: SignedSetHeader
    public let body: [UInt8]

    init(header: SignedSetHeader, body: [UInt8]) {
        self.header = header
        self.body = body
    }

    /// The set's hash (its header's): how the author's next set names it.
    public var hash: [UInt8] { header.hash }

    /// Signs `body` as set `seq` of `identity`'s device in `zone`, following the set whose
    /// hash is `prevHash` (`SignedSetHeader.noPrevious` for seq 1).
    public static func sign(
        zone: String, seq: UInt64, prevHash: [UInt8], body: [UInt8], by identity: PeerIdentity
    ) -> SignedChangeSet {
        precondition(zone.utf8.count <= SignedSetHeader.maximumZoneBytes, "zone IDs are at most 200 bytes")
        precondition(seq >= 1 && prevHash.count == SignedSetHeader.hashSize, "sets count from 1")
        precondition((seq == 1) == (prevHash == SignedSetHeader.noPrevious), "only set 1 has no previous set")
        precondition(body.count <= Int(UInt32.max), "a set's body is under 4 GiB")
        let unsigned = SignedSetHeader(
            zone: zone, author: identity.peerID, seq: seq, prevHash: prevHash,
            bodyHash: SHA256Hasher.digest(body), bodyLength: body.count, signature: [])
        let header = SignedSetHeader(
            zone: zone, author: identity.peerID, seq: seq, prevHash: prevHash, bodyHash: unsigned.bodyHash,
            bodyLength: body.count, signature: Signature.sign(unsigned.signedMessage, with: identity))
        return SignedChangeSet(header: header, body: body)
    }

    /// Header fields, signature, body.
    public var encoded: [UInt8] { header.encoded + body }

    /// Decodes a set and checks that its body is the one the header names; refuses a body
    /// longer than `maximumBodyBytes` before reading it. The signature is checked by `verify`.
    public init(decoding bytes: [UInt8], maximumBodyBytes: Int) throws(SignedSetError) {
        var reader = BinaryReader(bytes)
        let header = try SignedSetHeader.read(from: &reader)
        guard header.bodyLength <= maximumBodyBytes else {
            throw .bodyTooLarge(length: header.bodyLength, maximum: maximumBodyBytes)
        }
        let body = try wire { () throws(WireError) in try reader.readFixed(header.bodyLength, "body") }
        try wire { () throws(WireError) in try reader.expectEnd(of: "signed change set") }
        guard SHA256Hasher.digest(body) == header.bodyHash else {
            throw .bodyHashMismatch(author: header.author, seq: header.seq)
        }
        self.init(header: header, body: body)
    }

    /// Checks that the set belongs to `zone` and that its author signed it (the body is
    /// bound to the header by decoding).
    public func verify(zone: String, keys: PublicKeyCache, certificates: (PeerID) -> [UInt8]?)
        throws(SignedSetError)
    {
        try header.verify(zone: zone, keys: keys, certificates: certificates)
    }
}
