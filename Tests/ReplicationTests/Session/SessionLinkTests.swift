import Foundation
import Store
import TestSupport
import Testing

@testable import Replication

/// Owner and participant replicate through two sessions and real stores, bytes cut into
/// random pieces: the same result as a direct store-to-store sync.
@Suite struct SessionLinkTests {
    static var configuration: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.changeBatchSize = 7
        configuration.changeWindowBytes = 2_000
        configuration.dataChunkSize = 1_000
        configuration.dataWindow = 3
        return configuration
    }

    @Test(arguments: 0..<4)
    func ownerAndParticipantConvergeWithBytesInRandomPieces(round: Int) throws {
        let world = try TwoLibraries()
        var photos: [String] = []
        for index in 0..<5 {
            let bytes = (0..<(2_500 + index * 700)).map { UInt8(truncatingIfNeeded: $0 &* (index + 3)) }
            photos.append(
                try world.owner.addPhoto("p\(index).jpg", bytes: bytes, tags: ["t\(index % 2)"]))
        }
        let zone = try world.share(photos[0])
        for photo in photos.dropFirst() {
            try world.owner.library.privateStore.addToShare(photo: photo, zone: zone)
        }
        let link = world.link(zone: zone, configuration: Self.configuration)
        link.start()
        #expect(link.deliverAll(), "seed \(link.seed)")
        let shared = world.participant.library.sharedStore
        _ = try shared.tag(photo: photos[1], name: "from-participant")
        _ = try shared.rate(photo: photos[2], value: 4)
        _ = try world.owner.library.privateStore.tag(photo: photos[3], name: "from-owner")
        link.commit(zone: zone)
        #expect(link.deliverAll(), "seed \(link.seed)")
        #expect(link.a.closed == nil && link.b.closed == nil, "seed \(link.seed)")
        let ownerDump = try world.owner.library.privateStore.canonicalDump(zone: zone)
        #expect(ownerDump == (try shared.canonicalDump(zone: zone)), "seed \(link.seed)")
        let received = try shared.photos(zone: zone)
        #expect(received.count == 5)
        #expect(received.allSatisfy { !$0.pending }, "seed \(link.seed): photo data arrived and verified")
        #expect(link.a.session.isIdle && link.b.session.isIdle, "seed \(link.seed)")
    }

    @Test func garbageInTheStreamClosesOnlyWithALoggedReason() throws {
        let world = try TwoLibraries()
        let zone = try world.share(try world.owner.addPhoto("p.jpg", bytes: [1, 2, 3], tags: []))
        let link = world.link(zone: zone, configuration: Self.configuration)
        link.start()
        link.deliverAll()
        link.a.handle(.bytes([0, 0, 0, 2, 0x03, 0xFF]), now: link.now)
        guard case .protocolViolation(let reason) = link.a.closed else {
            Issue.record("expected a protocol violation, got \(String(describing: link.a.closed))")
            return
        }
        #expect(reason.contains("message ended early"))
    }
}

/// An owner and a participant, each with its own library in its own temp directory.
final class TwoLibraries {
    let owner: TestLibrary
    let participant: TestLibrary

    init() throws {
        owner = try TestLibrary()
        participant = try TestLibrary()
    }

    /// Shares `photo` with the participant (read-write, accepted) as a test-only shortcut
    /// through the store API.
    func share(_ photo: String) throws -> String {
        let zone = try owner.library.privateStore.createShare(
            photo: photo, title: "Trip", publicPermission: .none)
        try owner.library.privateStore.setParticipant(
            zone: zone, peer: participant.peer, permission: .readWrite, status: .accepted)
        try participant.library.sharedStore.prepareParticipantZone(zone, owner: owner.peer)
        return zone
    }

    func link(zone: String, configuration: SessionConfiguration) -> SessionLink {
        let ownerZone = SessionZone(
            zone: zone, store: .private, localIsOwner: true,
            clock: (try? owner.library.privateStore.clock(of: zone)) ?? VectorClock())
        let participantZone = SessionZone(
            zone: zone, store: .shared, localIsOwner: false,
            clock: (try? participant.library.sharedStore.clock(of: zone)) ?? VectorClock())
        return SessionLink(
            a: (owner.library, [ownerZone]), b: (participant.library, [participantZone]),
            configuration: configuration)
    }
}
