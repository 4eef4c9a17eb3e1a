import COpenSSL

/// SHA-256 (OpenSSL's EVP), the one hash every module uses: incremental, so photo data is
/// hashed while it streams through, in one call for peer IDs (the hash of a certificate)
/// and tokens, and keyed (HMAC) for share invitations.
public final class SHA256Hasher {
    private let ctx: OpaquePointer

    public init() {
        ctx = EVP_MD_CTX_new()
        EVP_DigestInit_ex(ctx, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(ctx) }

    public func update(_ buffer: UnsafeRawBufferPointer) {
        if let base = buffer.baseAddress, buffer.count > 0 { EVP_DigestUpdate(ctx, base, buffer.count) }
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest; the hasher cannot be used afterwards.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(ctx, &digest, &length)
        return digest
    }

    /// SHA-256 of `bytes` in one call.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finish()
    }

    /// HMAC-SHA-256 of `message` under `key` (32 bytes).
    public static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = key.withUnsafeBytes { key in
            HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), message, message.count, &digest, &length)
        }
        return digest
    }

    /// Lower-case hexadecimal, as hashes are written in the stores and on screen.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }
}
