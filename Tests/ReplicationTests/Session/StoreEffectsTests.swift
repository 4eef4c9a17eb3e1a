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
            background: { $0() }, backgroundIsIdle: { false }, onDataStored: { _, _ in })
        effects.zones = [
            zone: SessionZone(zone: zone, store: .shared, localIsOwner: false, clock: VectorClock())
        ]
        for set in sets { #expect(effects.perform(.apply(set))?.isEmpty == true) }
        // Applied first, the session would look idle — in sync — with the data missing.
        #expect(delivered.withLock { $0 }.prefix(2) == ["dataWanted", "applied"])
    }

    /// Data a set names that the store holds already is named all the same (the thread that
    /// applies makes no file lookup per photo); its transfer, opened on the connection's
    /// worker, finds it there: nothing is asked of the peer, and the claim is given back.
    @Test func dataAlreadyHereIsFoundWhenItsTransferOpensAndNothingIsFetched() throws {
        let world = try TwoLibraries()
        let bytes: [UInt8] = [5, 6, 7, 8]
        let photo = try world.owner.addPhoto("p.jpg", bytes: bytes, tags: [])
        let zone = try world.share(photo)
        let held = try world.participant.library.sharedStore.blobs.store(bytes)
        let sets = try world.owner.library.privateStore.changes(
            zone: zone, since: try world.participant.library.sharedStore.clock(of: zone), batchSize: 1_000)
        let claims = DataClaims()
        let effects = StoreEffects(
            library: world.participant.library, remotePeer: world.owner.peer, claims: claims,
            publish: { _, _ in }, deliver: { _ in }, background: { $0() }, backgroundIsIdle: { true },
            onDataStored: { _, _ in })
        effects.zones = [
            zone: SessionZone(zone: zone, store: .shared, localIsOwner: false, clock: VectorClock())
        ]
        var wanted: [DataItem] = []
        for set in sets {
            for case .dataWanted(let items) in effects.perform(.apply(set)) ?? [] { wanted += items }
        }
        let item = try #require(wanted.first { $0.hash.hex == held.hash })
        #expect(effects.openPartial(item) == .alreadyPresent)
        #expect(claims.claim(item.hash, in: .shared), "the claim was given back")
    }

    /// A photo the store refused (here, from a participant made read-only since it wrote it)
    /// names no data to fetch: a member that may not write cannot have its data stored here.
    @Test func aRefusedPhotosDataIsNotWanted() throws {
        let sent = try Self.participantsPhotoAtTheOwner(permission: .readOnly) { $0 }
        #expect(sent.refused.contains(sent.photo), "the read-only participant's photo is refused")
        #expect(!sent.wanted.contains(sent.hash), "its data is not asked for")
    }

    /// A participant passes on only its own changes: a photo whose fields carry another
    /// device's stamps is dropped, and names no data to fetch from it.
    @Test func dataNamedInAnotherAuthorsFieldsIsNotWanted() throws {
        let sent = try Self.participantsPhotoAtTheOwner(permission: .readWrite) { object in
            var forged = object
            forged.fields = object.fields.map {
                FieldChange(
                    field: $0.field, value: $0.value,
                    stamp: Stamp(hlc: $0.stamp.hlc, peer: PeerID(digest: [UInt8](repeating: 7, count: 32))!))
            }
            return forged
        }
        #expect(sent.refused.isEmpty)
        #expect(!sent.wanted.contains(sent.hash), "the data of fields it may not pass on is not asked for")
        let control = try Self.participantsPhotoAtTheOwner(permission: .readWrite) { $0 }
        #expect(control.wanted.contains(control.hash), "its own photo's data is")
    }

    /// A participant adds a photo to a share; the owner, having set its permission to
    /// `permission`, applies the participant's sets with each photo object passed through
    /// `alter`. Returns the photo, its data's hash, the data the owner wants and the IDs it
    /// refused.
    private static func participantsPhotoAtTheOwner(
        permission: Permission, alter: (ObjectChange) -> ObjectChange
    ) throws -> (photo: String, hash: String, wanted: [String], refused: [String]) {
        let world = try TwoLibraries()
        let first = try world.owner.addPhoto("p.jpg", bytes: [1, 2, 3, 4], tags: [])
        let zone = try world.share(first)
        let participantStore = world.participant.library.sharedStore
        for set in try world.owner.library.privateStore.changes(
            zone: zone, since: try participantStore.clock(of: zone), batchSize: 1_000)
        {
            _ = try participantStore.apply(set, from: world.owner.peer)
        }
        let data = try participantStore.blobs.store([9, 9, 9, 9])
        let theirs = try participantStore.addPhoto(zone: zone, name: "theirs.jpg", data: data)
        let sets = try participantStore.changes(
            zone: zone, since: try world.owner.library.privateStore.clock(of: zone), batchSize: 1_000,
            author: world.participant.peer
        ).map { set in
            var set = set
            set.objects = set.objects.map { $0.entity == .photo ? alter($0) : $0 }
            return set
        }
        try world.owner.library.privateStore.setParticipant(
            zone: zone, peer: world.participant.peer, permission: permission, status: .accepted)
        let effects = StoreEffects(
            library: world.owner.library, remotePeer: world.participant.peer, claims: DataClaims(),
            publish: { _, _ in }, deliver: { _ in }, background: { $0() }, backgroundIsIdle: { true },
            onDataStored: { _, _ in })
        effects.zones = [
            zone: SessionZone(
                zone: zone, store: .private, localIsOwner: true,
                clock: try world.owner.library.privateStore.clock(of: zone))
        ]
        var wanted: [String] = []
        var refused: [String] = []
        for set in sets {
            for event in effects.perform(.apply(set)) ?? [] {
                switch event {
                case .dataWanted(let items): wanted += items.map(\.hash.hex)
                case .applied(_, .applied(let refusals, _, _)): refused += refusals.map(\.id)
                default: break
                }
            }
        }
        return (theirs, data.hash, wanted, refused)
    }

    /// A peer's small change, with no store work queued, is applied on the connection's own
    /// thread: its results come back from `perform`, in the same order, and nothing goes
    /// through the background. A larger set still goes there.
    @Test func aSmallSetIsAppliedInlineWhenNoStoreWorkIsQueued() throws {
        let world = try TwoLibraries()
        let photo = try world.owner.addPhoto("p.jpg", bytes: [1, 2, 3, 4], tags: ["a"])
        let zone = try world.share(photo)
        let sets = try world.owner.library.privateStore.changes(
            zone: zone, since: try world.participant.library.sharedStore.clock(of: zone), batchSize: 1_000)
        try #require(sets.count == 1 && sets[0].changeCount <= StoreEffects.inlineApplyChanges)
        let backgroundJobs = Guarded(0)
        let effects = StoreEffects(
            library: world.participant.library, remotePeer: world.owner.peer, claims: DataClaims(),
            publish: { _, _ in }, deliver: { _ in },
            background: { job in
                backgroundJobs.withLock { $0 += 1 }
                job()
            }, backgroundIsIdle: { true }, onDataStored: { _, _ in })
        effects.zones = [
            zone: SessionZone(zone: zone, store: .shared, localIsOwner: false, clock: VectorClock())
        ]
        let events = try #require(effects.perform(.apply(sets[0])))
        #expect(events.map(Self.name) == ["dataWanted", "applied"])
        #expect(backgroundJobs.withLock { $0 } == 0)
        #expect(try world.participant.library.sharedStore.photo(photo) != nil)

        let large = ChangeSet(
            zone: zone, since: sets[0].until, until: sets[0].until,
            objects: Array(repeating: sets[0].objects[0], count: StoreEffects.inlineApplyChanges + 1))
        #expect(large.changeCount > StoreEffects.inlineApplyChanges)
        #expect(effects.perform(.apply(large))?.isEmpty == true)
        #expect(backgroundJobs.withLock { $0 } == 1)
    }

    /// Sets that arrive before the apply job has found its batch empty join it; once it has,
    /// the next set starts a job of its own, so none is left unapplied, and every set is
    /// answered in order.
    @Test func aSetArrivingAfterTheJobTookItsLastSetStartsAJobOfItsOwn() throws {
        let world = try TwoLibraries()
        var photos: [String] = []
        for i in 0..<3 {
            photos.append(try world.owner.addPhoto("p\(i).jpg", bytes: [UInt8(i)], tags: ["t\(i)"]))
        }
        let zone = try world.share(photos[0])
        for photo in photos.dropFirst() {
            try world.owner.library.privateStore.addToShare(photo: photo, zone: zone)
        }
        let sets = try world.owner.library.privateStore.changes(
            zone: zone, since: try world.participant.library.sharedStore.clock(of: zone), batchSize: 1)
        try #require(sets.count >= 3)
        let jobs = Guarded<[@Sendable () -> Void]>([])
        let delivered = Guarded<[String]>([])
        let effects = StoreEffects(
            library: world.participant.library, remotePeer: world.owner.peer, claims: DataClaims(),
            publish: { _, _ in },
            deliver: { event in
                if case .applied(_, .applied) = event { delivered.withLock { $0.append("applied") } }
            },
            background: { job in jobs.withLock { $0.append(job) } }, backgroundIsIdle: { false },
            onDataStored: { _, _ in })
        effects.zones = [
            zone: SessionZone(zone: zone, store: .shared, localIsOwner: false, clock: VectorClock())
        ]
        let store = world.participant.library.sharedStore
        let token = try store.lastHistoryToken()
        for set in sets.dropLast() { #expect(effects.perform(.apply(set))?.isEmpty == true) }
        #expect(jobs.withLock { $0.count } == 1, "the sets joined the first one's job")
        jobs.withLock { $0.removeFirst() }()
        #expect(delivered.withLock { $0.count } == sets.count - 1)
        #expect(try store.lastHistoryToken() == token + 1, "one transaction for the job")
        #expect(effects.perform(.apply(sets.last!))?.isEmpty == true)
        #expect(jobs.withLock { $0.count } == 1, "a job of its own")
        jobs.withLock { $0.removeFirst() }()
        #expect(delivered.withLock { $0.count } == sets.count)
        #expect(try store.clock(of: zone) == world.owner.library.privateStore.clock(of: zone))
    }

    private static func name(_ event: SessionEvent) -> String {
        switch event {
        case .dataWanted: "dataWanted"
        case .applied: "applied"
        default: "other"
        }
    }
}
