import Store
import Support

/// A short connection dialed to one expected peer: TCP, then TLS 1.3 with the peer's
/// certificate pinned to its ID, wrapped as a frame stream.
///
/// Why one place: joining a share, checking or leaving one, and linking a device each dial
/// a daemon that must be the one a URL names before anything secret is sent; they differ
/// only in what they say after the hello.
enum PinnedDial {
    /// Why the connection could not be made.
    enum Failure: Error {
        /// No TCP connection or no TLS handshake: the reason, for the person.
        case unreachable(String)
        /// Another daemon answered at the address.
        case wrongPeer(presented: PeerID)
    }

    /// Connects to `address` expecting `peer`; reads time out after `timeout`.
    static func stream(
        to address: PeerAddress, expecting peer: PeerID, identity: PeerIdentity, timeout: Duration
    )
        throws(Failure) -> FrameStream
    {
        do {
            let socket = try TCPDialer.connect(host: address.host, port: address.port, timeout: timeout)
            var configuration = TLSConfiguration.client(identity: identity, expecting: peer)
            configuration.readTimeout = timeout
            return FrameStream(
                connection: try TLSConnection.handshake(over: socket, configuration: configuration))
        } catch let error as SocketError {
            throw .unreachable(error.description)
        } catch let error as TLSError {
            if case .unexpectedPeer(let presented, _) = error { throw .wrongPeer(presented: presented) }
            throw .unreachable(error.description)
        } catch {
            throw .unreachable("\(error)")
        }
    }
}
