import Glibc
import Store
import Testing

@testable import Replication

@Suite struct TLSConnectionTests {
    @Test func handshakeAuthenticatesBothSides() async throws {
        let harness = try TLSHarness()
        let (client, server) = try await harness.connectedPair()
        #expect(client.remotePeerID == harness.serverIdentity.peerID)
        #expect(server.remotePeerID == harness.clientIdentity.peerID)
        #expect(client.protocolVersion == "TLSv1.3")
        #expect(server.protocolVersion == "TLSv1.3")
        client.close()
        server.close()
    }

    @Test func bytesTravelBothWaysAndCloseIsSeenAsEndOfStream() async throws {
        let harness = try TLSHarness()
        let (client, server) = try await harness.connectedPair()
        let received = try await onIOThread { () -> [UInt8] in
            try client.write(Array("ping".utf8))
            let request = try server.read(maximumCount: 64)
            try server.write(request + Array(" pong".utf8))
            server.close()
            return try readToEnd(client)
        }
        #expect(String(decoding: received, as: UTF8.self) == "ping pong")
        client.close()
    }

    @Test func clientExpectingAnotherPeerFailsNamingBothIDs() async throws {
        let harness = try TLSHarness()
        try harness.startServer(harness.serverConfiguration())
        let stranger = PeerID(digest: [UInt8](repeating: 7, count: 32))!
        let result = await harness.connectClient(harness.clientConfiguration(expecting: stranger))
        let error = try #require(result.failureAs(TLSError.self))
        #expect(error == .unexpectedPeer(presented: harness.serverIdentity.peerID, expected: stranger))
        #expect(error.description.contains("peer presented identity \(harness.serverIdentity.peerID)"))
        #expect(error.description.contains("expected \(stranger)"))
        let serverResult = try #require(await harness.nextServerResult())
        #expect(throws: TLSError.self) { try serverResult.get() }
    }

    @Test func serverRefusingTheClientFailsAtTheClientsFirstRead() async throws {
        let harness = try TLSHarness()
        try harness.startServer(.server(identity: harness.serverIdentity, accepting: { _ in false }))
        // TLS 1.3: the client's handshake is over before the server has judged its certificate.
        let client = try await harness.connectClient(harness.clientConfiguration()).get()
        let serverResult = try #require(await harness.nextServerResult())
        #expect(throws: TLSError.peerNotAccepted(presented: harness.clientIdentity.peerID)) {
            try serverResult.get()
        }
        let readError = await #expect(throws: TLSError.self) {
            _ = try await onIOThread { try client.read(maximumCount: 16) }
        }
        guard case .rejectedByPeer = readError else {
            Issue.record("expected rejectedByPeer, got \(String(describing: readError))")
            return
        }
        #expect(readError?.description.contains("refused our identity") == true)
    }

    @Test func refusalMessageNamesThePeer() {
        let peer = PeerID(digest: [UInt8](repeating: 1, count: 32))!
        #expect(TLSError.peerNotAccepted(presented: peer).description.contains(peer.description))
        #expect(TLSError.handshakeFailed(detail: "x").description == "TLS handshake failed: x")
    }

    @Test func closeWakesABlockedReader() async throws {
        let harness = try TLSHarness()
        let (client, server) = try await harness.connectedPair()
        async let outcome = onIOThread { () -> TLSError? in
            do {
                _ = try client.read(maximumCount: 16)
                return nil
            } catch let error as TLSError {
                return error
            }
        }
        client.close()
        #expect(try await outcome == .closed)
        server.close()
    }

    @Test func readGivesUpAfterItsTimeout() async throws {
        let harness = try TLSHarness()
        try harness.startServer(harness.serverConfiguration())
        var configuration = harness.clientConfiguration()
        configuration.readTimeout = .milliseconds(50)
        let client = try await harness.connectClient(configuration).get()
        let server = try #require(await harness.nextServerResult()).get()
        await #expect(throws: TLSError.timedOut(operation: "read", after: .milliseconds(50))) {
            _ = try await onIOThread { try client.read(maximumCount: 16) }
        }
        // The connection survives a timeout, and the limit can be changed in place.
        server.readTimeout = .seconds(30)
        try await onIOThread { try client.write([42]) }
        #expect(try await onIOThread { try server.read(maximumCount: 16) } == [42])
        client.close()
        server.close()
    }

    @Test func concurrentReadsAndWritesCarryMegabytesIntact() async throws {
        let harness = try TLSHarness()
        let (client, server) = try await harness.connectedPair()
        let payload = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        // The server echoes while the client is still writing: both socket buffers fill up,
        // so each side must read and write at the same time from two threads.
        async let echoed = onIOThread { () -> Int in
            var total = 0
            while total < payload.count {
                let chunk = try server.read(maximumCount: 65_536)
                if chunk.isEmpty { break }
                try server.write(chunk)
                total += chunk.count
            }
            server.close()
            return total
        }
        async let returned = onIOThread { try readToEnd(client) }
        try await onIOThread { try client.write(payload) }
        #expect(try await echoed == payload.count)
        #expect(try await returned == payload)
        client.close()
    }
}

/// Reads until the other side closes cleanly.
func readToEnd(_ connection: TLSConnection) throws -> [UInt8] {
    var all: [UInt8] = []
    while true {
        let chunk = try connection.read(maximumCount: 65_536)
        if chunk.isEmpty { return all }
        all += chunk
    }
}

extension Result {
    func failureAs<E: Error>(_ type: E.Type) -> E? {
        if case .failure(let error) = self { return error as? E }
        return nil
    }
}
