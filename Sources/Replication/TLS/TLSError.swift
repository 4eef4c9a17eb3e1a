import Store

/// Why a TLS connection failed, in words that tell the user whom to suspect.
///
/// Mismatched identities carry both peer IDs so that a wrong or stale address shows up
/// as such; OpenSSL's own error text is kept for everything else.
public enum TLSError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server's certificate does not hash to the peer ID the client expected.
    case unexpectedPeer(presented: PeerID, expected: PeerID)
    /// A client presented a peer ID this server does not accept.
    case peerNotAccepted(presented: PeerID)
    /// The other side refused our certificate (it sent a TLS alert).
    case rejectedByPeer(detail: String)
    /// The handshake failed for another reason (not TLS, wrong version, broken stream…).
    case handshakeFailed(detail: String)
    /// The handshake, a read or a write took longer than configured.
    case timedOut(operation: String, after: Duration)
    /// The connection broke after the handshake.
    case connectionFailed(operation: String, detail: String)
    /// The connection was closed locally before or during the operation.
    case closed
    /// The SSL context could not be built from the identity.
    case setupFailed(detail: String)

    public var description: String {
        switch self {
        case .unexpectedPeer(let presented, let expected):
            return "peer presented identity \(presented), expected \(expected); "
                + "the address may now belong to another peer, or the share URL may be wrong"
        case .peerNotAccepted(let presented):
            return "refused peer \(presented): it is not a member of any share here"
        case .rejectedByPeer(let detail):
            return "the other peer refused our identity (\(detail)); "
                + "ask its owner to invite this peer ID, or check that the invitation was accepted"
        case .handshakeFailed(let detail):
            return "TLS handshake failed: \(detail)"
        case .timedOut(let operation, let after):
            return "TLS \(operation) timed out after \(after)"
        case .connectionFailed(let operation, let detail):
            return "TLS \(operation) failed: \(detail)"
        case .closed:
            return "the connection is closed"
        case .setupFailed(let detail):
            return "cannot set up TLS with this identity: \(detail)"
        }
    }
}
