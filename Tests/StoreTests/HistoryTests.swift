import Support
import TestSupport
import Testing

@testable import Store

/// Persistent history: one entry per committed transaction, with its author and changes,
/// read from a token, filtered by author, followed live.
@Suite struct HistoryTests {
    /// Collects what an observer is told.
    final class Collector: @unchecked Sendable {
        private let lock = Lock()
        private var received: [HistoryEntry] = []
        var entries: [HistoryEntry] { lock.withLock { received } }
        func add(_ entry: HistoryEntry) { lock.withLock { received.append(entry) } }
    }

    /// "entity type" of each change, order aside.
    static func changes(_ entry: HistoryEntry?) -> Set<String> {
        Set((entry?.changes ?? []).map { "\($0.entity) \($0.type.rawValue)" })
    }

    /// Runs `op` and returns the one entry it added (failing if it added another number).
    static func onlyEntry(_ store: LibraryStore, _ op: () throws -> Void) throws -> HistoryEntry? {
        let before = try store.lastHistoryToken()
        try op()
        let added = try store.history(since: before)
        #expect(added.count == 1, "\(added.count) entries: \(added.map(\.author))")
        return added.first
    }

    @Test func everyLocalOperationIsOneEntryWithItsChanges() throws {
        let lib = try TestLibrary()
        let store = lib.priv
        var photo = ""
        let add = try Self.onlyEntry(store) { photo = try lib.addPhoto("a.jpg", tags: ["sunset"]) }
        #expect(add?.author == "local")
        #expect(add?.store == .private)
        #expect(Self.changes(add) == ["photo insert", "tag insert", "photo_tag insert"])
        let tag = try #require(try store.photo(photo)?.tags.first)
        #expect(add?.changes.first { $0.entity == "photo" }?.id == photo)
        #expect(add?.changes.first { $0.entity == "tag" }?.id == tag.id)
        #expect(add?.changes.allSatisfy { $0.zone == LibraryStore.defaultZone } == true)

        let other = try lib.addPhoto("b.jpg")
        let reuse = try Self.onlyEntry(store) { _ = try store.tag(photo: other, name: "sunset") }
        #expect(Self.changes(reuse) == ["photo_tag insert"])
        #expect(reuse?.changes.first?.id == LibraryStore.linkID(photo: other, tag: tag.id))

        let rename = try Self.onlyEntry(store) { try store.renamePhoto(photo, to: "renamed.jpg") }
        #expect(Self.changes(rename) == ["photo update"])

        var rating = ""
        let rate = try Self.onlyEntry(store) { rating = try store.rate(photo: photo, value: 3) }
        #expect(Self.changes(rate) == ["rating insert"])
        #expect(rate?.changes.first?.id == rating)
        let unrate = try Self.onlyEntry(store) { try store.deleteRating(rating) }
        #expect(Self.changes(unrate) == ["rating delete"])

        let untag = try Self.onlyEntry(store) { try store.untag(photo: other, tag: tag.id) }
        #expect(Self.changes(untag) == ["photo_tag update"])

        _ = try store.rate(photo: photo, value: 5)
        let delete = try Self.onlyEntry(store) { try store.deletePhoto(photo) }
        #expect(Self.changes(delete) == ["photo delete", "rating delete", "photo_tag update"])

        let deleteTag = try Self.onlyEntry(store) { try store.deleteTag(tag.id) }
        #expect(Self.changes(deleteTag) == ["tag delete"])
        #expect(try store.history().allSatisfy { $0.author == "local" })
    }

    @Test func aRefusedOperationRecordsNothing() throws {
        let lib = try TestLibrary()
        let photo = try lib.addPhoto("a.jpg")
        let token = try lib.priv.lastHistoryToken()
        _ = try? lib.priv.rate(photo: photo, value: 9)
        _ = try? lib.priv.renamePhoto(photo, to: "")
        _ = try? lib.priv.deleteTag("missing")
        #expect(try lib.priv.lastHistoryToken() == token)
        #expect(try lib.priv.history(since: token).isEmpty)
    }

