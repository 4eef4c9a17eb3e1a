import Foundation
import Store
import Support
import TestSupport
import Testing

@testable import Replication

/// Every local transaction leaves, in the same SQLite transaction, this device's signed set
/// of what it wrote to each zone: numbered, chained, signed, and decoding to exactly the
/// fields the transaction wrote. Changes received from peers leave none of this device's.
@Suite struct OwnSignedSetsTests {
    let temp: TestDirectory
    let identity: PeerIdentity
    let keys = PublicKeyCache()

    init() throws {
        temp = try TestDirectory()
        identity = try PeerIdentity.loadOrCreate(directory: temp.file("identity"))
    }

    func openLibrary() throws -> Library {
        let library = try Library(directory: temp.file("state"), localPeer: identity.peerID)
        for store in library.stores { store.signOwnSets(with: OwnSetSigning(identity: identity)) }
        return library
    }

    /// The stored sets of `zone`, each decoded, checked against the device's certificate and
    /// its place on the chain, with its body decoded.
    func checkedChain(_ store: LibraryStore, zone: String) throws -> [ChangeSet] {
        var chains = AuthorChains(zone: zone)
        var bodies: [ChangeSet] = []
        for (seq, hash, bytes) in try store.ownSignedSets(zone: zone) {
            let set = try SignedChangeSet(decoding: bytes, maximumBodyBytes: 1 << 20)
            try set.verify(zone: zone, keys: keys) { [identity] in
                $0 == identity.peerID ? identity.certificateDER : nil
            }
            #expect(set.header.seq == seq && set.hash == hash)
            #expect(chains.check(set.header) == .next, "set \(seq)")
            chains.accept(set.header)
            bodies.append(try ChangeSetCodec.decode(set.body))
        }
        return bodies
    }

    @Test func eachLocalTransactionLeavesTheNextSignedSetOfItsZone() throws {
        let library = try openLibrary()
        defer { library.close() }
        let store = library.privateStore
        let data = try store.blobs.store(Array("pixels".utf8))
        let photo = try store.addPhoto(name: "beach.jpg", data: data)
        try store.renamePhoto(photo, to: "dunes.jpg")
        _ = try store.tag(photo: photo, name: "summer")

        let sets = try checkedChain(store, zone: LibraryStore.defaultZone)
        #expect(sets.count == 3)
        // The rename's set holds the rename and nothing else, stamped by this device.
        let rename = try #require(sets.dropFirst().first)
        #expect(rename.objects.map(\.id) == [photo])
        let fields = rename.objects[0].fields
        #expect(fields.map(\.field) == [PhotoField.name.code])
        #expect(fields[0].value == .text("dunes.jpg") && fields[0].stamp.peer == identity.peerID)
        // The first set creates the photo whole.
        #expect(
            Set(sets[0].objects[0].fields.map(\.field)).isSuperset(
                of: PhotoField.all.filter(\.isRequired).map(\.code)))
    }

    /// The peers of a zone ask for the sets they lack with the same request after each commit:
    /// the answer kept for the first is given again only while nothing was written since.
    @Test func setsAPeerLacksAreReadAgainOnceTheStoreWasWritten() throws {
        let library = try openLibrary()
        defer { library.close() }
        let store = library.privateStore
        let zone = LibraryStore.defaultZone
        let data = try store.blobs.store(Array("pixels".utf8))
        let photo = try store.addPhoto(name: "beach.jpg", data: data)
        let first = try store.signedSets(zone: zone, after: [:], byteLimit: 1 << 20)
        #expect(first.sets.map(\.seq) == [1] && !first.more)
        #expect(try store.signedSets(zone: zone, after: [:], byteLimit: 1 << 20).sets.map(\.seq) == [1])
        try store.renamePhoto(photo, to: "dunes.jpg")
        let second = try store.signedSets(zone: zone, after: [:], byteLimit: 1 << 20)
        #expect(second.sets.map(\.seq) == [1, 2])
        #expect(
            try store.signedSets(zone: zone, after: [identity.peerID: 1], byteLimit: 1 << 20).sets.map(\.seq)
                == [2])
        // A byte limit below one set still gives one, and says there is more.
        let limited = try store.signedSets(zone: zone, after: [:], byteLimit: 1)
        #expect(limited.sets.map(\.seq) == [1] && limited.more)
    }

    @Test func theChainGoesOnAfterTheLibraryIsOpenedAgain() throws {
        let photo: String
        do {
            let library = try openLibrary()
            let data = try library.privateStore.blobs.store(Array("pixels".utf8))
            photo = try library.privateStore.addPhoto(name: "beach.jpg", data: data)
            library.close()
        }
        let library = try openLibrary()
        defer { library.close() }
        try library.privateStore.renamePhoto(photo, to: "again.jpg")
        #expect(try checkedChain(library.privateStore, zone: LibraryStore.defaultZone).count == 2)
    }

    @Test func changesReceivedFromAPeerLeaveNoSetOfThisDevice() throws {
        let library = try openLibrary()
        defer { library.close() }
        let owner = randomPeer()
        let zone = "zone-from-a-peer"
        try library.sharedStore.prepareParticipantZone(zone, owner: owner)
        let before = try library.sharedStore.ownSignedSets(zone: zone).count
        let stamp = Stamp(hlc: HybridLogicalClock.wallMilliseconds() << 16, peer: owner)
        let tag = ObjectChange(
            entity: .tag, id: UUID().uuidString.lowercased(),
            fields: [
                FieldChange(
                    field: TagField.uuid.code, value: .text(UUID().uuidString.lowercased()), stamp: stamp),
                FieldChange(field: TagField.name.code, value: .text("summer"), stamp: stamp),
            ])
        let report = try library.sharedStore.apply(
            ChangeSet(
                zone: zone, since: VectorClock(), until: VectorClock([owner: stamp.hlc]), objects: [tag]),
            from: owner)
        #expect(report.refused.isEmpty)
        #expect(try library.sharedStore.tags(zone: zone).map(\.name) == ["summer"])
        #expect(try library.sharedStore.ownSignedSets(zone: zone).count == before)
    }
}
