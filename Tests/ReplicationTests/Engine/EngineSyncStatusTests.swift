import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// `sync --wait` names why each member is behind, not only who.
@Suite struct EngineSyncStatusTests {
    /// A participant whose address takes the TCP connection and never answers the TLS
    /// handshake: its dial is under way, so it is behind, "not connected yet" (and not
    /// unreachable: nothing failed).
    @Test func aMemberWhoseDialHangsIsBehindAsNotConnectedYet() throws {
        let owner = try EnginePeer("owner") { $0.handshakeTimeout = .seconds(600) }
        let silent = try TCPListener.bind(host: "127.0.0.1", port: 0)
        defer { silent.close() }
        let temp = try TestDirectory()
        let other = try PeerIdentity.loadOrCreate(directory: temp.file("other")).peerID
        let photo = try owner.addPhoto("beach.jpg", bytes: Array("pixels".utf8))
        let zone = try owner.priv.createShare(photo: photo, title: "Holidays", publicPermission: .none)
        try owner.priv.setParticipant(zone: zone, peer: other, permission: .readWrite, status: .accepted)
        owner.engine.setAddress(PeerAddress(host: "127.0.0.1", port: silent.port), for: other)
        owner.engine.refreshMembership()
        owner.engine.syncNow()
        try waitUntil("the dial is under way") {
            owner.engine.state.withLock { $0.records[other]?.dialing == true }
        }
        let status = owner.engine.syncStatus()
        #expect(!status.inSync)
        #expect(status.behind == [other])
        #expect(status.reasons == [other: "not connected yet"])
        #expect(status.unreachable.isEmpty)
    }
}

/// `waitForSync` under a busy concurrency pool: a check that was read before the timeout but
/// resumed after it (the pool taken by other work meanwhile) is stale, and is not what the
/// wait reports.
@Suite struct SyncStatusPollTests {
    static let behind = SyncStatus(
        inSync: false, behind: [], unreachable: [], reasons: [:])
    static let inSync = SyncStatus(inSync: true, behind: [], unreachable: [], reasons: [:])

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
