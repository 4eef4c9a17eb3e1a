import Foundation
import Glibc
import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// Two fresh identities in a private temp directory and a loopback listener whose accepted
/// sockets are handshaken on their own threads; results arrive on `serverResults`.
final class TLSHarness: @unchecked Sendable {
    let temp: TestDirectory
    let serverIdentity: PeerIdentity
    let clientIdentity: PeerIdentity
    private(set) var listener: TCPListener?
    private(set) var serverResults: AsyncStream<Result<TLSConnection, TLSError>>!

    init() throws {
        // OpenSSL writes to sockets with write(2): a peer that went away would kill the test
        // process with SIGPIPE. The daemon ignores it at start; the tests must too.
        signal(SIGPIPE, SIG_IGN)
        temp = try TestDirectory()
        serverIdentity = try PeerIdentity.loadOrCreate(directory: temp.file("server"))
        clientIdentity = try PeerIdentity.loadOrCreate(directory: temp.file("client"))
    }

    deinit {
        listener?.close()
        temp.remove()
    }

    var port: UInt16 { listener!.port }

    /// Listens on 127.0.0.1 with a free port and handshakes every accepted socket with
    /// `configuration`.
    func startServer(_ configuration: TLSConfiguration) throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Result<TLSConnection, TLSError>.self)
        serverResults = stream
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        listener.start { socket in
            IOThread.detach {
                continuation.yield(
                    Result { () throws(TLSError) in
                        try TLSConnection.handshake(over: socket, configuration: configuration)
                    })
            }
        }
        self.listener = listener
    }

    /// Accepts the client identity only.
    func serverConfiguration() -> TLSConfiguration {
        let client = clientIdentity.peerID
        return .server(identity: serverIdentity, accepting: { $0 == client })
    }

    func clientConfiguration(expecting peer: PeerID? = nil) -> TLSConfiguration {
        .client(identity: clientIdentity, expecting: peer ?? serverIdentity.peerID)
    }

    /// Dials the listener and handshakes on an I/O thread.
    func connectClient(_ configuration: TLSConfiguration) async -> Result<TLSConnection, Error> {
        let port = self.port
        do {
            let connection = try await IOThread.run {
                let socket = try TCPDialer.connect(host: "127.0.0.1", port: port, timeout: .seconds(10))
                return try TLSConnection.handshake(over: socket, configuration: configuration)
            }
            return .success(connection)
        } catch {
            return .failure(error)
        }
    }

    /// The next server-side handshake result.
    func nextServerResult() async -> Result<TLSConnection, TLSError>? {
        var iterator = serverResults.makeAsyncIterator()
        return await iterator.next()
    }

    /// Connects, and returns both ends of a successful handshake.
    func connectedPair() async throws -> (client: TLSConnection, server: TLSConnection) {
        try startServer(serverConfiguration())
        let client = try await connectClient(clientConfiguration()).get()
        let server = try #require(await nextServerResult()).get()
        return (client, server)
    }
}

/// Runs blocking `body` on an I/O thread: tests must not block the concurrency pool either.
func onIOThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await IOThread.run(body)
}
