import Testing

@testable import Replication

/// The bookkeeping of incoming connections, without sockets.
@Suite struct InboundConnectionsTests {
    let start = ContinuousClock.now

    func ticket(_ admission: InboundConnections.Admission) -> Int? {
        switch admission {
        case .admitted(let ticket), .evicting(let ticket, _): ticket
        case .refused: nil
        }
    }

    @Test func aHandshakeSlotIsHeldFromAcceptUntilTheHelloOrTheEnd() {
        var inbound = InboundConnections()
        let first = (0..<4).map { _ in
            ticket(inbound.beginHandshake(limit: 2, at: start, evictAfter: .seconds(1)))
        }
        #expect(first.map { $0 != nil } == [true, true, false, false])
        inbound.tlsEnded(ticket: first[0]!, connection: 7)  // past TLS, waiting for the hello: still counted
        inbound.tlsEnded(ticket: first[1]!, connection: nil)  // TLS failed: free
        #expect(inbound.handshakes == 1)
        let second = (0..<2).map { _ in
            ticket(inbound.beginHandshake(limit: 2, at: start, evictAfter: .seconds(1)))
        }
        #expect(second.map { $0 != nil } == [true, false])
        let refusals = [inbound.takeRefusals(), inbound.takeRefusals()]
        #expect(refusals == [3, 0])
        inbound.helloArrived(7)
        inbound.tlsEnded(ticket: second[0]!, connection: 8)
        inbound.ended(8)
        #expect(inbound.handshakes == 0)
    }

    /// With every slot held, a newcomer takes the slot of the oldest handshake once that one
    /// has lasted `evictAfter`: held slots cannot lock real peers out.
    @Test func theOldestHandshakeGivesWayToANewcomerOnceItHasLastedLongEnough() {
        var inbound = InboundConnections()
        let held = [
            inbound.beginHandshake(limit: 2, at: start, evictAfter: .seconds(1)),
            inbound.beginHandshake(limit: 2, at: start + .milliseconds(500), evictAfter: .seconds(1)),
        ]
        #expect(held == [.admitted(ticket: 1), .admitted(ticket: 2)])
        // Both younger than a second: refused.
        #expect(
            inbound.beginHandshake(limit: 2, at: start + .milliseconds(900), evictAfter: .seconds(1))
                == .refused)
        // The first has lasted a second: it gives way.
        #expect(
            inbound.beginHandshake(limit: 2, at: start + .seconds(1), evictAfter: .seconds(1))
                == .evicting(ticket: 3, victim: .tls(ticket: 1)))
        #expect(inbound.handshakes == 2)
        // The cut handshake's own end changes nothing.
        inbound.tlsEnded(ticket: 1, connection: nil)
        #expect(inbound.handshakes == 2)
        // A connection past TLS that never says hello is cut the same way, oldest first.
        inbound.tlsEnded(ticket: 2, connection: 42)
        #expect(
            inbound.beginHandshake(limit: 2, at: start + .seconds(2), evictAfter: .seconds(1))
                == .evicting(ticket: 4, victim: .awaitingHello(connection: 42)))
        #expect(inbound.takeEvictions() == 2)
        #expect(inbound.takeEvictions() == 0)
        inbound.helloArrived(42)  // too late: nothing to free
        #expect(inbound.handshakes == 2)
    }

    @Test func guestsAreBoundedInNumberAndTime() {
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
        func burst(_ count: Int) {
            let tickets = (0..<count).compactMap { _ in
                ticket(inbound.beginHandshake(limit: 10, at: start, evictAfter: .seconds(1)))
            }
            for t in tickets { inbound.tlsEnded(ticket: t, connection: nil) }
        }
        burst(3)
        let checks = (0..<4).map { _ in inbound.trimDue(burst: 3, quietChecks: 2) }
        #expect(checks == [false, true, false, false])
        // A small burst is not worth it.
        burst(1)
        let afterSmallBurst = inbound.trimDue(burst: 3, quietChecks: 1)
        #expect(!afterSmallBurst)
        // Nor is anything while connections are still counted.
        for _ in 0..<3 { _ = inbound.beginHandshake(limit: 10, at: start, evictAfter: .seconds(1)) }
        let duringBurst = inbound.trimDue(burst: 3, quietChecks: 1)
        #expect(!duringBurst)
    }
}
