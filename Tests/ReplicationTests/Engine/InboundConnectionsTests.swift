import Testing

@testable import Replication

/// The bookkeeping of incoming connections, without sockets.
@Suite struct InboundConnectionsTests {
    @Test func aHandshakeSlotIsHeldFromAcceptUntilTheHelloOrTheEnd() {
        var inbound = InboundConnections()
        let first = (0..<4).map { _ in inbound.beginHandshake(limit: 2) }
        #expect(first == [true, true, false, false])
        inbound.tlsEnded(connection: 7)  // past TLS, waiting for the hello: still counted
        inbound.tlsEnded(connection: nil)  // TLS failed: free
        #expect(inbound.handshakes == 1)
        let second = (0..<2).map { _ in inbound.beginHandshake(limit: 2) }
        #expect(second == [true, false])
        let refusals = [inbound.takeRefusals(), inbound.takeRefusals()]
        #expect(refusals == [3, 0])
        inbound.helloArrived(7)
        inbound.tlsEnded(connection: 8)
        inbound.ended(8)
        #expect(inbound.handshakes == 0)
    }

    @Test func guestsAreBoundedInNumberAndTime() {
        let start = ContinuousClock.now
        var inbound = InboundConnections()
        let admitted = [
            inbound.beginGuest(1, until: start + .seconds(5), limit: 2),
            inbound.beginGuest(2, until: start + .seconds(1), limit: 2),
            inbound.beginGuest(3, until: start + .seconds(5), limit: 2),
        ]
        #expect(admitted == [true, true, false])
        #expect(inbound.overdueGuests(at: start + .seconds(2)) == [2])
        inbound.ended(2)
        let third = inbound.beginGuest(3, until: start + .seconds(5), limit: 2)
        #expect(third)
        #expect(inbound.overdueGuests(at: start + .seconds(6)) == [1, 3])
    }

    @Test func memoryIsTrimmedOnceAfterABurstHasBeenOverForAWhile() {
        var inbound = InboundConnections()
        for _ in 0..<3 { _ = inbound.beginHandshake(limit: 10) }
        for _ in 0..<3 { inbound.tlsEnded(connection: nil) }
        let checks = (0..<4).map { _ in inbound.trimDue(burst: 3, quietChecks: 2) }
        #expect(checks == [false, true, false, false])
        // A small burst is not worth it.
        _ = inbound.beginHandshake(limit: 10)
        inbound.tlsEnded(connection: nil)
        let afterSmallBurst = inbound.trimDue(burst: 3, quietChecks: 1)
        #expect(!afterSmallBurst)
        // Nor is anything while connections are still counted.
        for _ in 0..<3 { _ = inbound.beginHandshake(limit: 10) }
        let duringBurst = inbound.trimDue(burst: 3, quietChecks: 1)
        #expect(!duringBurst)
    }
}
