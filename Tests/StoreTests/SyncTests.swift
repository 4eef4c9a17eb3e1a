import TestSupport
import Testing

@testable import Store

@Suite struct SyncTests {
    @Test func aShareReachesTheParticipantWithItsGraph() throws {
        let pair = try SharedPair()
        let photos = try pair.participant.shared.photos()
        #expect(photos.map(\.name) == ["beach.jpg"])
        #expect(photos.first?.tags.map(\.name) == ["summer"])
        #expect(photos.first?.pending == true)  // data travels separately
        #expect(
            try pair.owner.priv.canonicalDump(zone: pair.zone)
                == pair.participant.shared.canonicalDump(zone: pair.zone))
        let share = try #require(try pair.participant.shared.share(pair.zone))
        #expect(share.title == "Holidays")
        #expect(share.participants.map(\.peer) == [pair.participant.peer])
    }

    @Test func aParticipantsEditReachesTheOwner() throws {
        let pair = try SharedPair()
        _ = try pair.participant.shared.tag(photo: pair.photo, name: "sea")
        _ = try pair.participant.shared.rate(photo: pair.photo, value: 4)
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        let photo = try #require(try pair.owner.priv.photo(pair.photo))
        #expect(photo.tags.map(\.name) == ["sea", "summer"])
        #expect(photo.ratings.map(\.value) == [4])
    }

    @Test func applyingTheSameSetTwiceChangesNothing() throws {
        let pair = try SharedPair()
        _ = try pair.owner.priv.tag(photo: pair.photo, name: "sea")
        let sets = try pair.owner.priv.changes(
            zone: pair.zone, since: try pair.participant.shared.clock(of: pair.zone))
        let first = try sets.map { try pair.participant.shared.apply($0, from: pair.owner.peer) }
        let dump = try pair.participant.shared.canonicalDump(zone: pair.zone)
        let token = try pair.participant.shared.lastHistoryToken()
        let second = try sets.map { try pair.participant.shared.apply($0, from: pair.owner.peer) }
        #expect(first.reduce(0) { $0 + $1.applied } > 0)
        #expect(second.reduce(0) { $0 + $1.applied } == 0)
        #expect(try pair.participant.shared.canonicalDump(zone: pair.zone) == dump)
        #expect(try pair.participant.shared.lastHistoryToken() == token)
    }

    /// Only a row that does not exist is written without being read: a whole object (every
    /// field) for a row the receiver holds is merged field by field, newer or older.
    @Test func aWholeObjectForAHeldRowIsMergedFieldByField() throws {
        let pair = try SharedPair()
        let older = try pair.owner.priv.changes(zone: pair.zone, since: VectorClock())
        try pair.owner.priv.renamePhoto(pair.photo, to: "dunes.jpg")
        let newer = try pair.owner.priv.changes(zone: pair.zone, since: VectorClock())
        let taken = try newer.map { try pair.participant.shared.apply($0, from: pair.owner.peer) }
        #expect(taken.reduce(0) { $0 + $1.applied } == 1)
        #expect(try pair.participant.shared.photo(pair.photo)?.name == "dunes.jpg")
        let stale = try older.map { try pair.participant.shared.apply($0, from: pair.owner.peer) }
        #expect(stale.reduce(0) { $0 + $1.applied } == 0)
        #expect(stale.reduce(0) { $0 + $1.stale } == older.reduce(0) { $0 + $1.changeCount })
        #expect(try pair.participant.shared.photo(pair.photo)?.name == "dunes.jpg")
        #expect(
            try pair.participant.shared.canonicalDump(zone: pair.zone)
                == pair.owner.priv.canonicalDump(zone: pair.zone))
    }

    /// A whole new object, which is written without its row being read first, is refused
    /// like any other change from a read-only participant, a removed one and a stranger.
    @Test func aWholeNewObjectFromSomeoneWhoMayNotWriteIsRefused() throws {
        let pair = try SharedPair(permission: .readOnly)
        let removed = try pair.addParticipant(permission: .readWrite)
        try pair.owner.priv.setParticipant(
            zone: pair.zone, peer: removed.peer, permission: .readWrite, status: .removed)
        for author in [pair.participant.peer, removed.peer, randomPeer()] {
            let stamp = stampAhead(of: author)
            let rating = ObjectChange(
                entity: .rating, id: IDSource().next(),
                fields: [
                    FieldChange(field: RatingField.photo, value: .text(pair.photo), stamp: stamp),
                    FieldChange(field: RatingField.value, value: .integer(5), stamp: stamp),
                ])
            let set = ChangeSet(
                zone: pair.zone, since: VectorClock(), until: VectorClock([author: stamp.hlc]),
                objects: [rating])
            let report = try pair.owner.priv.apply(set, from: author)
            #expect(report.applied == 0)
            #expect(report.refused.map(\.reason) == ["\(author.short) may not write to this share"])
        }
        #expect(try pair.owner.priv.ratings(ofPhoto: pair.photo).isEmpty)
    }

    @Test func aReadOnlyParticipantIsRefusedLocallyAndRemotely() throws {
        let pair = try SharedPair(permission: .readOnly)
        #expect(
            throws: StoreError.permissionDenied(
                "cannot tag this photo: you have read-only access to this share")
        ) {
            try pair.participant.shared.tag(photo: pair.photo, name: "forged")
        }
        // A tampered participant bypasses its local check: the owner refuses the change.
        let forged = ChangeSet(
            zone: pair.zone, since: VectorClock(), until: VectorClock(),
            objects: [
                ObjectChange(
                    entity: .photo, id: pair.photo,
                    fields: [
                        FieldChange(
                            field: PhotoField.name, value: .text("mine"),
                            stamp: Stamp(hlc: .max >> 1, peer: pair.participant.peer))
                    ])
            ])
        let report = try pair.owner.priv.apply(forged, from: pair.participant.peer)
        #expect(report.applied == 0)
        #expect(
            report.refused.map(\.reason) == ["\(pair.participant.peer.short) may not write to this share"])
        #expect(try pair.owner.priv.photo(pair.photo)?.name == "beach.jpg")
    }

    @Test func aSetComputedFromAnUnknownClockIsNotApplied() throws {
        let pair = try SharedPair()
        let ahead = VectorClock([randomPeer(): 99])
        let set = ChangeSet(zone: pair.zone, since: ahead, until: ahead, objects: [])
        #expect(throws: SyncError.self) { try pair.participant.shared.apply(set, from: pair.owner.peer) }
    }

    @Test func concurrentSameNameTagsConvergeOnTheSmallestUUID() throws {
        let pair = try SharedPair()
        let a = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        let b = try pair.participant.shared.tag(photo: pair.photo, name: "sunset")
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        let winner = min(a.uuid, b.uuid)
        for store in [pair.owner.priv, pair.participant.shared] {
            let sunsets = try store.tags(zone: pair.zone).filter { $0.name == "sunset" }
            #expect(sunsets.map(\.uuid) == [winner])
            #expect(sunsets.first?.photoCount == 1)
        }
        #expect(
            try pair.owner.priv.canonicalDump(zone: pair.zone)
                == pair.participant.shared.canonicalDump(zone: pair.zone))
    }

    /// A change accepted while its author could write stays in the zone after the author
    /// leaves or loses write access: a participant who joins later receives it too.
    @Test func aChangeByAParticipantWhoLeftStillReachesLaterParticipants() throws {
        let pair = try SharedPair()
        _ = try pair.participant.shared.tag(photo: pair.photo, name: "by-bob")
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        try pair.owner.priv.setParticipant(zone: pair.zone, peer: pair.participant.peer, status: .removed)
        let late = try pair.addParticipant(permission: .readOnly)
        #expect(try late.shared.photo(pair.photo)?.tags.map(\.name) == ["by-bob", "summer"])
        #expect(
            try late.shared.canonicalDump(zone: pair.zone) == pair.owner.priv.canonicalDump(zone: pair.zone))
    }

    @Test func historyOfReceivedChangesIsDatedNow() throws {
        let pair = try SharedPair()
        let entry = try #require(try pair.participant.shared.history().last)
        #expect(entry.author == "sync:\(pair.owner.peer)")
        #expect(abs(entry.timestamp - Int64(HybridLogicalClock.wallMilliseconds())) < 600_000)
    }
}
