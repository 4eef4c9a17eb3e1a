import Store
import TestSupport
import Testing

@testable import Replication

/// A relayed set refused for want of something that came later (a photo the receiver did not
/// hold yet) is taken again once a later message brings it, with the owner away: the
/// receiver's clock then claims the author's chain, and the author's change is there
/// (docs/REPLICATION.md, *Relayed changes*).
@Suite struct SetRelayRetakeTests {
    let owner = SignedSetFixtures.devices[0]
    let writer = SignedSetFixtures.devices[1]
    let owners: TestLibrary
    let writers: TestLibrary
    let receivers: TestLibrary
    let zone: String
    let photo: String

    init() throws {
        owners = try TestLibrary(peer: owner.peerID)
        writers = try TestLibrary(peer: writer.peerID)
        receivers = try TestLibrary()
        photo = try owners.addPhoto("beach.jpg")
        zone = try owners.priv.createShare(photo: photo, title: "Retake", publicPermission: .none)
        try owners.priv.setParticipant(
            zone: zone, peer: writer.peerID, permission: .readWrite, status: .accepted)
        try owners.priv.setParticipant(
            zone: zone, peer: receivers.peer, permission: .readOnly, status: .accepted)
        for participant in [writers, receivers] {
            try participant.shared.prepareParticipantZone(zone, owner: owner.peerID)
            try deliver(from: owners.priv, to: participant.shared)
        }
        // From here on the owner signs its transactions, as its engine has it do.
        owners.priv.signOwnSets(with: OwnSetSigning(identity: owner))
    }

    typealias WritersSet = (set: SignedChangeSet, hlc: UInt64)

    /// What `to` lacks of the zone, from `from`'s delta.
    func deliver(from: LibraryStore, to: LibraryStore) throws {
        for set in try from.changes(zone: zone, since: to.clock(of: zone)) {
            _ = try to.apply(set, from: from.localPeer)
        }
    }

    /// The writer's next transaction `write`, signed as the next set of its chain after
    /// `previous`, and its stamp.
    func writersSet(after previous: SignedChangeSet?, _ write: () throws -> Void) throws -> WritersSet {
        let before = try writers.shared.clock(of: zone)
        try write()
        let objects = try writers.shared.changes(zone: zone, since: before, author: writer.peerID).flatMap(
            \.objects)
        let hlc = try #require(objects.first?.fields.first?.stamp.hlc)
        let body = ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([writer.peerID: hlc]), objects: objects)
        let signed = SignedChangeSet.sign(
            zone: zone, seq: (previous?.header.seq ?? 0) + 1,
            prevHash: previous?.hash ?? SignedSetHeader.noPrevious,
            body: ChangeSetCodec.encode(body), by: writer)
        return (signed, hlc)
    }

    /// The owner shares a photo X, which the writer gets and tags "dunes" (its set 1); then
    /// the writer tags the first photo "waves" (set 2). The receiver holds neither.
    func photoXTagged() throws -> (x: String, first: WritersSet, second: WritersSet) {
        let x = try owners.addPhoto("x.jpg", bytes: [7])
        try owners.priv.addToShare(photo: x, zone: zone)
        try deliver(from: owners.priv, to: writers.shared)
        let first = try writersSet(after: nil) { _ = try writers.shared.tag(photo: x, name: "dunes") }
        let second = try writersSet(after: first.set) {
            _ = try writers.shared.tag(photo: photo, name: "waves")
        }
        return (x, first, second)
    }

    func relay(_ sets: [[UInt8]], certificates: [[UInt8]]) throws -> SetsApplied {
        try SetRelay(localPeer: receivers.peer, localCertificate: SignedSetFixtures.devices[2].certificateDER)
            .apply(
                SignedSetsMessage(zone: zone, certificates: certificates, sets: sets), to: receivers.shared,
                relayIsOwner: false, owner: nil, maximumBodyBytes: 1 << 20)
    }

    func tags(_ photo: String) throws -> Set<String> {
        Set(try receivers.shared.photo(photo)?.tags.map(\.name) ?? [])
    }

    @Test func aSetRefusedForAPhotoIsTakenAgainWhenTheOwnersSetWithThePhotoIsRelayed() throws {
        let (x, first, second) = try photoXTagged()

        // The writer's sets reach the receiver, relayed, before X does.
        let early = try relay([first.set.encoded, second.set.encoded], certificates: [writer.certificateDER])
        #expect(early.stored == 2)
        #expect(try tags(photo).contains("waves"))
        #expect(try receivers.shared.photo(x) == nil)
        #expect(try receivers.shared.clock(of: zone)[writer.peerID] < first.hlc)

        // Then the owner's sets, relayed too (the owner is away): X arrives, and the writer's
        // first set is taken again.
        let owners = try self.owners.priv.ownSignedSets(zone: zone).map(\.bytes)
        #expect(!owners.isEmpty)
        let late = try relay(owners, certificates: [owner.certificateDER])
        #expect(try tags(x) == ["dunes"])
        #expect(try receivers.shared.clock(of: zone)[writer.peerID] >= second.hlc)
        #expect(late.notes.contains { $0.text.contains("took 2 sets of \(writer.peerID.short)") })
    }

    @Test func aSetStillRefusedIsLeftAndStopsItsAuthor() throws {
        // X never reaches the receiver: the writer's sets wait, and nothing else is lost.
        let (_, first, second) = try photoXTagged()
        _ = try relay([first.set.encoded], certificates: [writer.certificateDER])
        let later = try relay([second.set.encoded], certificates: [writer.certificateDER])
        #expect(try tags(photo).contains("waves"))
        #expect(try receivers.shared.clock(of: zone)[writer.peerID] < first.hlc)
        #expect(!later.notes.contains { $0.text.contains("took") })
        #expect(
            try receivers.shared.setsNotTaken(zone: zone, limit: 10)[writer.peerID]?.map(\.seq) == [1, 2])
    }
}
