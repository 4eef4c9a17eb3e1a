import Testing

@testable import Store

@Suite struct VectorClockTests {
    static let a = PeerID(digest: [UInt8](repeating: 1, count: 32))!
    static let b = PeerID(digest: [UInt8](repeating: 2, count: 32))!
    static let c = PeerID(digest: [UInt8](repeating: 3, count: 32))!

    static func clock(_ entries: [PeerID: UInt64]) -> VectorClock { VectorClock(entries) }

    /// {x, y, x merged with y, how x compares to y}
    static let table: [(VectorClock, VectorClock, VectorClock, VectorClock.Ordering)] = [
        (clock([:]), clock([:]), clock([:]), .equal),
        (clock([a: 1]), clock([:]), clock([a: 1]), .after),
        (clock([:]), clock([a: 1]), clock([a: 1]), .before),
        (clock([a: 2, b: 1]), clock([a: 2, b: 1]), clock([a: 2, b: 1]), .equal),
        (clock([a: 2]), clock([b: 2]), clock([a: 2, b: 2]), .concurrent),
        (clock([a: 3, b: 1]), clock([a: 2, b: 5]), clock([a: 3, b: 5]), .concurrent),
        (clock([a: 3, b: 5, c: 1]), clock([a: 2, b: 5]), clock([a: 3, b: 5, c: 1]), .after),
        (clock([a: 0]), clock([:]), clock([:]), .equal),
    ]

    @Test(arguments: 0..<table.count)
    func mergeAndCompare(row: Int) {
        let (x, y, merged, ordering) = Self.table[row]
        #expect(x.merged(with: y) == merged)
        #expect(y.merged(with: x) == merged)
        #expect(x.compare(y) == ordering)
        #expect(merged.dominates(x) && merged.dominates(y))
    }

    @Test func coversStampsOfKnownPeersUpToTheirEntry() {
        let x = Self.clock([Self.a: 10])
        #expect(x.covers(Stamp(hlc: 10, peer: Self.a)))
        #expect(!x.covers(Stamp(hlc: 11, peer: Self.a)))
        #expect(!x.covers(Stamp(hlc: 1, peer: Self.b)))
    }

    @Test func stampsOrderByClockThenPeer() {
        #expect(Stamp(hlc: 1, peer: Self.b) < Stamp(hlc: 2, peer: Self.a))
        #expect(Stamp(hlc: 2, peer: Self.a) < Stamp(hlc: 2, peer: Self.b))
    }

    @Test func theHybridClockNeverRunsBackwardsAndPassesWhatItObserves() {
        let wall = SimulatedTime()
        let hlc = HybridLogicalClock(now: { wall.now() })
        let first = hlc.tick()
        let second = hlc.tick()
        #expect(second == first + 1)  // same millisecond: the counter moves
        wall.advance(5)
        let third = hlc.tick()
        #expect(HybridLogicalClock.physical(of: third) == HybridLogicalClock.physical(of: first) + 5)
        hlc.observe(third + 1_000)
        #expect(hlc.tick() > third + 1_000)  // a remote clock ahead pulls ours past it
    }

    @Test func seededIDsAreCanonicalAndReproducible() {
        let a = IDSource(seed: 42)
        let b = IDSource(seed: 42)
        let ids = (0..<5).map { _ in a.next() }
        #expect(ids == (0..<5).map { _ in b.next() })
        #expect(ids.allSatisfy { LibraryStore.isCanonicalUUID($0) })
        #expect(Set(ids).count == 5)
    }
}
