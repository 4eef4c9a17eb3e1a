import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// A hand-driven client with its own identity: speaks raw frames to an engine, for tests of
/// what the engine does with strangers and with garbage.
final class RawPeer: @unchecked Sendable {
    let directory: TestDirectory
    let identity: PeerIdentity
    var peer: PeerID { identity.peerID }

    init() throws {
        directory = try TestDirectory()
        identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
    }

    deinit { directory.remove() }

    /// Connects to `target` and completes the TLS handshake (which, in TLS 1.3, succeeds on
    /// this side even when the server refuses us).
    func connect(to target: EnginePeer) async throws -> FrameStream {
        let identity = self.identity
        let address = target.address
        let expected = target.peer
        return try await IOThread.run { try Self.dial(address, as: identity, expecting: expected) }
    }

    /// Dials and completes the TLS handshake, on the calling thread.
    private static func dial(
        _ address: PeerAddress, as identity: PeerIdentity, expecting expected: PeerID
    ) throws -> FrameStream {
        let socket = try TCPDialer.connect(host: address.host, port: address.port, timeout: .seconds(10))
        var configuration = TLSConfiguration.client(identity: identity, expecting: expected)
        configuration.readTimeout = .seconds(30)
        return FrameStream(
            connection: try TLSConnection.handshake(over: socket, configuration: configuration))
    }

    /// Connects to `target`, exchanges hellos and runs `body`, all on one I/O thread. The
    /// engine closes a connection that stays silent past its timeouts, and a test task
    /// waiting on the concurrency pool between steps (the pool is shared with every other
    /// test, some of which block it) could miss them.
    func converse<T: Sendable>(
        with target: EnginePeer, _ body: @escaping @Sendable (FrameStream) throws -> T
    ) async throws -> T {
        let identity = self.identity
        let address = target.address
        let expected = target.peer
        return try await IOThread.run {
            let stream = try Self.dial(address, as: identity, expecting: expected)
            defer { stream.connection.close() }
            let agreement = try stream.exchangeHello(Hello(peerID: identity.peerID))
            guard agreement.version == Hello.currentVersion else { throw WireError.badMagic }
            return try body(stream)
        }
    }

    /// Answers dials as this peer, at a port of its own: on each connection, completes TLS and
    /// the hello, hands the stream to `serve`, and closes the connection when it returns
    /// (then calls `closed`, also when the hello failed).
    func answerDials(
        serve: @escaping @Sendable (FrameStream) -> Void, closed: @escaping @Sendable () -> Void = {}
    ) throws -> TCPListener {
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        let configuration = TLSConfiguration.server(identity: identity) { _ in true }
        let peer = self.peer
        listener.start { socket in
            guard let tls = try? TLSConnection.handshake(over: socket, configuration: configuration) else {
                return
            }
            defer {
                tls.close()
                closed()
            }
            let stream = FrameStream(connection: tls)
            guard (try? stream.exchangeHello(Hello(peerID: peer))) != nil else { return }
            serve(stream)
        }
        return listener
    }

    /// Reads frames until the other side closes, on the calling thread.
    static func drainNow(_ stream: FrameStream) -> [Frame] {
        var frames: [Frame] = []
        while let frame = try? stream.receive() { frames.append(frame) }
        return frames
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
