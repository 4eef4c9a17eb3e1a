import COpenSSL

/// Ed25519 signatures made with a device's own key and checked against the key in another
/// device's certificate.
///
/// Why: once members relay each other's records, a record must carry its own proof of who
/// wrote it; a device's certificate (whose digest is its ID) holds the public key that
/// checks it, so a peer needs no other key material than the certificates it has been given.
public enum Signature {
    /// Bytes in an Ed25519 signature.
    public static let size = 64

    /// Signs `message` with `identity`'s private key.
    public static func sign(_ message: [UInt8], with identity: PeerIdentity) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL: out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: size)
        var length = size
        // Ed25519 hashes internally: no digest is named, and the message goes in one call.
        guard EVP_DigestSignInit(context, nil, nil, nil, identity.privateKey) == 1,
            EVP_DigestSign(context, &signature, &length, message, message.count) == 1, length == size
        else { fatalError("Ed25519 signing failed with a loaded key: \(OpenSSLErrors.drain())") }
        return signature
    }

    /// Whether `signature` is a signature of `message` by the key in `certificateDER`.
    /// False for a malformed certificate, a key that is not Ed25519, or a wrong signature.
    public static func verify(_ signature: [UInt8], of message: [UInt8], certificateDER: [UInt8]) -> Bool {
        guard signature.count == size, let key = publicKey(certificateDER) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        OpenSSLErrors.clear()
        let ok =
            EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
            && EVP_DigestVerify(context, signature, size, message, message.count) == 1
        OpenSSLErrors.clear()
        return ok
    }

    /// Whether `certificateDER` is one certificate holding an Ed25519 key.
    public static func isEd25519Certificate(_ certificateDER: [UInt8]) -> Bool {
        guard let key = publicKey(certificateDER) else { return false }
        EVP_PKEY_free(key)
        return true
    }

    /// The Ed25519 public key of a DER certificate, owned by the caller; nil otherwise.
    static func publicKey(_ certificateDER: [UInt8]) -> OpaquePointer? {
        certificateDER.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            defer { X509_free(certificate) }
            // The whole buffer must be the certificate: no trailing bytes to smuggle.
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }),
                let key = X509_get_pubkey(certificate)
            else { return nil }
            guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else {
                EVP_PKEY_free(key)
                return nil
            }
            return key
        }
    }
}
