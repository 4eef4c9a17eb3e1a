import TestSupport
import Testing

@testable import Store

/// Shares on the owner's side: creating one moves a photo's graph, adding deduplicates,
/// only the owner manages, stopping moves back or deletes.
@Suite struct ShareTests {
    let lib: TestLibrary
    let shared: String
    let kept: String
    let zoneDefault = LibraryStore.defaultZone

    /// `shared` carries "solo" (only it) and "both" (also on `kept`), and one rating.
    init() throws {
        lib = try TestLibrary()
        shared = try lib.addPhoto("shared.jpg", bytes: [1], tags: ["solo", "both"])
        kept = try lib.addPhoto("kept.jpg", bytes: [2], tags: ["both"])
        _ = try lib.priv.rate(photo: shared, value: 4)
    }

    func tags(_ photo: String) throws -> [String: TagRef] {
        Dictionary(uniqueKeysWithValues: try #require(try lib.priv.photo(photo)).tags.map { ($0.name, $0) })
    }

    @Test func creatingAShareMovesThePhotoItsRatingsAndTags() throws {
        let before = try tags(shared)
        let ratings = try lib.priv.ratings(ofPhoto: shared)
        let zone = try lib.priv.createShare(photo: shared, title: "Holidays", publicPermission: .readOnly)

        let photo = try #require(try lib.priv.photo(shared))
        #expect(photo.zone == zone)
        #expect(photo.ratings == ratings)
        #expect(try lib.priv.photos(zone: zone).map(\.id) == [shared])
        #expect(try lib.priv.photos(zone: zoneDefault).map(\.id) == [kept])

        let after = try tags(shared)
        // A tag used only by the shared photo moves: same ID.
        #expect(after["solo"] == before["solo"])
        // A tag still used in the default zone is copied: new ID, same UUID and name.
        let copy = try #require(after["both"])
        let original = try #require(before["both"])
        #expect(copy.id != original.id)
        #expect(copy.uuid == original.uuid && copy.name == original.name)
        #expect(try lib.priv.photo(kept)?.tags == [original])

        let shareTags = try lib.priv.tags(zone: zone).map { "\($0.name)=\($0.photoCount)" }
        #expect(shareTags == ["both=1", "solo=1"])
        let homeTags = try lib.priv.tags(zone: zoneDefault).map { "\($0.id)=\($0.photoCount)" }
        #expect(homeTags == ["\(original.id)=1"])

        let info = try #require(try lib.priv.share(zone))
        #expect(info.title == "Holidays" && info.owner == lib.peer)
        #expect(info.publicPermission == .readOnly && !info.stopped && info.participants.isEmpty)
        #expect(try lib.priv.zones().map(\.id).contains(zone))
    }

    @Test func aPhotoIsSharedOnlyFromTheDefaultZoneWithAValidTitle() throws {
        let zone = try lib.priv.createShare(photo: shared, title: "One", publicPermission: .none)
        #expect(
            throws: StoreError.invalid(
                "photo \(shared.prefix(8)) is already shared in \(zone.prefix(8)); use share add to move it")
        ) {
            try lib.priv.createShare(photo: shared, title: "Two", publicPermission: .none)
        }
        #expect(throws: StoreError.invalid("a share title cannot be empty")) {
            try lib.priv.createShare(photo: kept, title: "  ", publicPermission: .none)
        }
        #expect(throws: StoreError.invalid("photo \(shared.prefix(8)) is already in share \(zone.prefix(8))"))
        {
            try lib.priv.addToShare(photo: shared, zone: zone)
        }
        #expect(try lib.priv.shares().map(\.zone) == [zone])
    }

    @Test func addingAPhotoToAShareMovesItAndReachesTheParticipant() throws {
        let pair = try SharedPair()
        let photo = try pair.owner.addPhoto("more.jpg", bytes: [7], tags: ["summer", "extra"])
        let rating = try pair.owner.priv.rate(photo: photo, value: 2)
        try pair.owner.priv.addToShare(photo: photo, zone: pair.zone)
        #expect(try pair.owner.priv.photo(photo)?.zone == pair.zone)
        // "summer" exists in the share already: one tag, two photos.
        let counts = try pair.owner.priv.tags(zone: pair.zone).map { "\($0.name)=\($0.photoCount)" }
        #expect(counts == ["extra=1", "summer=2"])
        #expect(try DuplicateTagTests.liveRows(pair.owner.priv, zone: pair.zone, name: "summer") == 1)

        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        let received = try #require(try pair.participant.shared.photo(photo))
        #expect(received.ratings == [RatingRef(id: rating, value: 2)])
        #expect(received.tags.map(\.name) == ["extra", "summer"])
        #expect(
            try pair.participant.shared.canonicalDump(zone: pair.zone)
                == pair.owner.priv.canonicalDump(zone: pair.zone))
    }

    @Test func onlyTheOwnerManagesTheShare() throws {
        let pair = try SharedPair()
        let participant = pair.participant.shared
        let message = "only the share's owner can change its membership or add photos to it"
        #expect(throws: StoreError.permissionDenied(message)) {
            try participant.addToShare(photo: pair.photo, zone: pair.zone)
        }
        #expect(throws: StoreError.permissionDenied(message)) {
            try participant.setParticipant(zone: pair.zone, peer: randomPeer(), permission: .readWrite)
        }
        #expect(throws: StoreError.permissionDenied(message)) {
            try participant.stopShare(pair.zone, purge: false)
        }
        #expect(throws: StoreError.invalid("you own this share; you cannot be its participant")) {
            try pair.owner.priv.setParticipant(zone: pair.zone, peer: pair.owner.peer, permission: .readOnly)
        }
        #expect(throws: StoreError.invalid("a participant's permission is read-only or read-write")) {
            try pair.owner.priv.setParticipant(
                zone: pair.zone, peer: randomPeer(), permission: Permission.none)
        }
        #expect(throws: StoreError.unknownZone("nope")) {
            try pair.owner.priv.setParticipant(zone: "nope", peer: randomPeer(), permission: .readOnly)
        }
        let info = try #require(try participant.share(pair.zone))
        #expect(info.participants.map(\.peer) == [pair.participant.peer])
    }

    @Test func theOwnerChangesAParticipantsPermissionAndStatus() throws {
        let pair = try SharedPair()
        let peer = pair.participant.peer
        try pair.owner.priv.setParticipant(zone: pair.zone, peer: peer, permission: .readOnly)
        #expect(
            try pair.owner.priv.participant(zone: pair.zone, peer: peer)
                == Participant(peer: peer, permission: .readOnly, status: .accepted, person: nil))
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        #expect(
            throws: StoreError.permissionDenied(
                "cannot rate this photo: you have read-only access to this share")
        ) {
            try pair.participant.shared.rate(photo: pair.photo, value: 3)
        }
        try pair.owner.priv.setParticipant(zone: pair.zone, peer: peer, status: .removed)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        #expect(try pair.participant.shared.share(pair.zone)?.participants.map(\.status) == [.removed])
        #expect(
            throws: StoreError.permissionDenied("cannot rate this photo: you are not a member of this share")
        ) {
            try pair.participant.shared.rate(photo: pair.photo, value: 3)
        }
    }

    @Test func stoppingWithoutPurgeMovesThePhotosBackWithTheirTags() throws {
        let zone = try lib.priv.createShare(photo: shared, title: "Holidays", publicPermission: .none)
        try lib.priv.stopShare(zone, purge: false)

        #expect(Set(try lib.priv.photos(zone: zoneDefault).map(\.id)) == [shared, kept])
        #expect(try lib.priv.photos(zone: zone).isEmpty)
        #expect(try lib.priv.tags(zone: zone).isEmpty)
        #expect(try tags(shared).keys.sorted() == ["both", "solo"])
        #expect(try lib.priv.ratings(ofPhoto: shared).map(\.value) == [4])
        // The copy of "both" came back next to the original: one tag again, for both photos.
        let home = try lib.priv.tags(zone: zoneDefault).map { "\($0.name)=\($0.photoCount)" }
        #expect(home == ["both=2", "solo=1"])
        #expect(try DuplicateTagTests.liveRows(lib.priv, zone: zoneDefault, name: "both") == 1)
        #expect(try lib.priv.photo(shared)?.pending == false)

        let info = try #require(try lib.priv.share(zone))
        #expect(info.stopped)
        #expect(throws: StoreError.invalid("share \(zone.prefix(8)) has been stopped")) {
            try lib.priv.addToShare(photo: kept, zone: zone)
        }
    }

    @Test func aStoppedShareTakesNoNewPhoto() throws {
        // Else the photo would land in a zone nobody replicates, outside the default zone.
        let zone = try lib.priv.createShare(photo: shared, title: "Holidays", publicPermission: .none)
        try lib.priv.stopShare(zone, purge: false)
        let blobs = files(under: lib.blobRoot(.private))
        let file = try lib.directory.write("late.jpg", bytes: [77])
        #expect(throws: StoreError.invalid("share \(zone.prefix(8)) has been stopped")) {
            try lib.library.addPhoto(file: file, share: zone)
        }
        #expect(try lib.priv.photos(zone: zone).isEmpty)
        #expect(try lib.priv.photos().count == 2)
        #expect(files(under: lib.blobRoot(.private)) == blobs)
    }

    @Test func stoppingWithPurgeDeletesThePhotosAndTheirUnusedData() throws {
        let zone = try lib.priv.createShare(photo: shared, title: "Holidays", publicPermission: .none)
        try lib.priv.stopShare(zone, purge: true)
        #expect(try lib.priv.photo(shared) == nil)
        #expect(try lib.priv.photos().map(\.id) == [kept])
        #expect(try lib.priv.tags(zone: zone).isEmpty)
        #expect(try lib.priv.tags(zone: zoneDefault).map { "\($0.name)=\($0.photoCount)" } == ["both=1"])
        #expect(try lib.priv.share(zone)?.stopped == true)
        let keptFile = try #require(try lib.priv.photo(kept)).blobFile
        #expect(files(under: lib.blobRoot(.private)) == [keptFile])
    }

    @Test func aParticipantSeesTheStopAndMayNoLongerWrite() throws {
        let pair = try SharedPair()
        try pair.owner.priv.stopShare(pair.zone, purge: false)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        #expect(try pair.participant.shared.share(pair.zone)?.stopped == true)
        #expect(
            throws: StoreError.invalid("share \(pair.zone.prefix(8)) has been stopped")
        ) {
            try pair.participant.shared.tag(photo: pair.photo, name: "late")
        }
    }

    @Test func purgingAParticipantsCopyRemovesEverythingOfTheZone() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        let lib = pair.participant
        let own = try lib.library.addPhoto(
            file: try lib.directory.write("mine.jpg", bytes: [4, 5, 6]), tags: ["mine"], share: pair.zone)
        _ = try store.rate(photo: own, value: 5)
        #expect(!files(under: lib.blobRoot(.shared)).isEmpty)
        let token = try store.lastHistoryToken()

        try store.purge(zone: pair.zone)
        #expect(try store.photos().isEmpty)
        #expect(try store.tags().isEmpty)
        #expect(try store.clock(of: pair.zone) == VectorClock())
        #expect(try store.zones().isEmpty)
        #expect(try store.shares().isEmpty)
        #expect(try store.canonicalDump(zone: pair.zone) == "")
        #expect(files(under: lib.blobRoot(.shared)).isEmpty)
        let entries = try store.history(since: token)
        #expect(entries.map(\.author) == ["purge"])
        let purged = try #require(entries.first)
        #expect(purged.changes.allSatisfy { $0.type == .delete && $0.zone == pair.zone })
        #expect(purged.changes.contains { $0.entity == "photo" && $0.id == own })
        #expect(purged.changes.contains { $0.entity == "photo" && $0.id == pair.photo })
        #expect(throws: SyncError.unknownZone(pair.zone)) {
            try sync(pair.zone, from: pair.owner.priv, to: store)
        }
    }
}
