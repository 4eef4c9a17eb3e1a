import TestSupport
import Testing

@testable import Store

/// A delta read a page at a time: what a connection sends a joining peer without holding
/// the whole zone's changes in memory.
@Suite struct ChangePageTests {
    typealias Fixture = ChangeBatchTests.Fixture

    /// The pages from `since` to the end, each starting at the last `until` of the one before.
    func pages(
        _ store: LibraryStore, _ zone: String, since: VectorClock = VectorClock(), batchSize: Int,
        limit: ChangePageLimit, author: PeerID? = nil
    ) throws -> [ChangePage] {
        var result: [ChangePage] = []
        var since = since
        while result.count < 1_000 {
            let page = try store.changePage(
                zone: zone, since: since, batchSize: batchSize, author: author, limit: limit)
            result.append(page)
            if page.complete { return result }
            since = page.sets.reduce(since) { $0.merged(with: $1.until) }
        }
        Issue.record("no complete page after 1,000")
        return result
    }

    @Test func pagesAppliedInOrderGiveTheSameZoneAsTheWholeDelta() throws {
        let f = try Fixture()
        let pages = try pages(
            f.owner.priv, f.zone, batchSize: 2, limit: ChangePageLimit(fields: 4, bytes: .max))
        #expect(pages.count > 3)
        #expect(pages.dropLast().allSatisfy { !$0.complete })
        var previous: ChangeSet?
        for set in pages.flatMap(\.sets) {
            if let previous { #expect(set.since == previous.since.merged(with: previous.until)) }
            previous = set
            let report = try f.participant.shared.apply(set, from: f.owner.peer)
            #expect(report.refused.isEmpty, "\(report.refused)")
        }
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
        #expect(try f.participant.shared.clock(of: f.zone) == f.owner.priv.clock(of: f.zone))
        #expect(previous?.until == (try f.owner.priv.clock(of: f.zone)))
    }

    /// A page holds about its limit of fields (a transaction is never cut), every field its
    /// clock claims, and a new object whole, even when the object changed again later.
    @Test func aPageIsBoundedAndHoldsWholeObjectsAndEverythingItClaims() throws {
        let f = try Fixture()
        let photos = try f.owner.priv.photos(zone: f.zone)
        // The first photo changes again last: its later field rides along with it.
        try f.owner.priv.renamePhoto(photos[0].id, to: "renamed.jpg")
        let everything = try f.owner.priv.changes(zone: f.zone, since: VectorClock()).flatMap(\.objects)
        let largestTransaction = 8
        let pages = try pages(
            f.owner.priv, f.zone, batchSize: 1, limit: ChangePageLimit(fields: 3, bytes: .max))
        for page in pages {
            let inPage = page.sets.reduce(0) { $0 + $1.changeCount }
            #expect(inPage <= 3 + 2 * largestTransaction, "a page of \(inPage) field changes")
        }
        ChangeBatchTests.expectWholeObjectsAndClaimsKept(pages.flatMap(\.sets), everything: everything)
    }

    @Test func aByteLimitEndsThePageAfterTheBatchThatPassesIt() throws {
        let f = try Fixture()
        let pages = try pages(
            f.owner.priv, f.zone, batchSize: 2, limit: ChangePageLimit(fields: 1_000, bytes: 1))
        #expect(pages.count > 2)
        #expect(pages.allSatisfy { $0.sets.count == 1 })
        for set in pages.flatMap(\.sets) { _ = try f.participant.shared.apply(set, from: f.owner.peer) }
        #expect(
            try f.participant.shared.canonicalDump(zone: f.zone) == f.owner.priv.canonicalDump(zone: f.zone))
    }

    /// A participant's pages carry only what it wrote, and its clock entry only.
    @Test func aParticipantsPagesHoldOnlyItsOwnChanges() throws {
        let f = try Fixture()
        for set in try f.owner.priv.changes(zone: f.zone, since: VectorClock()) {
            _ = try f.participant.shared.apply(set, from: f.owner.peer)
        }
        let photo = try f.participant.shared.photos(zone: f.zone)[0].id
        for value in 1...5 { _ = try f.participant.shared.rate(photo: photo, value: value) }
        let before = try f.owner.priv.clock(of: f.zone)
        let pages = try pages(
            f.participant.shared, f.zone, since: before, batchSize: 1,
            limit: ChangePageLimit(fields: 1, bytes: .max),
            author: f.participant.peer)
        #expect(pages.count >= 2)
        for set in pages.flatMap(\.sets) {
            #expect(Array(set.until.entries.keys) == [f.participant.peer])
            #expect(set.objects.allSatisfy { $0.fields.allSatisfy { $0.stamp.peer == f.participant.peer } })
            let report = try f.owner.priv.apply(set, from: f.participant.peer)
            #expect(report.refused.isEmpty, "\(report.refused)")
        }
        #expect(
            try f.owner.priv.canonicalDump(zone: f.zone) == f.participant.shared.canonicalDump(zone: f.zone))
    }

    /// Peers up to date ask for the same page after a commit: the second gets what the first
    /// read, and a write in between (of anything) gives a page read again.
    @Test func theSamePageAskedAgainIsTheSameUntilTheStoreChanges() throws {
        let f = try Fixture()
        let clock = try f.owner.priv.clock(of: f.zone)
        let limit = ChangePageLimit(fields: 100, bytes: 1 << 20)
        func page() throws -> ChangePage {
            try f.owner.priv.changePage(zone: f.zone, since: clock, batchSize: 10, limit: limit)
        }
        let empty = try page()
        #expect(empty.complete && empty.sets.allSatisfy(\.objects.isEmpty))
        #expect(try page() == empty)
        let photo = try f.owner.priv.photos(zone: f.zone)[0]
        try f.owner.priv.renamePhoto(photo.id, to: "again.jpg")
        let renamed = try page()
        #expect(renamed.sets.flatMap(\.objects).map(\.id) == [photo.id])
        #expect(try page() == renamed)
        // Another request (another `since`) is read on its own.
        let everything = try f.owner.priv.changePage(
            zone: f.zone, since: VectorClock(), batchSize: 10, limit: .unlimited)
        #expect(everything.sets.flatMap(\.objects).count > 1)
        #expect(try page() == renamed)
    }
}
