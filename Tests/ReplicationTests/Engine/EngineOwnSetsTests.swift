import Store
import TestSupport
import Testing

@testable import Replication

/// The owner's own signed sets while it is connected (`ReplicationConfiguration.ownSetsDelay`):
/// its changes reach a participant at once as change sets, the sets that prove them follow
/// together after the delay, and `sync` sends them at once.
@Suite struct EngineOwnSetsTests {
    @Test func theOwnersSetsFollowItsChangesLaterAndTogetherAndSyncSendsThemNow() async throws {
        // Held far longer than the test takes: only `syncNow` can bring them.
        let owner = try EnginePeer("owner") { $0.ownSetsDelay = .seconds(3_600) }
        let participant = try EnginePeer("participant")
        let (zone, photo) = try shareZone(owner: owner, with: [participant])
        await expectInSync([owner, participant])
        let ownerTop: @Sendable () throws -> UInt64? = {
            try owner.priv.signedSetTops(zone: zone)[owner.peer]?.seq
        }
        let heldThere: @Sendable () throws -> UInt64? = {
            try participant.shared.signedSetTops(zone: zone)[owner.peer]?.seq
        }
        // What the owner signed before the connection came with the exchange that opened it.
        #expect(await eventually { try heldThere() == ownerTop() })
        let before = try #require(try heldThere())

        for name in ["dawn", "noon", "dusk"] { _ = try owner.priv.tag(photo: photo, name: name) }
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name) == ["dawn", "dusk", "noon", "summer"]
            })
        let signed = try #require(try ownerTop())
        #expect(signed >= before + 3)
        #expect(try heldThere() == before, "the sets went with the changes instead of after the delay")

        owner.engine.syncNow()
        #expect(await eventually { try heldThere() == ownerTop() && heldThere()! >= signed })
        #expect(try owner.priv.canonicalDump(zone: zone) == participant.shared.canonicalDump(zone: zone))
    }

    @Test func withoutADelayTheOwnersSetsGoWithItsChanges() async throws {
        let owner = try EnginePeer("owner") { $0.ownSetsDelay = .zero }
        let participant = try EnginePeer("participant")
        let (zone, photo) = try shareZone(owner: owner, with: [participant])
        _ = try owner.priv.tag(photo: photo, name: "dawn")
        let tagged = try #require(try owner.priv.signedSetTops(zone: zone)[owner.peer]?.seq)
        // The owner's engine may sign more meanwhile (the membership operations it issues for
        // the new share): the participant ends up holding whatever the owner's newest is.
        #expect(
            await eventually {
                let top = try owner.priv.signedSetTops(zone: zone)[owner.peer]?.seq ?? 0
                let held = try participant.shared.signedSetTops(zone: zone)[owner.peer]?.seq
                return top >= tagged && held == top
            })
    }
}
