import Store
import Testing

@testable import Replication

/// A hand-driven client with its own identity: speaks raw frames to an engine, for tests of
/// what the engine does with strangers and with garbage.
final class RawPeer: @unchecked Sendable {
    let directory: TemporaryDirectory
    let identity: PeerIdentity
    var peer: PeerID { identity.peerID }

    init() throws {
        directory = try TemporaryDirectory()
        identity = try PeerIdentity.loadOrCreate(directory: directory.child("identity"))
    }

    deinit { directory.remove() }

    /// Connects to `target` and completes the TLS handshake (which, in TLS 1.3, succeeds on
    /// this side even when the server refuses us).
    func connect(to target: EnginePeer) async throws -> FrameStream {
        let (identity, address, expected) = (self.identity, target.address, target.peer)
        return try await IOThread.run { try Self.dial(address, expecting: expected, as: identity) }
    }

    /// `connect`, blocking: for a test that must greet the peer on the same thread, with no
    /// hop back to a concurrency pool that may be busy for longer than the peer's hello
    /// timeout.
    static func dial(_ address: PeerAddress, expecting expected: PeerID, as identity: PeerIdentity) throws
        -> FrameStream
    {
        let socket = try TCPDialer.connect(host: address.host, port: address.port, timeout: .seconds(10))
        var configuration = TLSConfiguration.client(identity: identity, expecting: expected)
        configuration.readTimeout = .seconds(30)
        return FrameStream(
            connection: try TLSConnection.handshake(over: socket, configuration: configuration))
    }

    /// Reads frames until the other side closes; returns them, and the error that ended the
    /// stream if it did not end cleanly.
    static func drain(_ stream: FrameStream) async -> (frames: [Frame], error: FrameStreamError?) {
        (try? await IOThread.run { () -> ([Frame], FrameStreamError?) in
            var frames: [Frame] = []
            do {
                while let frame = try stream.receive() { frames.append(frame) }
                return (frames, nil)
            } catch let error as FrameStreamError {
                return (frames, error)
            }
        }) ?? ([], nil)
    }
}
