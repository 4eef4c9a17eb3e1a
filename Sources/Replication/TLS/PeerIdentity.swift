import COpenSSL
import Glibc
import Store
import Support

/// This daemon's long-term identity: an Ed25519 key and its self-signed certificate.
///
/// Peers authenticate each other by the SHA-256 of the certificate (the peer ID), never by
/// a CA, so the pair is created once at first start, kept private on disk, and reused for
/// the life of the installation: losing it means every peer sees a new, unknown peer ID.
public final class PeerIdentity: @unchecked Sendable {
    /// File name of the PEM private key inside the identity directory (mode 0600).
    public static let keyFileName = "identity.key"
    /// File name of the PEM certificate inside the identity directory (mode 0600).
    public static let certificateFileName = "identity.crt"

    /// SHA-256 of `certificateDER`: what other peers pin.
    public let peerID: PeerID
    /// The DER certificate presented to peers during the TLS handshake.
    public let certificateDER: [UInt8]
    /// Full path of the private key file.
    public let keyPath: String
    /// Full path of the certificate file.
    public let certificatePath: String

    /// The `EVP_PKEY *`, owned by this object; valid as long as it lives. Never mutated
    /// after init, which is what makes sharing across threads safe.
    let privateKey: OpaquePointer
    /// The `X509 *`, owned by this object; valid as long as it lives.
    let certificate: OpaquePointer

    private init(
        privateKey: OpaquePointer, certificate: OpaquePointer, keyPath: String, certificatePath: String
    ) throws(IdentityError) {
        guard let der = IdentityCrypto.der(certificate) else {
            EVP_PKEY_free(privateKey)
            X509_free(certificate)
            throw .corruptCertificate(path: certificatePath, detail: "cannot be encoded as DER")
        }
        self.privateKey = privateKey
        self.certificate = certificate
        self.certificateDER = der
        self.peerID = PeerID(digest: SHA256Hasher.digest(der))!
        self.keyPath = keyPath
        self.certificatePath = certificatePath
    }

    deinit {
        EVP_PKEY_free(privateKey)
        X509_free(certificate)
    }

    /// Loads the identity stored in `directory`, or creates and stores a new one when the
    /// directory holds neither file. The directory is created (mode 0700) when missing.
    ///
    /// Refuses, with a message saying what to do, a half-present pair, a damaged file, a key
    /// readable by other users, or a certificate that does not belong to the key.
    public static func loadOrCreate(directory: String) throws(IdentityError) -> PeerIdentity {
        try IdentityFiles.makeDirectory(directory)
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let keyPath = base + keyFileName
        let certificatePath = base + certificateFileName
        let keyMode = try IdentityFiles.mode(of: keyPath)
        let certificateMode = try IdentityFiles.mode(of: certificatePath)
        switch (keyMode, certificateMode) {
        case (nil, nil):
            return try create(keyPath: keyPath, certificatePath: certificatePath, directory: directory)
        case (.some, nil):
            throw .incomplete(present: keyPath, missing: certificatePath)
        case (nil, .some):
            throw .incomplete(present: certificatePath, missing: keyPath)
        case (.some(let mode), .some):
            guard mode & 0o077 == 0 else { throw .keyFileTooOpen(path: keyPath, mode: mode) }
            return try load(keyPath: keyPath, certificatePath: certificatePath)
        }
    }

    private static func create(
        keyPath: String, certificatePath: String, directory: String
    ) throws(IdentityError) -> PeerIdentity {
        let key = try IdentityCrypto.generateKey()
        let certificate: OpaquePointer
        var keyPEM: [UInt8]
        let certificatePEM: [UInt8]
        do {
            certificate = try IdentityCrypto.makeCertificate(for: key)
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        do {
            keyPEM = try IdentityCrypto.privateKeyPEM(key)
            certificatePEM = try IdentityCrypto.certificatePEM(certificate)
        } catch {
            EVP_PKEY_free(key)
            X509_free(certificate)
            throw error
        }
        defer { wipe(&keyPEM) }
        // Key first: a crash in between leaves a key without a certificate, which the next
        // start reports instead of silently minting a second identity.
        do {
            try IdentityFiles.writeAtomically(keyPEM, to: keyPath, directory: directory)
            try IdentityFiles.writeAtomically(certificatePEM, to: certificatePath, directory: directory)
        } catch {
            EVP_PKEY_free(key)
            X509_free(certificate)
            throw error
        }
        return try PeerIdentity(
            privateKey: key, certificate: certificate, keyPath: keyPath, certificatePath: certificatePath)
    }

    private static func load(keyPath: String, certificatePath: String) throws(IdentityError) -> PeerIdentity {
        var keyPEM = try IdentityFiles.read(keyPath)
        defer { wipe(&keyPEM) }
        let certificatePEM = try IdentityFiles.read(certificatePath)
        let key = try IdentityCrypto.readPrivateKey(keyPEM, path: keyPath)
        let certificate: OpaquePointer
        do {
            certificate = try IdentityCrypto.readCertificate(certificatePEM, path: certificatePath)
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
        guard X509_check_private_key(certificate, key) == 1 else {
            OpenSSLErrors.clear()
            EVP_PKEY_free(key)
            X509_free(certificate)
            throw .keyDoesNotMatchCertificate(keyPath: keyPath, certificatePath: certificatePath)
        }
        return try PeerIdentity(
            privateKey: key, certificate: certificate, keyPath: keyPath, certificatePath: certificatePath)
    }

    /// Overwrites key bytes before the buffer is released, so they linger less in memory.
    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { memset(base, 0, buffer.count) }
        }
    }
}
