import Store
import TestSupport
import Testing

@testable import Replication

@Suite struct EngineReplicationTests {
    @Test func photosTagsAndRatingsReplicateBothWays() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (zone, photo) = try shareZone(owner: owner, with: [participant])
        #expect(await eventually { try participant.shared.photo(photo)?.tags.map(\.name) == ["summer"] })
        let second = try owner.addPhoto("hill.jpg", bytes: Array("a hill".utf8), tags: ["walk"])
        try owner.priv.addToShare(photo: second, zone: zone)
        _ = try owner.priv.rate(photo: photo, value: 5)
        #expect(await eventually { try participant.shared.photo(second)?.tags.map(\.name) == ["walk"] })
        #expect(await eventually { try participant.shared.photo(photo)?.ratings.map(\.value) == [5] })

        _ = try participant.shared.tag(photo: photo, name: "sea")
        _ = try participant.shared.rate(photo: second, value: 2)
        try participant.shared.renamePhoto(second, to: "hill at dusk.jpg")
        #expect(await eventually { try owner.priv.photo(photo)?.tags.map(\.name) == ["sea", "summer"] })
        #expect(await eventually { try owner.priv.photo(second)?.name == "hill at dusk.jpg" })
        #expect(await eventually { try owner.priv.photo(second)?.ratings.map(\.value) == [2] })
        #expect(await owner.engine.waitUntilInSync(timeout: .seconds(30)))
        #expect(await participant.engine.waitUntilInSync(timeout: .seconds(30)))
        #expect(try owner.priv.canonicalDump(zone: zone) == participant.shared.canonicalDump(zone: zone))
        #expect(await eventually { try participant.shared.photos(zone: zone).allSatisfy { !$0.pending } })

        let status = owner.engine.status(of: participant.peer)
        #expect(status.connected && status.zones == [zone] && status.bytesIn > 0 && status.bytesOut > 0)
        #expect(status.lastSeen != nil)
    }

    @Test func aParticipantsTagReachesTheOtherParticipantThroughTheOwner() async throws {
        let owner = try EnginePeer("owner")
        let first = try EnginePeer("first")
        let second = try EnginePeer("second")
        let (zone, photo) = try shareZone(owner: owner, with: [first, second])
        #expect(
            await eventually { try first.shared.photo(photo) != nil && second.shared.photo(photo) != nil })
        _ = try first.shared.tag(photo: photo, name: "from-first")
        #expect(
            await eventually {
                try second.shared.photo(photo)?.tags.map(\.name).contains("from-first") == true
            })
        _ = try second.shared.rate(photo: photo, value: 3)
        #expect(await eventually { try first.shared.photo(photo)?.ratings.map(\.value) == [3] })
        for peer in [owner, first, second] {
            #expect(await peer.engine.waitUntilInSync(timeout: .seconds(30)))
        }
        let dump = try owner.priv.canonicalDump(zone: zone)
        #expect(try first.shared.canonicalDump(zone: zone) == dump)
        #expect(try second.shared.canonicalDump(zone: zone) == dump)
    }

    @Test func changesMadeWhileAnEngineIsStoppedArriveAfterItRestarts() async throws {
        let owner = try EnginePeer("owner")
        let participant = try EnginePeer("participant")
        let (zone, photo) = try shareZone(owner: owner, with: [participant])
        #expect(await eventually { try participant.shared.photo(photo) != nil })
        participant.stopEngine()
        _ = try owner.priv.tag(photo: photo, name: "while-away")
        _ = try participant.shared.tag(photo: photo, name: "offline-edit")
        try participant.startEngine()
        participant.engine.setAddress(owner.address, for: owner.peer)
        #expect(
            await eventually {
                try participant.shared.photo(photo)?.tags.map(\.name).contains("while-away") == true
            })
        #expect(
            await eventually {
                try owner.priv.photo(photo)?.tags.map(\.name).contains("offline-edit") == true
            })

        owner.stopEngine()
        _ = try participant.shared.rate(photo: photo, value: 1)
        try owner.startEngine()
        participant.engine.setAddress(owner.address, for: owner.peer)
        #expect(await eventually { try owner.priv.photo(photo)?.ratings.map(\.value) == [1] })
        #expect(await participant.engine.waitUntilInSync(timeout: .seconds(30)))
        #expect(try owner.priv.canonicalDump(zone: zone) == participant.shared.canonicalDump(zone: zone))
    }
}
