import Store
import TestSupport
import Testing

@testable import Replication

/// A connection whose zones fell behind membership (an update it missed) is put right by the
/// next membership refresh, even when membership itself did not change (before, such a
/// refresh looked at no connection), and a zone that comes back on a connection is replicated
/// again at once: the peer, which went on replicating it and does not announce it again, is
/// not waited for (before, the side that had dropped the zone never sent it anything more).
@Suite struct EngineStaleZonesTests {
    @Test func aConnectionThatLostItsZonesGetsThemBackAtTheNextRefresh() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (zone, photo) = try shareZone(owner: owner, with: [participant])
        await expectInSync([owner, participant])
        // Membership as the engine holds it is the stores' now: the refresh below finds it
        // unchanged.
        owner.engine.refreshMembership()
        let connection = try #require(
            owner.engine.state.withLock { $0.current.first { $0.peer == participant.peer } })
        // The missed update: the owner's side of the connection replicates nothing. (Another
        // refresh may give the zone back at any moment after: the log says it was dropped.)
        connection.post(.zonesChanged([]))
        #expect(await eventually { owner.logged("stopped replicating zone \(zone) with this peer") })
        _ = try owner.priv.tag(photo: photo, name: "dawn")

        owner.engine.refreshMembership()
        #expect(
            await eventually { connection.status.withLock { $0.zones } == [zone] },
            "\(owner.logs.all.suffix(20))")
        #expect(
            await eventually { try participant.shared.photo(photo)?.tags.map(\.name) == ["dawn", "summer"] },
            "\(participant.logs.all.suffix(20))")
    }
}
