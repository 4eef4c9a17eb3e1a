import Foundation
import Glibc
import Replication
import Store
import Support
import TestSupport

/// A peer in the test process with its own valid self-signed certificate (made by the
/// project's `PeerIdentity`, as a daemon makes its own), that talks to a daemon frame by
/// frame: a stranger, or — once invited — a participant that sends what no daemon would.
final class Attacker: @unchecked Sendable {
    let directory: TestDirectory
    let identity: PeerIdentity

    init() throws {
        // OpenSSL writes with write(2): a daemon that closed on us must not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        directory = try TestDirectory()
        identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
    }

    /// The peer ID, as `id` prints it.
    var id: String { identity.peerID.description }

    /// A TCP connection to `target`'s peer port on which nothing is ever sent.
    func halfOpen(to target: SharingPeer) throws -> TCPSocket {
        let (host, port) = try Self.hostAndPort(of: target)
        return try TCPDialer.connect(host: host, port: port, timeout: .seconds(10))
    }

    /// A connection to `target` with the TLS handshake done and nothing sent after it.
    func tls(to target: SharingPeer) throws -> FrameStream {
        var configuration = TLSConfiguration.client(
            identity: identity, expecting: try PeerID(parsing: target.id))
        configuration.readTimeout = .seconds(30)
        let connection = try TLSConnection.handshake(
            over: try halfOpen(to: target), configuration: configuration)
        return FrameStream(connection: connection)
    }

    /// A connection with the hellos exchanged; a guest's hello says `joining`, any other
    /// announces every feature this build has (as a daemon's does, so that whatever a
    /// daemon would be sent, the attacker is sent too).
    func connect(to target: SharingPeer, guest: Bool) throws -> FrameStream {
        let stream = try tls(to: target)
        let capabilities = guest ? Capabilities.joining : SyncSession.capabilities
        _ = try stream.exchangeHello(Hello(peerID: identity.peerID, capabilities: capabilities))
        return stream
    }

    /// Sends `frame` on a new guest connection and returns what answers it: the first frame
    /// that is not zone clocks or a ping.
    func ask(_ target: SharingPeer, _ frame: Frame) throws -> Frame {
        let stream = try connect(to: target, guest: true)
        defer { stream.connection.close() }
        try stream.send(frame)
        while let reply = try stream.receive() {
            if reply.type != .zoneClocks && reply.type != .ping { return reply }
        }
        throw HarnessError("\(target.name) closed the connection without answering")
    }

    /// Every frame until the other side closes.
    static func drain(_ stream: FrameStream) -> [Frame] {
        var frames: [Frame] = []
        while let frame = try? stream.receive() { frames.append(frame) }
        return frames
    }

    private static func hostAndPort(of target: SharingPeer) throws -> (String, UInt16) {
        guard let colon = target.address.lastIndex(of: ":"),
            let port = UInt16(target.address[target.address.index(after: colon)...])
        else { throw HarnessError("bad address \(target.address)") }
        return (String(target.address[..<colon]), port)
    }
}
