import Testing

@testable import Store

/// Vector clocks, stamps and the hybrid logical clock, table-driven.
@Suite struct ClockTests {
    static let a = PeerID(digest: [UInt8](repeating: 1, count: 32))!
    static let b = PeerID(digest: [UInt8](repeating: 2, count: 32))!
    static let c = PeerID(digest: [UInt8](repeating: 3, count: 32))!

    struct Row: Sendable, CustomTestStringConvertible {
        let x: [PeerID: UInt64]
        let y: [PeerID: UInt64]
        let merged: [PeerID: UInt64]
        let ordering: VectorClock.Ordering
        var testDescription: String { "\(VectorClock(x)) vs \(VectorClock(y))" }
    }

    static let rows: [Row] = [
        Row(x: [:], y: [:], merged: [:], ordering: .equal),
        Row(x: [a: 1], y: [:], merged: [a: 1], ordering: .after),
        Row(x: [:], y: [a: 1], merged: [a: 1], ordering: .before),
        Row(x: [a: 2, b: 1], y: [a: 2, b: 1], merged: [a: 2, b: 1], ordering: .equal),
        Row(x: [a: 2], y: [a: 1, b: 1], merged: [a: 2, b: 1], ordering: .concurrent),
        Row(x: [a: 1, b: 5, c: 3], y: [a: 1, b: 4], merged: [a: 1, b: 5, c: 3], ordering: .after),
        Row(x: [a: 0], y: [:], merged: [:], ordering: .equal),  // zero is absence
    ]

    @Test(arguments: rows)
    func mergeAndCompare(row: Row) {
        let x = VectorClock(row.x)
        let y = VectorClock(row.y)
        #expect(x.merged(with: y) == VectorClock(row.merged))
        #expect(y.merged(with: x) == VectorClock(row.merged))
        #expect(x.compare(y) == row.ordering)
        #expect(x.merged(with: y).dominates(x) && x.merged(with: y).dominates(y))
    }

    @Test func aClockCoversTheStampsUpToItsEntry() {
        let clock = VectorClock([Self.a: 10])
        #expect(clock.covers(Stamp(hlc: 10, peer: Self.a)))
        #expect(!clock.covers(Stamp(hlc: 11, peer: Self.a)))
        #expect(!clock.covers(Stamp(hlc: 1, peer: Self.b)))
        var edited = clock
        edited[Self.a] = 0
        #expect(edited == VectorClock())
    }

    @Test func stampsOrderByClockThenByPeer() {
        #expect(Stamp(hlc: 1, peer: Self.b) < Stamp(hlc: 2, peer: Self.a))
        #expect(Stamp(hlc: 2, peer: Self.a) < Stamp(hlc: 2, peer: Self.b))
        #expect(!(Stamp(hlc: 2, peer: Self.b) < Stamp(hlc: 2, peer: Self.b)))
    }

    @Test func theHybridClockNeverRunsBackwardsAndMovesPastWhatItObserves() {
        let time = SimulatedTime()
        let clock = HybridLogicalClock(now: { time.now() })
        let first = clock.tick()
        #expect(HybridLogicalClock.physical(of: first) == time.now())
        let second = clock.tick()  // same millisecond: the counter moves
        #expect(second == first + 1)
        time.advance(5)
        let third = clock.tick()
        #expect(third == time.now() << 16)
        let remote = (time.now() + 1_000) << 16 | 7
        clock.observe(remote)
        #expect(clock.tick() == remote + 1)
        clock.observe(1)  // an old reading changes nothing
        #expect(clock.tick() == remote + 2)
    }
}
