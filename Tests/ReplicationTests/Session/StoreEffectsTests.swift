import Foundation
import Store
import Support
import Testing

@testable import Replication

/// The store side of a session as the connection runs it: results that arrive later, in an
/// order the session can rely on.
@Suite struct StoreEffectsTests {
    @Test func dataAChangeSetLacksIsWantedBeforeTheSetIsReportedApplied() throws {
        let world = try TwoLibraries()
        let photo = try world.owner.addPhoto("p.jpg", bytes: [1, 2, 3, 4], tags: [])
        let zone = try world.share(photo)
        let sets = try world.owner.library.privateStore.changes(
            zone: zone, since: try world.participant.library.sharedStore.clock(of: zone), batchSize: 1_000)
        let delivered = Guarded<[String]>([])
        let effects = StoreEffects(
            library: world.participant.library, remotePeer: world.owner.peer, claims: DataClaims(),
            publish: { _, _ in }, deliver: { event in delivered.withLock { $0.append(Self.name(event)) } },
            background: { $0() }, onDataStored: { _, _ in })
        effects.zones = [
            zone: SessionZone(zone: zone, store: .shared, localIsOwner: false, clock: VectorClock())
        ]
        for set in sets { #expect(effects.perform(.apply(set))?.isEmpty == true) }
        // Applied first, the session would look idle — in sync — with the data missing.
        #expect(delivered.withLock { $0 }.prefix(2) == ["dataWanted", "applied"])
    }

    private static func name(_ event: SessionEvent) -> String {
        switch event {
        case .dataWanted: "dataWanted"
        case .applied: "applied"
        default: "other"
        }
    }
}
