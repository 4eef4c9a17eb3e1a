import Testing

@testable import Replication

@Suite struct FrameStreamTests {
    @Test func peersExchangeHellosThenFramesOverTLS() async throws {
        let harness = try TLSHarness()
        let (clientTLS, serverTLS) = try await harness.connectedPair()
        let client = FrameStream(connection: clientTLS)
        let server = FrameStream(connection: serverTLS)
        let clientHello = Hello(
            peerID: harness.clientIdentity.peerID, capabilities: Capabilities(rawValue: 3))
        let serverHello = Hello(
            peerID: harness.serverIdentity.peerID, capabilities: Capabilities(rawValue: 6))
        async let serverSide = onIOThread { () -> (VersionAgreement, [Frame]) in
            let agreement = try server.exchangeHello(serverHello)
            var frames: [Frame] = []
            while let frame = try server.receive() { frames.append(frame) }
            return (agreement, frames)
        }
        let sent = (0..<50).map {
            Frame(type: MessageType(rawValue: 0x10), payload: [UInt8](repeating: UInt8($0), count: $0 * 300))
        }
        let clientAgreement = try await onIOThread { () -> VersionAgreement in
            let agreement = try client.exchangeHello(clientHello)
            try client.send(Array(sent[0..<10]))
            for frame in sent[10...] { try client.send(frame) }
            clientTLS.close()
            return agreement
        }
        let (serverAgreement, received) = try await serverSide
        #expect(clientAgreement.version == serverAgreement.version)
        #expect(clientAgreement.capabilities == serverAgreement.capabilities)
        #expect(clientAgreement.version == Hello.currentVersion)
        #expect(clientAgreement.capabilities.rawValue == 2)
        #expect(received == sent)
        serverTLS.close()
    }

    @Test func anOversizedFrameFromThePeerEndsTheStream() async throws {
        let harness = try TLSHarness()
        let (clientTLS, serverTLS) = try await harness.connectedPair()
        let server = FrameStream(connection: serverTLS, maximumFrameSize: 1_024)
        let client = FrameStream(connection: clientTLS)
        try await onIOThread {
            try client.send(Frame(type: .hello, payload: [UInt8](repeating: 0, count: 2_000)))
        }
        await #expect(throws: FrameStreamError.wire(.frameTooLarge(length: 2_001, maximum: 1_024))) {
            _ = try await onIOThread { try server.receive() }
        }
        clientTLS.close()
        serverTLS.close()
    }

    @Test func aConnectionClosedMidFrameIsAProtocolError() async throws {
        let harness = try TLSHarness()
        let (clientTLS, serverTLS) = try await harness.connectedPair()
        let server = FrameStream(connection: serverTLS)
        try await onIOThread {
            try clientTLS.write([0, 0, 0, 10, 1])
            clientTLS.close()
        }
        let error = await #expect(throws: FrameStreamError.wire(.endedMidFrame(bufferedBytes: 5))) {
            _ = try await onIOThread { try server.receive() }
        }
        #expect(
            error?.description.hasPrefix("protocol error: connection ended in the middle of a frame") == true)
        serverTLS.close()
    }

    @Test func aFirstFrameThatIsNotAHelloIsRefused() async throws {
        let harness = try TLSHarness()
        let (clientTLS, serverTLS) = try await harness.connectedPair()
        let server = FrameStream(connection: serverTLS)
        let client = FrameStream(connection: clientTLS)
        try await onIOThread { try client.send(Frame(type: MessageType(rawValue: 0x42), payload: [])) }
        await #expect(throws: FrameStreamError.wire(.unexpectedMessage(type: 0x42, expected: "hello"))) {
            _ = try await onIOThread {
                try server.exchangeHello(Hello(peerID: harness.serverIdentity.peerID))
            }
        }
        clientTLS.close()
        serverTLS.close()
    }
}
