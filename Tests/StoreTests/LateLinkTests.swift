import TestSupport
import Testing

@testable import Store

/// SPEC §4: a photo↔tag link that arrives after its tag lost deduplication, from a peer that
/// had not seen the cleanup, counts for the winner on every peer.
@Suite struct LateLinkTests {
    /// Owner O, read-write participant P, read-only participant R, and three shared photos
    /// X, X2 (to be tagged at P) and Y (to be tagged at O).
    struct Scene {
        let pair: SharedPair
        let reader: TestLibrary
        let x: String
        let x2: String
        let y: String
        var owner: LibraryStore { pair.owner.priv }
        var participant: LibraryStore { pair.participant.shared }
        var zone: String { pair.zone }

        init() throws {
            pair = try SharedPair()
            x = pair.photo
            x2 = try pair.addSharedPhoto("x2.jpg", bytes: [2])
            y = try pair.addSharedPhoto("y.jpg", bytes: [3])
            reader = try pair.addParticipant(permission: .readOnly)
        }

        /// Tags Y at O and X at P with "sunset", concurrently, until O's tag W has the
        /// smaller UUID (P's tag L then loses); returns (W, L). Unlucky rounds are deleted
        /// before anyone syncs, so they only leave tombstones.
        func concurrentSunsets() throws -> (winner: TagRef, loser: TagRef) {
            for _ in 0..<64 {
                let w = try owner.tag(photo: y, name: "sunset")
                let l = try participant.tag(photo: x, name: "sunset")
                if w.uuid < l.uuid { return (w, l) }
                try owner.deleteTag(w.id)
                try participant.deleteTag(l.id)
            }
            throw StoreError.invalid("no round gave the owner the smaller UUID")
        }

        func sunsets(_ store: LibraryStore, _ photo: String) throws -> [TagRef] {
            try #require(try store.photo(photo)).tags.filter { $0.name == "sunset" }
        }
    }

    @Test func aLinkToAMergedTagArrivingLateCountsForTheWinner() throws {
        let s = try Scene()
        let (w, l) = try s.concurrentSunsets()

        // O receives L and cleans up: L merged into W, X now tagged with W.
        try sync(s.zone, from: s.participant, to: s.owner)
        #expect(try s.sunsets(s.owner, s.x) == [w])
        #expect(try DuplicateTagTests.liveRows(s.owner, zone: s.zone, name: "sunset") == 1)

        // P has not seen the cleanup (nor W): tagging X2 by name reuses L.
        #expect(try s.participant.tag(photo: s.x2, name: "sunset") == l)
        #expect(try s.sunsets(s.participant, s.x2) == [l])

        // The late link (X2, L) reaches O after the cleanup.
        let reports = try sync(s.zone, from: s.participant, to: s.owner)
        #expect(reports.flatMap(\.refused).isEmpty)
        #expect(try s.sunsets(s.owner, s.x2) == [w])
        let copied = try s.owner.read { db in
            try db.first(
                "SELECT linked FROM photo_tags WHERE id = ?", LibraryStore.linkID(photo: s.x2, tag: w.id)
            ) { $0.int(0) }
        }
        #expect(copied == nil, "the late link counts for the winner as it is; no newer copy is written")

        try sync(s.zone, from: s.owner, to: s.participant)
        try sync(s.zone, from: s.owner, to: s.reader.shared)
        for store in [s.owner, s.participant, s.reader.shared] {
            #expect(try s.sunsets(store, s.x2) == [w])
            #expect(try s.sunsets(store, s.x) == [w])
            #expect(try s.sunsets(store, s.y) == [w])
            #expect(try store.tags(zone: s.zone).filter { $0.name == "sunset" }.map(\.photoCount) == [3])
            #expect(try store.photos(tagName: "sunset").count == 3)
        }
        let dump = try s.owner.canonicalDump(zone: s.zone)
        #expect(try s.participant.canonicalDump(zone: s.zone) == dump)
        #expect(try s.reader.shared.canonicalDump(zone: s.zone) == dump)
        #expect(dump.contains("link \(s.x2) \(w.id)"))
        #expect(!dump.contains(l.id))
    }

    @Test func aHandBuiltLateLinkToAMergedTagCountsForTheWinner() throws {
        // The same, with the late link delivered on its own as the participant would send it.
        let s = try Scene()
        let (w, l) = try s.concurrentSunsets()
        try sync(s.zone, from: s.participant, to: s.owner)

        let p = s.pair.participant.peer
        let stamp = stampAhead(of: p)
        let late = ChangeSet(
            zone: s.zone, since: VectorClock(), until: VectorClock([p: stamp.hlc]),
            objects: [
                ObjectChange(
                    entity: .link, id: LibraryStore.linkID(photo: s.x2, tag: l.id),
                    fields: [
                        FieldChange(field: LinkField.linked, value: .integer(1), stamp: stamp)
                    ])
            ])
        let report = try s.owner.apply(late, from: p)
        #expect(report.refused.isEmpty)
        #expect(report.applied == 1)
        #expect(report.deduplicated == 0)
        #expect(try s.sunsets(s.owner, s.x2) == [w])

        try sync(s.zone, from: s.owner, to: s.participant)
        try sync(s.zone, from: s.owner, to: s.reader.shared)
        let dump = try s.owner.canonicalDump(zone: s.zone)
        #expect(try s.participant.canonicalDump(zone: s.zone) == dump)
        #expect(try s.reader.shared.canonicalDump(zone: s.zone) == dump)
        #expect(try s.sunsets(s.reader.shared, s.x2) == [w])
    }

    @Test func aReadOnlyReplicaCountsALateLinkForTheWinnerBeforeTheOwnerRelinks() throws {
        // R gets the owner's cleanup, then the late link straight from P: it must already
        // show X2 with W, although nobody has written the (X2, W) link yet.
        let s = try Scene()
        let (w, l) = try s.concurrentSunsets()
        try sync(s.zone, from: s.participant, to: s.owner)
        try sync(s.zone, from: s.owner, to: s.reader.shared)
        #expect(try s.participant.tag(photo: s.x2, name: "sunset") == l)
        try sync(s.zone, from: s.participant, to: s.reader.shared)
        #expect(try s.sunsets(s.reader.shared, s.x2) == [w])
        #expect(try s.reader.shared.tags(zone: s.zone).filter { $0.name == "sunset" }.map(\.id) == [w.id])
    }
}
