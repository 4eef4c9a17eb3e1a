import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// A peer that closes this side's dial as a duplicate (it keeps the connection it dialed
/// itself) was reached: `sync --wait` must not report it unreachable for the round.
@Suite struct EngineDuplicateDialTests {
    @Test func aDialThePeerClosesAsADuplicateDoesNotMakeItUnreachable() async throws {
        let owner = try EnginePeer("owner")
        let served = Guarded(0)
        let (listener, other) = try Self.peerRefusingAsDuplicate(served: served)
        defer { listener.close() }
        try shareZone(owner: owner, withStandIn: other.peer, at: listener.port)
        owner.engine.syncNow()
        // Two dials answered "duplicate": the engine has handled the first one's end.
        try waitUntil("the engine dialed twice") { served.withLock { $0 } >= 2 }
        let status = owner.engine.syncStatus()
        #expect(status.unreachable.isEmpty, "\(status.unreachable)")
        #expect(!status.inSync)
    }

    /// A connection this side replaced was the one in use: when it ends after its replacement
    /// has (closed by the peer as a duplicate of a third), its end is not a failed dial. A
    /// dial refused here or there as a duplicate, or a connection the peer closed, is judged
    /// as before.
    @Test func aConnectionReplacedHereIsNotAFailedDial() {
        #expect(ReplicationEngine.wasReplaced(.local(.duplicate, ReplicationEngine.replacedReason)))
        #expect(
            !ReplicationEngine.wasReplaced(.local(.duplicate, "another connection with this peer is kept")))
        #expect(!ReplicationEngine.wasReplaced(.remoteClosed(.duplicate, ReplicationEngine.replacedReason)))
        #expect(!ReplicationEngine.wasReplaced(.transport(nil)))
    }

    /// A daemon that restarted dials a peer that still keeps the connection of its previous
    /// run (the peer has not noticed its end yet, and keeps it by the tie-break): the first
    /// refusal is tried again at once, not after the backoff (here ten minutes).
    @Test func aFirstDuplicateRefusalIsDialedAgainWithoutTheBackoff() async throws {
        let owner = try EnginePeer("owner") {
            $0.reconnectBase = .seconds(600)
            $0.reconnectMax = .seconds(600)
        }
        let served = Guarded(0)
        let (listener, other) = try Self.peerRefusingAsDuplicate(served: served)
        defer { listener.close() }
        try shareZone(owner: owner, withStandIn: other.peer, at: listener.port)
        owner.engine.syncNow()
        try waitUntil("the engine dialed again after the first refusal") {
            served.withLock { $0 } >= 2
        }
        // The second refusal backs off as usual: a peer refusing every dial so gets one quick
        // redial, not ten a second.
        try waitUntil("the second refusal is backed off") {
            owner.engine.state.withLock { state in
                guard let record = state.records[other.peer], record.attempt >= 2, !record.dialing,
                    let next = record.nextDial
                else { return false }
                return next > .now + .seconds(60)
            }
        }
        #expect(served.withLock { $0 } == 2)
    }

    /// Plays the other peer: completes TLS and the hello, then says it keeps another
    /// connection with this one, and closes; `served` counts the dials answered.
    private static func peerRefusingAsDuplicate(served: Guarded<Int>) throws -> (TCPListener, RawPeer) {
        let other = try RawPeer()
        let listener = try other.answerDials(
            serve: { stream in
                try? stream.send(
                    ErrorMessage(code: .duplicate, message: "another connection with this peer is kept")
                        .frame())
            },
            closed: { served.withLock { $0 += 1 } })
        return (listener, other)
    }
}
