import TestSupport
import Testing

@testable import Store

/// A relayed signed set moves its author's clock entry only over a chain held whole: a set
/// whose changes were refused for want of something that came later (a photo the receiver
/// does not hold yet) leaves the entry below it, the author's later sets do not carry it
/// past, and a delta from the owner then brings the refused change (docs/REPLICATION.md,
/// *Relayed changes*). Found by `MembershipScheduleTests` (seed 814): a member that joined
/// through a fellow ended without that fellow's tags for good.
@Suite struct SignedSetClockTests {
    /// Owner O, read-write participant P (the author), participant Q (the receiver of P's
    /// relayed sets), and a photo X that P holds and Q does not yet.
    let pair: SharedPair
    let receiver: TestLibrary
    let x: String
    var owner: LibraryStore { pair.owner.priv }
    var author: LibraryStore { pair.participant.shared }
    var zone: String { pair.zone }

    init() throws {
        pair = try SharedPair()
        receiver = try pair.addParticipant(permission: .readOnly)
        x = try pair.addSharedPhoto("x.jpg", bytes: [7])
    }

    /// P's next transaction, `write`, as the signed set `seq` of its chain would carry it:
    /// its body, and the row the store keeps (the bytes are opaque to the store).
    func authorsSet(_ seq: UInt64, _ write: () throws -> Void) throws -> (ChangeSet, SignedSetRow) {
        let before = try author.clock(of: zone)
        try write()
        let sets = try author.changes(zone: zone, since: before, author: author.localPeer)
        let objects = sets.flatMap(\.objects)
        let stamps = Set(objects.flatMap(\.fields).map(\.stamp))
        let stamp = try #require(stamps.first)
        #expect(stamps.count == 1, "one transaction, one stamp")
        let body = ChangeSet(
            zone: zone, since: VectorClock(), until: VectorClock([author.localPeer: stamp.hlc]),
            objects: objects)
        let row = SignedSetRow(
            author: author.localPeer, seq: seq, hash: [UInt8](repeating: UInt8(seq), count: 32),
            hlc: stamp.hlc,
            bytes: [UInt8(seq)])
        return (body, row)
    }

    func tags(of photo: String, at store: LibraryStore) throws -> Set<String> {
        Set(try store.photo(photo)?.tags.map(\.name) ?? [])
    }

    @Test func aSetRefusedForAPhotoNotHeldYetKeepsItsAuthorsEntryBelowItUntilADeltaBringsIt() throws {
        let (first, firstRow) = try authorsSet(1) { _ = try author.tag(photo: x, name: "dunes") }
        let (second, secondRow) = try authorsSet(2) { _ = try author.tag(photo: pair.photo, name: "waves") }

        // Q takes P's sets, relayed, before the owner's delta with X.
        let refused = try receiver.shared.apply(first, from: author.localPeer, signed: firstRow)
        #expect(refused.refused.map(\.reason).contains { $0.contains("missing in this zone") })
        _ = try receiver.shared.apply(second, from: author.localPeer, signed: secondRow)
        #expect(try tags(of: pair.photo, at: receiver.shared).contains("waves"), "the second set is taken")
        #expect(
            try receiver.shared.clock(of: zone)[author.localPeer] < firstRow.hlc,
            "the clock claims no change of the refused set")
        #expect(
            try receiver.shared.signedSetTops(zone: zone)[author.localPeer]?.seq == 2, "both sets are kept")

        // The owner, holding P's changes, sends Q what Q's clock lacks: X and its tag too.
        try sync(zone, from: author, to: owner)
        try sync(zone, from: owner, to: receiver.shared)
        #expect(try tags(of: x, at: receiver.shared) == ["dunes"])
        #expect(try receiver.shared.clock(of: zone)[author.localPeer] >= secondRow.hlc)
    }

    /// The sets to take again start at the first one past the author's entry, found in a
    /// long chain, and come `limit` at a time; an author whose chain the entry covers has none.
    @Test func theSetsNotTakenStartPastTheAuthorsEntry() throws {
        let store = receiver.shared
        let base = HybridLogicalClock.wallMilliseconds() << 16
        let covered = pair.owner.peer
        let rows = (1...40).map { n in
            SignedSetRow(
                author: author.localPeer, seq: UInt64(n), hash: [UInt8](repeating: UInt8(n), count: 32),
                hlc: base + UInt64(n), bytes: [UInt8(n)])
        }
        let ownersRow = SignedSetRow(author: covered, seq: 1, hash: [9], hlc: 1, bytes: [9])
        try store.keepSignedSets(rows + [ownersRow], zone: zone)
        // The owner vouches for the author's changes up to set 27.
        _ = try store.apply(
            ChangeSet(
                zone: zone, since: VectorClock(), until: VectorClock([author.localPeer: base + 27]),
                objects: []),
            from: covered)
        let pending = try store.setsNotTaken(zone: zone, limit: 5)
        #expect(pending[author.localPeer]?.map(\.seq) == [28, 29, 30, 31, 32])
        #expect(pending[covered] == nil)
    }

    @Test func aChainTakenWholeMovesItsAuthorsEntryToItsLastSet() throws {
        try sync(zone, from: owner, to: receiver.shared)
        let (first, firstRow) = try authorsSet(1) { _ = try author.tag(photo: x, name: "dunes") }
        let (second, secondRow) = try authorsSet(2) { _ = try author.tag(photo: pair.photo, name: "waves") }
        for (set, row) in [(first, firstRow), (second, secondRow)] {
            #expect(try receiver.shared.apply(set, from: author.localPeer, signed: row).refused.isEmpty)
        }
        #expect(try receiver.shared.clock(of: zone)[author.localPeer] == secondRow.hlc)
        #expect(try tags(of: x, at: receiver.shared) == ["dunes"])
    }
}
