import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// `sync --wait` and `peers` name why each member is behind, not only who.
@Suite struct EngineSyncStatusTests {
    /// A participant whose address takes the TCP connection and never answers the TLS
    /// handshake: its dial is under way, so it is behind, "not connected yet" (and not
    /// unreachable: nothing failed).
    @Test func aMemberWhoseDialHangsIsBehindAsNotConnectedYet() throws {
        let owner = try EnginePeer("owner") { $0.handshakeTimeout = .seconds(600) }
        let silent = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { silent.close() }
        let other = try RawPeer().peer
        try shareZone(owner: owner, withStandIn: other, at: silent.port)
        owner.engine.syncNow()
        try waitUntil("the dial is under way") {
            owner.engine.state.withLock { $0.records[other]?.dialing == true }
        }
        let status = owner.engine.syncStatus()
        #expect(!status.inSync)
        #expect(status.behind == [other])
        #expect(status.reasons == [other: "not connected yet"])
        #expect(status.unreachable.isEmpty)
        #expect(owner.engine.status(of: other).behind == nil, "not connected: `peers` says offline")
    }

    /// A participant that completes TLS and the hello, then says nothing: connected, and behind
    /// because the session still waits for its zone clocks.
    @Test func aConnectedMemberThatSaysNothingIsBehindAsOpening() throws {
        let owner = try EnginePeer("owner")
        let other = try RawPeer()
        // Reads (and drops) what the owner sends until it closes.
        let listener = try other.answerDials(serve: { stream in _ = RawPeer.drainNow(stream) })
        defer { listener.close() }
        try shareZone(owner: owner, withStandIn: other.peer, at: listener.port)
        try waitUntil("connected") { owner.engine.status(of: other.peer).connected }
        let peer = owner.engine.status(of: other.peer)
        #expect(!peer.inSync)
        #expect(peer.behind == "busy: opening")
        #expect(owner.engine.syncStatus().reasons == [other.peer: "busy: opening"])
        // Closes the connection, so that the stand-in's thread ends before the listener's
        // `close` waits for it.
        owner.engine.stop()
    }
}

/// `waitForSync` under a busy concurrency pool: a check that was read before the timeout but
/// resumed after it (the pool taken by other work meanwhile) is stale, and is not what the
/// wait reports.
@Suite struct SyncStatusPollTests {
    static let behind = SyncStatus(
        inSync: false, unreachable: [], reasons: [:])
    static let inSync = SyncStatus(inSync: true, unreachable: [], reasons: [:])

    @Test func aCheckResumedAfterTheTimeoutIsReadAgain() async {
        let calls = Guarded(0)
        let status = await ReplicationEngine.poll(timeout: .milliseconds(50)) {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            guard call == 1 else { return Self.inSync }
            // Read while behind, handed back only after the timeout has passed.
            try? await Task.sleep(for: .milliseconds(200))
            return Self.behind
        }
        #expect(status.inSync)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test func aMemberStillBehindAfterTheTimeoutIsReported() async {
        let calls = Guarded(0)
        let status = await ReplicationEngine.poll(timeout: .milliseconds(50)) {
            calls.withLock { $0 += 1 }
            return Self.behind
        }
        #expect(!status.inSync)
        #expect(calls.withLock { $0 } >= 2)
    }
}
