import COpenSSL
import Store
import Support

/// A device's Ed25519 public key, parsed once from its certificate and kept to check many
/// signatures.
///
/// Why: parsing a DER certificate costs more than checking a signature with the key in it,
/// and every receiver checks every signed change set of every author. The `EVP_PKEY` is
/// owned by this object and freed with it, so a key evicted from a cache stays valid for a
/// check still holding it. OpenSSL allows concurrent checks with one key (each uses its own
/// digest context).
public final class PublicKey: @unchecked Sendable {
    /// The device whose key this is: the SHA-256 of the certificate it came from.
    public let device: PeerID
    /// The `EVP_PKEY *`, owned; never mutated after init.
    private let key: OpaquePointer

    /// The key in `certificateDER`; nil for a malformed certificate or one whose key is not
    /// Ed25519 (the same certificates `Signature.verify` refuses).
    public init?(certificateDER: [UInt8]) {
        guard let key = Signature.publicKey(certificateDER) else { return nil }
        self.key = key
        self.device = PeerID(digest: SHA256Hasher.digest(certificateDER))!
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` is this key's Ed25519 signature of `message`.
    public func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard signature.count == Signature.size, let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        OpenSSLErrors.clear()
        let ok =
            EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
            && EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        OpenSSLErrors.clear()
        return ok
    }
}