    @Test func historySinceATokenReturnsOnlyLaterEntriesInIncreasingOrder() throws {
        let lib = try TestLibrary()
        #expect(try lib.priv.lastHistoryToken() == 0)
        for i in 0..<5 { _ = try lib.addPhoto("p\(i).jpg", bytes: [UInt8(i)]) }
        let all = try lib.priv.history()
        #expect(all.count == 5)
        let tokens = all.map(\.token)
        #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 })
        #expect(try lib.priv.lastHistoryToken() == tokens.last)
        #expect(try lib.priv.history(since: tokens[2]).map(\.token) == Array(tokens[3...]))
        #expect(try lib.priv.history(since: tokens[4]).isEmpty)
        #expect(try lib.priv.history(since: 0, limit: 2).map(\.token) == Array(tokens[..<2]))
        let now = Int64(HybridLogicalClock.wallMilliseconds())
        #expect(all.allSatisfy { abs($0.timestamp - now) < 60_000 })
    }

    @Test func syncIsRecordedUnderThePeersIDAndCanBeFilteredOut() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        #expect(try store.history().map(\.author) == ["sync:\(pair.owner.peer)"])
        #expect(try store.history().first?.store == .shared)
        let received = try #require(try store.history().first)
        #expect(
            received.changes.contains { $0.entity == "photo" && $0.id == pair.photo && $0.type == .insert })
        #expect(received.changes.contains { $0.entity == "share" && $0.id == pair.zone })

        _ = try store.rate(photo: pair.photo, value: 4)
        #expect(try store.history(excludingAuthor: "sync").map(\.author) == ["local"])
        #expect(try store.history(excludingAuthor: "sync:\(pair.owner.peer)").map(\.author) == ["local"])
        #expect(try store.history(excludingAuthor: "sync:\(pair.participant.peer)").count == 2)
        #expect(try store.history(excludingAuthor: "local").map(\.author) == ["sync:\(pair.owner.peer)"])
    }

    @Test func dedupCleanupIsItsOwnAuthor() throws {
        let pair = try SharedPair()
        _ = try pair.owner.priv.tag(photo: pair.photo, name: "sunset")
        _ = try pair.participant.shared.tag(photo: pair.photo, name: "sunset")
        try sync(pair.zone, from: pair.participant.shared, to: pair.owner.priv)
        let store = pair.owner.priv
        let authors = try store.history().map(\.author)
        #expect(authors.suffix(2) == ["sync:\(pair.participant.peer)", "dedup"])
        let dedup = try #require(try store.history().last)
        #expect(dedup.changes.contains { $0.entity == "tag" && $0.type == .delete })
        #expect(try store.history(excludingAuthor: "dedup").allSatisfy { $0.author != "dedup" })
        #expect(try store.history(excludingAuthor: "dedup").count == authors.count - 1)
    }

    @Test func aLimitCountsOnlyEntriesThatPassTheAuthorFilter() throws {
        // A client paging with --exclude-author must not be told "nothing more" while
        // entries it asked for remain.
        let pair = try SharedPair()
        let store = pair.participant.shared
        _ = try pair.owner.priv.rate(photo: pair.photo, value: 1)
        try sync(pair.zone, from: pair.owner.priv, to: store)
        _ = try store.rate(photo: pair.photo, value: 5)
        #expect(try store.history().map(\.author).suffix(1) == ["local"])
        let page = try store.history(since: 0, excludingAuthor: "sync", limit: 1)
        #expect(page.map(\.author) == ["local"])
    }

    @Test func observersGetEveryCommittedEntryOnce() throws {
        let pair = try SharedPair()
        let store = pair.owner.priv
        let collector = Collector()
        store.observe { collector.add($0) }
        let start = try store.lastHistoryToken()

        let photo = try pair.owner.addPhoto("b.jpg", tags: ["x"])
        try store.renamePhoto(photo, to: "c.jpg")
        _ = try? store.rate(photo: photo, value: 0)  // refused: nothing committed
        _ = try pair.participant.shared.tag(photo: pair.photo, name: "summer2")
        try sync(pair.zone, from: pair.participant.shared, to: store)
        try store.deletePhoto(photo)

        let recorded = try store.history(since: start)
        #expect(recorded.count == 4)
        #expect(collector.entries == recorded)
        #expect(Set(collector.entries.map(\.token)).count == collector.entries.count)
    }

    @Test func eachStoreHasItsOwnHistory() throws {
        let pair = try SharedPair()
        let privateAuthors = try pair.owner.priv.history().map(\.author)
        #expect(!privateAuthors.isEmpty && privateAuthors.allSatisfy { $0 == "local" })
        #expect(try pair.owner.shared.history().isEmpty)
        #expect(try pair.participant.priv.history().isEmpty)
    }
}
