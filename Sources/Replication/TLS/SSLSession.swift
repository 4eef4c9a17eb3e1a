import COpenSSL
import Glibc
import Support

/// One OpenSSL `SSL` object with everything it points at (its `SSL_CTX`, the socket, the
/// verification record), freed together. Not thread-safe: `TLSConnection` serialises calls.
final class SSLSession: @unchecked Sendable {
    /// The outcome of one non-blocking OpenSSL call.
    enum Step {
        case done(Int)
        case wantRead
        case wantWrite
        /// The peer sent close_notify.
        case closedByPeer
        case failed(Failure)
    }

    /// A fatal error, already turned into text while the error queue was still ours.
    struct Failure {
        var detail: String
        var alertFromPeer: Bool
    }

    let socket: TCPSocket
    let context: OpaquePointer
    let ssl: OpaquePointer
    let verification: PeerVerification

    init(socket: TCPSocket, configuration: TLSConfiguration) throws(TLSError) {
        do {
            try socket.setNonBlocking()
        } catch {
            throw .setupFailed(detail: error.description)
        }
        context = try TLSContextFactory.make(for: configuration)
        guard let ssl = SSL_new(context) else {
            let detail = OpenSSLErrors.drain()
            SSL_CTX_free(context)
            throw .setupFailed(detail: detail)
        }
        self.ssl = ssl
        self.socket = socket
        verification = PeerVerification(accepts: configuration.accepts)
        // The verification object lives as long as this session, which outlives the SSL.
        let slot = Unmanaged.passUnretained(verification).toOpaque()
        _ = SSL_set_ex_data(ssl, TLSContextFactory.verificationSlot, slot)
        _ = SSL_set_fd(ssl, socket.fileDescriptor)
        if configuration.role == .client { SSL_set_connect_state(ssl) } else { SSL_set_accept_state(ssl) }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Runs one OpenSSL call and classifies its result.
    func step(_ call: (OpaquePointer) -> Int32) -> Step {
        ERR_clear_error()
        let result = call(ssl)
        let savedErrno = errno
        if result > 0 { return .done(Int(result)) }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ:
            return .wantRead
        case SSL_ERROR_WANT_WRITE:
            return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            return .closedByPeer
        case SSL_ERROR_SYSCALL:
            let report = OpenSSLErrors.take()
            if !report.text.isEmpty { return .failed(Failure(detail: report.text, alertFromPeer: false)) }
            let detail =
                savedErrno == 0
                ? "the other side closed the connection" : String(cString: strerror(savedErrno))
            return .failed(Failure(detail: detail, alertFromPeer: false))
        default:
            let report = OpenSSLErrors.take()
            let detail = report.text.isEmpty ? "unknown OpenSSL error" : report.text
            return .failed(Failure(detail: detail, alertFromPeer: report.isAlertFromPeer))
        }
    }

    /// Waits for the socket as a `.wantRead` / `.wantWrite` step asks.
    func wait(for step: Step, until deadline: ContinuousClock.Instant?) -> Poll.Outcome {
        let events: Int32 =
            switch step {
            case .wantWrite: Int32(POLLOUT)
            default: Int32(POLLIN)
            }
        return Poll.wait(fd: socket.fileDescriptor, events: events, until: deadline)
    }

    /// The protocol the handshake settled on, such as "TLSv1.3".
    var protocolVersion: String {
        String(cString: SSL_get_version(ssl))
    }

    /// The peer ID of the certificate the other side presented, if any.
    func presentedPeerCertificateDER() -> [UInt8]? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        return IdentityCrypto.der(certificate)
    }
}
