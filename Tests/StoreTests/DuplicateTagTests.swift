import TestSupport
import Testing

@testable import Store

/// Same-name tags created concurrently on two replicas: one tag (the smallest UUID) with the
/// union of their photos, on every replica, whether it may clean up or only read.
@Suite struct DuplicateTagTests {
    /// Live (not merged, not deleted) rows named `name` in the zone: what cleanup leaves.
    static func liveRows(_ store: LibraryStore, zone: String, name: String) throws -> Int {
        try store.read { db in
            try db.first(
                "SELECT count(*) FROM tags WHERE zone = ? AND name = ? AND deleted = 0", zone, name
            ) { $0.int(0) } ?? 0
        }
    }

    static func summary(_ store: LibraryStore, zone: String, name: String) throws -> [String] {
        try store.tags(zone: zone).filter { $0.name == name }.map { "\($0.uuid)=\($0.photoCount)" }
    }

    @Test func concurrentTagsShowAsTheSmallestUUIDWithTheUnionPhotoCount() throws {
        let pair = try SharedPair()
        let second = try pair.addSharedPhoto("second.jpg")
        let a = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        let b = try pair.participant.shared.tag(photo: second, name: "sunset")
        #expect(a.uuid != b.uuid)
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        try sync(pair.zone, from: pair.owner.priv, to: pair.participant.shared)

        let winner = a.uuid < b.uuid ? a : b
        for store in [pair.owner.priv, pair.participant.shared] {
            #expect(try Self.summary(store, zone: pair.zone, name: "sunset") == ["\(winner.uuid)=2"])
            for photo in [pair.photo, second] {
                #expect(try store.photo(photo)?.tags.filter { $0.name == "sunset" } == [winner])
            }
            #expect(try store.photos(tagName: "sunset").count == 2)
            // Both replicas may write: the loser is cleaned up for real, not only hidden.
            #expect(try Self.liveRows(store, zone: pair.zone, name: "sunset") == 1)
        }
        #expect(
            try pair.owner.priv.canonicalDump(zone: pair.zone)
                == pair.participant.shared.canonicalDump(zone: pair.zone))
        let dedups = try pair.owner.priv.history().filter { $0.author == "dedup" }
        #expect(dedups.count == 1)
    }

    @Test func tagResolvesToTheWinnerOnceDuplicatesAreKnown() throws {
        let pair = try SharedPair()
        let second = try pair.addSharedPhoto("second.jpg")
        let a = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        let b = try pair.participant.shared.tag(photo: second, name: "sunset")
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        let winner = a.uuid < b.uuid ? a : b
        // Tagging by name afterwards picks the winner, not the tag this replica made.
        let third = try pair.owner.addPhoto("third.jpg")
        try pair.owner.priv.addToShare(photo: third, zone: pair.zone)
        #expect(try pair.owner.priv.tag(photo: third, name: "sunset") == winner)
        #expect(try Self.summary(pair.owner.priv, zone: pair.zone, name: "sunset") == ["\(winner.uuid)=3"])
    }

    @Test func aReadOnlyParticipantShowsTheCanonicalResultAndNeverWrites() throws {
        let pair = try SharedPair(permission: .readOnly)
        let writer = try pair.addParticipant(permission: .readWrite)
        let reader = pair.participant
        let second = try pair.addSharedPhoto("second.jpg")
        try sync(pair.zone, from: pair.owner.priv, to: writer.shared)

        let a = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        let b = try writer.shared.tag(photo: second, name: "sunset")
        let winner = a.uuid < b.uuid ? a : b
        // The reader gets both tags before the owner has seen the writer's: duplicates, no cleanup.
        try sync(pair.zone, from: pair.owner.priv, to: reader.shared)
        try sync(pair.zone, from: writer.shared, to: reader.shared)
        #expect(try Self.liveRows(reader.shared, zone: pair.zone, name: "sunset") == 2)
        #expect(try Self.summary(reader.shared, zone: pair.zone, name: "sunset") == ["\(winner.uuid)=2"])
        for photo in [pair.photo, second] {
            #expect(try reader.shared.photo(photo)?.tags.filter { $0.name == "sunset" } == [winner])
        }
        #expect(try reader.shared.photos(tagName: "sunset").count == 2)

        // The owner receives the writer's tag and cleans up.
        try sync(pair.zone, from: writer.shared, to: pair.owner.priv)
        #expect(try Self.liveRows(pair.owner.priv, zone: pair.zone, name: "sunset") == 1)
        let ownerDump = try pair.owner.priv.canonicalDump(zone: pair.zone)
        // Before the cleanup reaches it, the reader already shows what the owner shows…
        #expect(try reader.shared.canonicalDump(zone: pair.zone) == ownerDump)
        // …and after.
        try sync(pair.zone, from: pair.owner.priv, to: reader.shared)
        #expect(try reader.shared.canonicalDump(zone: pair.zone) == ownerDump)
        #expect(try Self.summary(reader.shared, zone: pair.zone, name: "sunset") == ["\(winner.uuid)=2"])

        // The reader never wrote: no cleanup of its own, only received transactions, no
        // clock entry of its own.
        let authors = Set(try reader.shared.history().map(\.author))
        #expect(authors == ["sync:\(pair.owner.peer)", "sync:\(writer.peer)"])
        #expect(try reader.shared.clock(of: pair.zone)[reader.peer] == 0)
        #expect(try reader.shared.clock(of: pair.zone)[pair.owner.peer] > 0)
    }

    @Test func theFullPassRepairsStaleWinnersThenMerges() throws {
        let pair = try SharedPair(permission: .readOnly)
        let writer = try pair.addParticipant(permission: .readWrite)
        let reader = pair.participant.shared
        let second = try pair.addSharedPhoto("second.jpg")
        try sync(pair.zone, from: pair.owner.priv, to: writer.shared)
        let a = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        let b = try writer.shared.tag(photo: second, name: "sunset")
        let (winner, loser) = a.uuid < b.uuid ? (a, b) : (b, a)
        try sync(pair.zone, from: pair.owner.priv, to: reader)
        try sync(pair.zone, from: writer.shared, to: reader)
        #expect(try Self.liveRows(reader, zone: pair.zone, name: "sunset") == 2)
        // Every derived winner lost: the full pass recomputes them, then cleans up.
        try reader.write(author: .local) { tx in try tx.db.run("UPDATE tags SET winner = NULL") }
        let before = try reader.lastHistoryToken()
        #expect(try reader.deduplicateAll(zone: pair.zone) == 1)
        #expect(try Self.liveRows(reader, zone: pair.zone, name: "sunset") == 1)
        #expect(try Self.summary(reader, zone: pair.zone, name: "sunset") == ["\(winner.uuid)=2"])
        let winners = try reader.read { db in
            try db.query("SELECT id, winner FROM tags WHERE name = 'sunset' ORDER BY id") {
                [$0.string(0), $0.optionalString(1) ?? "-"]
            }
        }
        #expect(winners == [[a.id, winner.id], [b.id, winner.id]].sorted { $0[0] < $1[0] })
        let entry = try #require(try reader.history(since: before).last)
        #expect(entry.author == "dedup")
        // The loser's link stays as it is and counts for the winner: no copy is written.
        #expect(entry.changes.map { "\($0.entity) \($0.id) \($0.type)" } == ["tag \(loser.id) delete"])
        #expect(try reader.deduplicateAll(zone: pair.zone) == 0)
        // The owner's own cleanup reaches the same content.
        try sync(pair.zone, from: writer.shared, to: pair.owner.priv)
        #expect(try reader.canonicalDump(zone: pair.zone) == pair.owner.priv.canonicalDump(zone: pair.zone))
    }

    @Test func aDuplicateMadeByCopyingATagIntoAShareIsMergedWhenTheOriginalFollows() throws {
        // Sharing one of two photos copies their tag (same UUID, new ID); adding the other
        // photo moves the original in: two same-name tags in the share, which end as one.
        let lib = try TestLibrary()
        let first = try lib.addPhoto("first.jpg", bytes: [1], tags: ["sunset"])
        let second = try lib.addPhoto("second.jpg", bytes: [2], tags: ["sunset"])
        let original = try #require(try lib.priv.photo(first)?.tags.first)
        let zone = try lib.priv.createShare(photo: first, title: "Evening", publicPermission: .none)
        let copy = try #require(try lib.priv.photo(first)?.tags.first)
        #expect(copy.id != original.id && copy.uuid == original.uuid)

        try lib.priv.addToShare(photo: second, zone: zone)
        #expect(try Self.liveRows(lib.priv, zone: zone, name: "sunset") == 1)
        let tags = try lib.priv.tags(zone: zone)
        #expect(tags.map(\.name) == ["sunset"])
        #expect(tags.map(\.photoCount) == [2])
        #expect(tags.map(\.id) == [min(copy.id, original.id)])
        #expect(try lib.priv.tags(zone: LibraryStore.defaultZone).isEmpty)
    }
}
