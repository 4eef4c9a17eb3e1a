import TestSupport
import Testing

@testable import Store

/// The accepts a device sent with a join a member admitted, kept until the owner ratifies
/// it (migration 23): replaced by a later join's, gone with the zone's copy.
@Suite struct JoinAcceptStoreTests {
    @Test func theAcceptsOfAJoinAreKeptReplacedByTheNextAndPurgedWithTheZone() throws {
        let pair = try SharedPair()
        let store = pair.participant.shared
        #expect(try store.joinAccepts(zone: pair.zone).isEmpty)
        try store.keepJoinAccepts([[1, 2], [3]], zone: pair.zone)
        try store.keepJoinAccepts([[9]], zone: "another zone")
        #expect(Set(try store.joinAccepts(zone: pair.zone)) == [[1, 2], [3]])
        try store.keepJoinAccepts([[4], [5]], zone: pair.zone)
        #expect(Set(try store.joinAccepts(zone: pair.zone)) == [[4], [5]])
        let reopened = try pair.participant.reopen()
        defer { reopened.close() }
        #expect(Set(try reopened.sharedStore.joinAccepts(zone: pair.zone)) == [[4], [5]])
        try reopened.sharedStore.purge(zone: pair.zone)
        #expect(try reopened.sharedStore.joinAccepts(zone: pair.zone).isEmpty)
        #expect(try reopened.sharedStore.joinAccepts(zone: "another zone") == [[9]])
    }

    /// A store of the previous version (schema 22) opens at the latest with nothing kept, its
    /// zones as they were.
    @Test func aStoreOfSchema22OpensWithNoAcceptsKept() throws {
        let pair = try SharedPair()
        let zones = try pair.participant.shared.zones()
        try pair.participant.shared.writeLocal { db in try db.execute(SchemaDowngrade.fromLatest(to: 22)) }
        let reopened = try pair.participant.reopen()
        defer { reopened.close() }
        #expect(try isAtLatestSchema(reopened.sharedStore))
        #expect(try reopened.sharedStore.joinAccepts(zone: pair.zone).isEmpty)
        #expect(try reopened.sharedStore.zones() == zones)
    }
}
