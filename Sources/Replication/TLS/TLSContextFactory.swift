import COpenSSL
import Store
import Support

/// What one connection's verify callback decided, kept so that a failed handshake can say
/// which peer ID was presented.
final class PeerVerification: @unchecked Sendable {
    let accepts: @Sendable (PeerID) -> Bool
    /// Written by the verify callback on the handshake thread, read after the handshake.
    var presented: PeerID?
    var refused = false

    init(accepts: @escaping @Sendable (PeerID) -> Bool) {
        self.accepts = accepts
    }
}

/// Builds the `SSL_CTX` for a configuration: TLS 1.3 only, our certificate and key, mutual
/// authentication, and pinning by peer ID in place of CA-chain verification.
enum TLSContextFactory {
    /// Index of the `SSL` ex-data slot that holds the connection's `PeerVerification`
    /// (slot 0 is the one `SSL_set_app_data` uses).
    static let verificationSlot: Int32 = 0

    /// Returns a new `SSL_CTX *` the caller must free.
    static func make(for configuration: TLSConfiguration) throws(TLSError) -> OpaquePointer {
        OpenSSLErrors.clear()
        guard let context = SSL_CTX_new(TLS_method()) else {
            throw .setupFailed(detail: OpenSSLErrors.drain())
        }
        guard configure(context, identity: configuration.identity) else {
            SSL_CTX_free(context)
            throw .setupFailed(detail: OpenSSLErrors.drain())
        }
        return context
    }

    private static func configure(_ context: OpaquePointer, identity: PeerIdentity) -> Bool {
        guard peershare_ssl_ctx_set_min_proto(context, TLS1_3_VERSION) == 1,
            peershare_ssl_ctx_set_max_proto(context, TLS1_3_VERSION) == 1,
            SSL_CTX_use_certificate(context, identity.certificate) == 1,
            SSL_CTX_use_PrivateKey(context, identity.privateKey) == 1,
            SSL_CTX_check_private_key(context) == 1
        else { return false }
        // Every connection is a fresh full handshake with a fresh pin check: no session
        // tickets, no session cache, no resumption path that could skip verification.
        _ = SSL_CTX_set_num_tickets(context, 0)
        peershare_ssl_ctx_disable_tickets(context)
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_SESS_CACHE_MODE, Int(SSL_SESS_CACHE_OFF), nil)
        _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        SSL_CTX_set_cert_verify_callback(context, verifyPinnedPeer, nil)
        return true
    }

    /// Replaces OpenSSL's chain verification: the presented leaf certificate is acceptable
    /// exactly when its SHA-256 is a peer ID the connection's `PeerVerification` accepts.
    private static let verifyPinnedPeer: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 =
        {
            store, _ in
            guard let store,
                let certificate = X509_STORE_CTX_get0_cert(store),
                let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
                let slot = SSL_get_ex_data(OpaquePointer(ssl), TLSContextFactory.verificationSlot)
            else { return 0 }
            let verification = Unmanaged<PeerVerification>.fromOpaque(slot).takeUnretainedValue()
            guard let der = IdentityCrypto.der(certificate),
                let peer = PeerID(digest: SHA256Hasher.digest(der))
            else { return 0 }
            verification.presented = peer
            if verification.accepts(peer) { return 1 }
            verification.refused = true
            // Makes OpenSSL send the "bad certificate" alert rather than a generic one.
            X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
            return 0
        }
}
