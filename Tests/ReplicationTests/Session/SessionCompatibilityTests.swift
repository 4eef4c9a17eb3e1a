import Store
import TestSupport
import Testing

@testable import Replication

/// What a session does with a peer newer than this build (docs/PROTOCOL.md §4.2): the hello
/// is taken at what this build knows; after it, a peer sends only what the agreed version and
/// capabilities define, so a message type or a field this build does not know ends the
/// connection with a protocol error; unknown sharing types are answered, not fatal.
@Suite struct SessionCompatibilityTests {
    /// A hello from a newer build: a higher version, capability bits this build never heard
    /// of, and a field appended after the purpose.
    static func newerHello() -> Frame {
        let hello = Hello(
            version: 9, peerID: SessionProbe.participant,
            capabilities: Capabilities(rawValue: 0b11 | 1 << 40 | 1 << 61), maximumFrameSize: 1 << 20,
            purpose: .sync
        )
        return Frame(type: .hello, payload: hello.encodedPayload() + [7, 7, 7, 7])
    }

    @Test func aNewerPeersHelloIsTakenAtWhatThisBuildKnows() throws {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Self.newerHello()))
        #expect(probe.session.state == .active)
        let agreement = try #require(probe.session.agreement)
        #expect(agreement.version == Hello.currentVersion)
        #expect(agreement.capabilities == [.addresses, .refusalNotices])
        #expect(agreement.purpose == .sync)
        #expect(agreement.sendableFrameSize == 1 << 20)
    }

    @Test func aMessageTypeThisBuildDoesNotKnowEndsTheConnection() {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Self.newerHello()))
        probe.handle(.frame(Frame(type: MessageType(rawValue: 0x30), payload: [1, 2, 3])))
        #expect(
            probe.closeReason
                == .protocolViolation("unexpected message type 48, expected a replication message"))
        #expect(
            probe.sent.last
                == .error(
                    ErrorMessage(
                        code: .protocolError,
                        message: "protocol error: unexpected message type 48, expected a replication message")
                ))
    }

    @Test func aFieldThisBuildDoesNotKnowEndsTheConnection() {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Self.newerHello()))
        var ping = Ping(nonce: 7).frame()
        ping.payload.append(0xFF)
        probe.handle(.frame(ping))
        #expect(probe.closeReason == .protocolViolation("1 unexpected bytes after the end of a ping message"))
        guard case .error(let goodbye) = probe.sent.last else {
            Issue.record("no error frame sent: \(probe.last)")
            return
        }
        #expect(goodbye.code == .protocolError)
    }

    /// Sharing types are the engine's: an unassigned one (0x45…0x4F) is handed over and
    /// answered `unexpected`, and the connection goes on.
    @Test func aSharingTypeThisBuildDoesNotKnowIsAnsweredAndTheConnectionGoesOn() throws {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Self.newerHello()))
        let frame = Frame(type: MessageType(rawValue: 0x45), payload: [1])
        probe.handle(.frame(frame))
        #expect(probe.last.contains(.sharing(frame)))
        #expect(probe.session.state == .active)
        let directory = try TestDirectory()
        defer { directory.remove() }
        let identity = try PeerIdentity.loadOrCreate(directory: directory.file("identity"))
        let library = try Library(directory: directory.file("library"), localPeer: identity.peerID)
        let answer = JoinHandler.answer(frame, from: SessionProbe.participant, library: library)
        #expect(
            try answer.map { try JoinResponse(frame: $0) }
                == [.refused(code: "unexpected", message: "unexpected sharing message")])
    }

    /// A newer peer may come for something this build does not do: it is told so after the
    /// hello, and is never taken for a replication connection.
    @Test(arguments: [HelloPurpose(rawValue: 3), HelloPurpose(rawValue: 9)])
    func aHelloForAPurposeThisBuildDoesNotServeEndsTheConnection(purpose: HelloPurpose) {
        var probe = SessionProbe(established: false)
        probe.handle(.frame(Hello(peerID: SessionProbe.participant, purpose: purpose).frame()))
        let reason =
            "a connection for \(purpose), which this PeerShare does not serve (it serves sync, join and link)"
        #expect(probe.closeReason == .protocolViolation(reason))
        #expect(
            probe.sent == [.error(ErrorMessage(code: .protocolError, message: "protocol error: \(reason)"))])
        #expect(!probe.last.contains { if case .established = $0 { true } else { false } })
    }
}
