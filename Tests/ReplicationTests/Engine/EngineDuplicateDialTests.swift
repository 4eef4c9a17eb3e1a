import Foundation
import Store
import Support
import Synchronization
import TestSupport
import Testing

@testable import Replication

/// A peer that closes this side's dial as a duplicate (it keeps the connection it dialed
/// itself) was reached: `sync --wait` must not report it unreachable for the round.
@Suite struct EngineDuplicateDialTests {
    @Test func aDialThePeerClosesAsADuplicateDoesNotMakeItUnreachable() async throws {
        let owner = try EnginePeer("owner")
        let temp = try TestDirectory()
        let other = try PeerIdentity.loadOrCreate(directory: temp.file("other"))
        // Plays the other peer: completes TLS and the hello, then says it keeps another
        // connection with this one, and closes.
        let served = Atomic<Int>(0)
        let listener = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let configuration = TLSConfiguration.server(identity: other) { _ in true }
        listener.start { socket in
            guard let tls = try? TLSConnection.handshake(over: socket, configuration: configuration) else {
                return
            }
            let stream = FrameStream(connection: tls)
            defer {
                tls.close()
                served.add(1, ordering: .sequentiallyConsistent)
            }
            guard (try? stream.exchangeHello(Hello(peerID: other.peerID))) != nil else { return }
            try? stream.send(
                ErrorMessage(code: .duplicate, message: "another connection with this peer is kept").frame())
        }
        let photo = try owner.addPhoto("beach.jpg", bytes: Array("pixels".utf8))
        let zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .none)
        try owner.priv.setParticipant(
            zone: zone, peer: other.peerID, permission: .readWrite, status: .accepted)
        owner.engine.setAddress(PeerAddress(host: "127.0.0.1", port: listener.port), for: other.peerID)
        owner.engine.refreshMembership()
        owner.engine.syncNow()
        // Two dials answered "duplicate": the engine has handled the first one's end.
        try waitUntil("the engine dialed twice") { served.load(ordering: .sequentiallyConsistent) >= 2 }
        let status = owner.engine.syncStatus()
        #expect(status.unreachable.isEmpty, "\(status.unreachable)")
        #expect(!status.inSync)
    }
}
