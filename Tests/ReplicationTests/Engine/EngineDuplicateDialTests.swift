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

    /// A dialed connection that became the one in use and was then replaced is no failed
    /// dial, however it ends: its replacement may have ended before it (the peer closed that
    /// one as a duplicate of a third), and its own end may come as a transport error rather
    /// than this side's close. Counted as a failed dial, it made the peer "unreachable" for the
    /// round and `sync --wait` returned without waiting for it. The replacement that came and
    /// went is played by clearing the record's connection: the race cannot be timed from here.
    @Test func aConnectionThatWasInUseIsNoFailedDialWhenItEndsAfterItsReplacement() async throws {
        let owner = try EnginePeer("owner")
        let other = try RawPeer()
        let listener = try other.answerDials(serve: { stream in _ = RawPeer.drainNow(stream) })
        defer {
            // The engine redials after the end; stopped first, it closes what the peer drains.
            owner.stopEngine()
            listener.close()
        }
        try shareZone(owner: owner, withStandIn: other.peer, at: listener.port)
        owner.engine.syncNow()
        var inUse: PeerConnection?
        try waitUntil("the dialed connection is the one in use") {
            inUse = owner.engine.state.withLock { $0.records[other.peer]?.current }
            return inUse != nil
        }
        let connection = try #require(inUse)
        owner.engine.state.withLock { $0.records[other.peer]?.current = nil }
        connection.cut()
        try waitUntil("the engine has handled its end") {
            owner.engine.state.withLock { $0.connections[connection.id] == nil }
        }
        let status = owner.engine.syncStatus()
        #expect(status.unreachable.isEmpty, "\(status.unreachable)")
        let attempt = owner.engine.state.withLock { $0.records[other.peer]?.attempt }
        #expect(attempt == 0, "the end was counted as a failed attempt")
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
