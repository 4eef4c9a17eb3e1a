import Store
import Support

/// The signed part of a change set: which zone, which author device, where the set sits on
/// the author's chain (`seq`, `prevHash`), and which body it carries (`bodyHash`,
/// `bodyLength`), with the author's Ed25519 signature over all of it.
///
/// Why apart from the body: a set whose fields have all lost to later writes keeps only its
/// header, and the header alone is still a verifiable link of the author's chain (its
/// `hash` covers the signature, and through `bodyHash` the body it once had). Layout in
/// docs/PROTOCOL.md, "Signed change sets".
public struct SignedSetHeader: Hashable, Sendable {
    /// The format of the signed bytes; a newer one is refused, not guessed at.
    public static let formatVersion: UInt8 = 1
    public static let maximumZoneBytes = 200
    /// Bytes of `prevHash`, `bodyHash` and `hash` (SHA-256).
    public static let hashSize = 32
    /// The `prevHash` of an author's first set in a zone.
    public static let noPrevious = [UInt8](repeating: 0, count: hashSize)
    /// Separates what a device signs here from what it signs elsewhere (device lists).
    static let domain = Array("peershare change set v1\0".utf8)

    public let zone: String
    public let author: PeerID
    /// 1, 2, 3… per author per zone.
    public let seq: UInt64
    /// The `hash` of the author's set `seq - 1` in this zone; `noPrevious` for seq 1.
    public let prevHash: [UInt8]
    /// SHA-256 of the body.
    public let bodyHash: [UInt8]
    public let bodyLength: Int
    public let signature: [UInt8]
    /// SHA-256 of the header fields and the signature: how the next set names this one.
    public let hash: [UInt8]
    /// The encoded fields, without the signature.
    let fields: [UInt8]

    init(
        zone: String, author: PeerID, seq: UInt64, prevHash: [UInt8], bodyHash: [UInt8], bodyLength: Int,
        signature: [UInt8]
    ) {
        self.zone = zone
        self.author = author
        self.seq = seq
        self.prevHash = prevHash
        self.bodyHash = bodyHash
        self.bodyLength = bodyLength
        self.signature = signature
        self.fields = Self.encodeFields(zone, author, seq, prevHash, bodyHash, bodyLength)
        self.hash = SHA256Hasher.digest(fields + signature)
    }

    /// The header alone, as kept and sent once the body is gone: fields, then signature.
    public var encoded: [UInt8] { fields + signature }

    /// What the author signs: the domain tag, then the fields (public for the benchmark).
    public var signedMessage: [UInt8] { Self.domain + fields }

    /// Checks that the header belongs to `zone` and that its author signed it, with the
    /// author's key from `keys` (or from the certificate `certificates` gives for it on a miss).
    public func verify(zone: String, keys: PublicKeyCache, certificates: (PeerID) -> [UInt8]?)
        throws(SignedSetError)
    {
        guard self.zone == zone else { throw .wrongZone(expected: zone, found: self.zone) }
        let key = try keys.key(for: author, certificates: certificates)
        guard key.verify(signature, of: signedMessage) else { throw .badSignature(author: author, seq: seq) }
    }

    /// The link this header makes: its seq and hash.
    public var link: ChainLink { ChainLink(seq: seq, hash: hash) }

    private static func encodeFields(
        _ zone: String, _ author: PeerID, _ seq: UInt64, _ prevHash: [UInt8], _ bodyHash: [UInt8],
        _ bodyLength: Int
    ) -> [UInt8] {
        var writer = BinaryWriter(capacity: 128 + zone.utf8.count)
        writer.write(formatVersion)
        writer.write(zone)
        writer.write(author)
        writer.write(seq)
        writer.writeFixed(prevHash)
        writer.writeFixed(bodyHash)
        writer.write(UInt32(bodyLength))
        return writer.bytes
    }
}
