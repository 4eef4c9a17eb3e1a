import Store
import Testing

@testable import Replication

@Suite struct SessionHandshakeTests {
    @Test func startSendsOurHelloAndTheirsEstablishesAndAnnouncesOurZones() throws {
        var probe = SessionProbe(established: false)
        let hello = try Hello(frame: try #require(probe.lastFrames.first))
        #expect(hello.peerID == SessionProbe.owner)
        probe.receive(hello: Hello(peerID: SessionProbe.participant))
        #expect(probe.session.state == .active)
        #expect(probe.last.first == .established(probe.session.agreement!))
        #expect(
            probe.sent == [
                .zoneClocks(
                    ZoneClocks([.init(zone: SessionProbe.zone, clock: VectorClock([SessionProbe.owner: 5]))]))
            ])
    }

    /// Bad input before or after the hello: each ends the session with an error frame for the
    /// peer and a logged reason, never a crash.
    static let garbage: [(name: String, bytes: [UInt8], established: Bool, reason: String)] = [
        ("oversized frame", [0xFF, 0xFF, 0xFF, 0xFF], true, "exceeds the limit"),
        ("empty frame", [0, 0, 0, 0], true, "empty body"),
        ("unknown type", [0, 0, 0, 1, 0x7F], true, "unexpected message type 127"),
        ("truncated ping", [0, 0, 0, 3, 0x0A, 1, 2], true, "message ended early"),
        (
            "hello twice", try! Hello(peerID: SessionProbe.participant).frame().encoded(), true,
            "unexpected message"
        ),
        ("ping before hello", try! Ping(nonce: 1).frame().encoded(), false, "expected hello"),
        ("bad magic", [0, 0, 0, 5, 0x01, 0x47, 0x45, 0x54, 0x20], false, "bad magic"),
        (
            "hello of another peer", try! Hello(peerID: SessionProbe.owner).frame().encoded(), false,
            "TLS authenticated"
        ),
        (
            "hello of version 0", try! Hello(version: 0, peerID: SessionProbe.participant).frame().encoded(),
            false, "version"
        ),
    ]

    @Test(arguments: garbage.indices)
    func garbageClosesTheSessionWithALoggedReason(index: Int) {
        let case_ = Self.garbage[index]
        var probe = SessionProbe(established: case_.established)
        probe.handle(.bytes(case_.bytes))
        guard case .protocolViolation(let text) = probe.closeReason else {
            Issue.record(
                "\(case_.name): expected a protocol violation, got \(String(describing: probe.closeReason))")
            return
        }
        #expect(text.contains(case_.reason), "\(case_.name): \(text)")
        #expect(probe.logs.contains { $0.contains(case_.reason) }, "\(case_.name)")
        guard case .error(let goodbye) = probe.sent.last else {
            Issue.record("\(case_.name): no error frame sent")
            return
        }
        #expect(goodbye.code == .protocolError)
        if case .closed = probe.session.state {} else { Issue.record("\(case_.name): session still open") }
        #expect(probe.handle(.bytes(try! Ping(nonce: 1).frame().encoded())).isEmpty)
    }

    @Test func theReceiverSideOfAClosedConnectionIsNotAnError() {
        var probe = SessionProbe()
        probe.handle(.transportEnded(nil))
        #expect(probe.closeReason == .transport(nil))
        #expect(probe.sent.isEmpty)
    }

    @Test func thePeersErrorFrameIsLoggedAndEndsTheSession() {
        var probe = SessionProbe()
        probe.receive(ErrorMessage(code: .paused, message: "paused by its owner"))
        #expect(probe.closeReason == .remoteClosed(.paused, "paused by its owner"))
        #expect(probe.logs.contains { $0.contains("paused by its owner") })
        #expect(probe.sent.isEmpty)
    }

    @Test func aLocalCloseTellsThePeerWhy() {
        var probe = SessionProbe()
        probe.handle(.closeRequested(.duplicate, "another connection is kept"))
        #expect(
            probe.sent == [
                .error(
                    ErrorMessage(
                        code: .duplicate,
                        message: "another connection is kept"))
            ])
        #expect(probe.closeReason == .local(.duplicate, "another connection is kept"))
    }
}

extension SessionProbe {
    var lastFrames: [Frame] {
        last.flatMap { action -> [Frame] in
            if case .send(let frames) = action { return frames }
            return []
        }
    }

    @discardableResult
    mutating func receive(hello: Hello) -> [SessionAction] { handle(.frame(hello.frame())) }
}
