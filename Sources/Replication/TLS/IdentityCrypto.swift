import COpenSSL

/// The OpenSSL calls behind a peer identity: key generation, the self-signed certificate,
/// PEM encoding and the certificate digest. Returned pointers are owned by the caller.
enum IdentityCrypto {
    /// Certificates never expire in practice: peers pin the certificate digest, so an
    /// expiry would only force every participant to re-pin for no security gain.
    static let validityDays: Int32 = 36_500

    static func generateKey() throws(IdentityError) -> OpaquePointer {
        OpenSSLErrors.clear()
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else {
            throw .generationFailed(step: "key context", detail: OpenSSLErrors.drain())
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw .generationFailed(step: "Ed25519 key generation", detail: OpenSSLErrors.drain())
        }
        return key
    }

    /// A self-signed X.509 v3 certificate for `key` with a random 127-bit serial.
    static func makeCertificate(for key: OpaquePointer) throws(IdentityError) -> OpaquePointer {
        OpenSSLErrors.clear()
        guard let certificate = X509_new() else {
            throw .generationFailed(step: "certificate allocation", detail: OpenSSLErrors.drain())
        }
        guard fillCertificate(certificate, key: key), X509_sign(certificate, key, nil) > 0 else {
            X509_free(certificate)
            throw .generationFailed(step: "certificate signing", detail: OpenSSLErrors.drain())
        }
        return certificate
    }

    private static func fillCertificate(_ certificate: OpaquePointer, key: OpaquePointer) -> Bool {
        guard X509_set_version(certificate, 2) == 1, setRandomSerial(certificate) else { return false }
        // Backdated a day so that a peer whose clock runs behind does not see a future date.
        guard X509_gmtime_adj(X509_getm_notBefore(certificate), -86_400) != nil,
            X509_time_adj_ex(X509_getm_notAfter(certificate), validityDays, 0, nil) != nil
        else { return false }
        guard let name = X509_get_subject_name(certificate),
            X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, "PeerShare peer", -1, -1, 0) == 1,
            X509_set_issuer_name(certificate, name) == 1
        else { return false }
        return X509_set_pubkey(certificate, key) == 1
    }

    private static func setRandomSerial(_ certificate: OpaquePointer) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&bytes, Int32(bytes.count)) == 1 else { return false }
        bytes[0] &= 0x7F  // serials must be positive
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { return false }
        defer { BN_free(number) }
        return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil
    }

    // MARK: - PEM

    static func privateKeyPEM(_ key: OpaquePointer) throws(IdentityError) -> [UInt8] {
        try writePEM(step: "private key encoding") {
            PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil)
        }
    }

    static func certificatePEM(_ certificate: OpaquePointer) throws(IdentityError) -> [UInt8] {
        try writePEM(step: "certificate encoding") { PEM_write_bio_X509($0, certificate) }
    }

    private static func writePEM(
        step: String, _ body: (OpaquePointer) -> Int32
    ) throws(IdentityError) -> [UInt8] {
        OpenSSLErrors.clear()
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw .generationFailed(step: step, detail: OpenSSLErrors.drain())
        }
        defer { BIO_free(bio) }
        guard body(bio) == 1 else { throw .generationFailed(step: step, detail: OpenSSLErrors.drain()) }
        var output = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = BIO_read(bio, &output, Int32(output.count))
        guard count == output.count else {
            throw .generationFailed(step: step, detail: OpenSSLErrors.drain())
        }
        return output
    }

    /// Parses a PEM private key. A passphrase-protected key is refused rather than
    /// prompted for: a daemon has no terminal to ask on.
    static func readPrivateKey(_ pem: [UInt8], path: String) throws(IdentityError) -> OpaquePointer {
        OpenSSLErrors.clear()
        let key = withMemoryBIO(pem) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else { throw .corruptKey(path: path, detail: OpenSSLErrors.drain()) }
        guard EVP_PKEY_get_id(key) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(key)
            throw .wrongKeyType(path: path)
        }
        return key
    }

    static func readCertificate(_ pem: [UInt8], path: String) throws(IdentityError) -> OpaquePointer {
        OpenSSLErrors.clear()
        let certificate = withMemoryBIO(pem) { bio in
            PEM_read_bio_X509(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let certificate else { throw .corruptCertificate(path: path, detail: OpenSSLErrors.drain()) }
        return certificate
    }

    private static func withMemoryBIO(_ bytes: [UInt8], _ body: (OpaquePointer) -> OpaquePointer?)
        -> OpaquePointer?
    {
        bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }

    // MARK: - Digest

    /// The DER encoding of `certificate`: the bytes a peer ID is the digest of.
    static func der(_ certificate: OpaquePointer) -> [UInt8]? {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            // i2d_X509 advances the pointer it is given, so it gets a copy.
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        return written == length ? output : nil
    }
}
