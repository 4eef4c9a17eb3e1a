import TestSupport
import Testing

@testable import Store

/// SPEC §4: deduplication never brings back a tag a person removed. A photo carries a tag
/// name when the latest link written between it and the tags of that name is a tagging, so
/// a removal made after the last tagging holds on every replica, whichever duplicate each
/// replica linked and whatever the cleanup merged meanwhile.
@Suite struct LinkRemovalTests {
    /// The owner's photo in the default zone tagged `name`, whose tag has a smaller UUID
    /// than `than`; other rounds are deleted again (default zone: nobody sees them).
    static func photoWithSmallerTag(
        _ owner: TestLibrary, name: String, than uuid: String
    ) throws -> (photo: String, tag: TagRef) {
        for round in 0..<256 {
            let photo = try owner.addPhoto("q\(round).jpg", bytes: [UInt8(round), 7], tags: [name])
            let tags = try #require(try owner.priv.photo(photo)).tags
            let tag = try #require(tags.first { $0.name == name })
            if tag.uuid < uuid { return (photo, tag) }
            try owner.priv.deletePhoto(photo)
            try owner.priv.deleteTag(tag.id)
        }
        throw StoreError.invalid("no round gave a smaller UUID")
    }

    /// Returns once the wall clock has moved on by a millisecond: stamps made after it are
    /// later than every stamp made before, on any replica.
    static func waitForTheNextMillisecond() {
        let start = HybridLogicalClock.wallMilliseconds()
        while HybridLogicalClock.wallMilliseconds() <= start {}
    }

    static func tagNames(_ store: LibraryStore, _ photo: String) throws -> [String] {
        try #require(try store.photo(photo)).tags.map(\.name)
    }

    @Test func aParticipantsUntagSurvivesTheOwnersConcurrentMergeOfThatTag() throws {
        // The owner must then find a "cat" whose random UUID sorts before W's, by trying: a W
        // near the start of the order (below "2", one in eight) is made again in a fresh pair,
        // so that 256 tries cannot all miss (at most 7/8 each).
        var setup: (pair: SharedPair, reader: TestLibrary, w: TagRef)
        repeat {
            let pair = try SharedPair()
            let reader = try pair.addParticipant(permission: .readOnly)
            setup = (pair, reader, try pair.participant.shared.tag(photo: pair.photo, name: "cat"))
        } while setup.w.uuid < "2"
        let (pair, reader, w) = setup
        let (owner, participant, zone, p1) = (pair.owner.priv, pair.participant.shared, pair.zone, pair.photo)
        try sync(zone, from: participant, to: owner)
        try sync(zone, from: owner, to: reader.shared)
        #expect(try Self.tagNames(owner, p1) == ["cat", "summer"])

        // The participant, offline, removes "cat" from P1.
        try participant.untag(photo: p1, tag: w.id)
        // Meanwhile the owner shares Q, whose own "cat" has the smaller UUID: W loses.
        let (q, t) = try Self.photoWithSmallerTag(pair.owner, name: "cat", than: w.uuid)
        try owner.addToShare(photo: q, zone: zone)
        #expect(try owner.tags(zone: zone).filter { $0.name == "cat" }.map(\.uuid) == [t.uuid])
        #expect(try Self.tagNames(owner, p1) == ["cat", "summer"], "counted for the new winner")

        // Both sides meet: the last thing anyone did to P1's "cat" was to remove it.
        for _ in 0..<2 {
            try sync(zone, from: participant, to: owner)
            try sync(zone, from: owner, to: participant)
            try sync(zone, from: owner, to: reader.shared)
        }
        let dump = try owner.canonicalDump(zone: zone)
        for store in [owner, participant, reader.shared] {
            #expect(try Self.tagNames(store, p1) == ["summer"], "\(store.kind)")
            #expect(try Self.tagNames(store, q) == ["cat"], "\(store.kind)")
            #expect(try store.canonicalDump(zone: zone) == dump)
        }
        // And tagging again afterwards works as usual.
        _ = try participant.tag(photo: p1, name: "cat")
        try sync(zone, from: participant, to: owner)
        try sync(zone, from: owner, to: reader.shared)
        for store in [owner, participant, reader.shared] {
            #expect(try Self.tagNames(store, p1) == ["cat", "summer"], "\(store.kind)")
        }
    }

    @Test func aRemovalOfOneDuplicateOverridesAnEarlierTaggingWithAnother() throws {
        // Two writers tag P1 "cat" with their own tags; later the owner, having seen only its
        // own, removes "cat": the participant's older link must not bring it back.
        let pair = try SharedPair()
        let (owner, participant, zone, p1) = (pair.owner.priv, pair.participant.shared, pair.zone, pair.photo)
        let mine = try owner.tag(photo: p1, name: "cat")
        _ = try participant.tag(photo: p1, name: "cat")
        Self.waitForTheNextMillisecond()  // so the removal's stamp is later, not a tie
        try owner.untag(photo: p1, tag: mine.id)
        for _ in 0..<2 {
            try sync(zone, from: participant, to: owner)
            try sync(zone, from: owner, to: participant)
        }
        #expect(try Self.tagNames(owner, p1) == ["summer"])
        #expect(try Self.tagNames(participant, p1) == ["summer"])
        #expect(try owner.canonicalDump(zone: zone) == participant.canonicalDump(zone: zone))
    }
}
