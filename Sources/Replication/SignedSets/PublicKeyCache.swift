import Store
import Support

/// The public keys of the devices whose signatures a peer checks, parsed once each and kept
/// up to a bound, least recently used first out.
///
/// Why: a receiver checks one signature per change set, and the author's certificate would
/// otherwise be parsed for each. Keyed by device ID; a certificate is cached under an ID only
/// when its SHA-256 is that ID, so a wrong certificate cannot stand in for a device's key.
/// Thread-safe: sessions of several peers check sets at once.
public final class PublicKeyCache: @unchecked Sendable {
    /// Keys kept by default: more devices than a peer's zones usually hold (a key is about
    /// 200 bytes with OpenSSL's bookkeeping).
    public static let defaultCapacity = 1_024

    public let capacity: Int
    private let lock = Lock()
    private var keys: [PeerID: (key: PublicKey, lastUse: UInt64)] = [:]
    private var uses: UInt64 = 0

    public init(capacity: Int = PublicKeyCache.defaultCapacity) {
        precondition(capacity > 0, "a key cache holds at least one key")
        self.capacity = capacity
    }

    /// How many keys are held.
    public var count: Int { lock.withLock { keys.count } }

    /// The key of `device`: the cached one, or the one in the certificate `certificates` gives
    /// for it (asked only on a miss; nil when the device's certificate is unknown).
    public func key(for device: PeerID, certificates: (PeerID) -> [UInt8]?) throws(SignedSetError)
        -> PublicKey
    {
        if let key = cached(device) { return key }
        guard let certificate = certificates(device) else { throw .unknownAuthor(device) }
        guard let key = PublicKey(certificateDER: certificate) else {
            throw .unusableCertificate(device, reason: "it is malformed or its key is not Ed25519")
        }
        guard key.device == device else {
            throw .unusableCertificate(device, reason: "it is the certificate of device \(key.device)")
        }
        insert(key)
        return key
    }

    /// Whether `signature` is `device`'s signature of `message`: false also when its
    /// certificate is unknown or unusable. The same answers as `Signature.verify` with that
    /// certificate.
    public func verify(
        _ signature: [UInt8], of message: [UInt8], by device: PeerID, certificates: (PeerID) -> [UInt8]?
    ) -> Bool {
        guard let key = try? key(for: device, certificates: certificates) else { return false }
        return key.verify(signature, of: message)
    }

    private func cached(_ device: PeerID) -> PublicKey? {
        lock.withLock {
            guard let entry = keys[device] else { return nil }
            uses += 1
            keys[device] = (entry.key, uses)
            return entry.key
        }
    }

    private func insert(_ key: PublicKey) {
        lock.withLock {
            uses += 1
            if keys[key.device] == nil, keys.count >= capacity,
                let oldest = keys.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                // Misses are rare once a zone's authors are known: a linear scan is enough.
                keys[oldest] = nil
            }
            keys[key.device] = (key, uses)
        }
    }
}
