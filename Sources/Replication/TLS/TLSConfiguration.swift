import Store

/// How one side of a PeerShare TLS connection authenticates the other.
///
/// Peers pin each other by peer ID (the SHA-256 of the DER certificate) instead of trusting
/// certificate authorities, so the whole trust decision is "is this peer ID acceptable?".
/// A dialer knows exactly whom it calls; a listener accepts whomever its membership data
/// allows. Both always use TLS 1.3 with certificates on both sides. Build one with
/// `client(identity:expecting:)` or `server(identity:accepting:)`.
public struct TLSConfiguration: Sendable {
    /// Which end of the handshake this configuration drives.
    public enum Role: Sendable, Equatable {
        case client
        case server
    }

    /// The certificate and key presented to the other side.
    public let identity: PeerIdentity
    public let role: Role
    /// The peer a client insists on; nil on servers.
    public let expectedPeer: PeerID?
    /// Decides whether a presented peer ID is acceptable.
    let accepts: @Sendable (PeerID) -> Bool

    /// Longest time the handshake may take, start to finish.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Longest wait for incoming data in one `read`; nil waits as long as it takes.
    public var readTimeout: Duration?
    /// Longest wait for the socket to take more data during one `write`; nil waits forever.
    public var writeTimeout: Duration? = .seconds(30)

    private init(
        identity: PeerIdentity, role: Role, expectedPeer: PeerID?,
        accepts: @escaping @Sendable (PeerID) -> Bool
    ) {
        self.identity = identity
        self.role = role
        self.expectedPeer = expectedPeer
        self.accepts = accepts
    }

    /// For dialing: the handshake succeeds only if the server presents exactly `peer`.
    public static func client(identity: PeerIdentity, expecting peer: PeerID) -> TLSConfiguration {
        TLSConfiguration(identity: identity, role: .client, expectedPeer: peer, accepts: { $0 == peer })
    }

    /// For listening: a client is let in when `accepting` returns true for its peer ID.
    /// The closure runs on the handshake's thread, so it must be quick and thread-safe.
    public static func server(
        identity: PeerIdentity, accepting: @escaping @Sendable (PeerID) -> Bool
    ) -> TLSConfiguration {
        TLSConfiguration(identity: identity, role: .server, expectedPeer: nil, accepts: accepting)
    }
}
