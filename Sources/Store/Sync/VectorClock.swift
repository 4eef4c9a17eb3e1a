/// What a replica knows of one zone: for every origin peer, the highest HLC of that peer's
/// changes it holds (or holds something newer than).
///
/// Replicas exchange clocks on contact and each sends the fields whose stamps the other's
/// clock does not cover; a change set is applied only when the receiver's clock dominates
/// the clock the set was computed from, so the clock never claims a change that is missing.
public struct VectorClock: Hashable, Sendable, CustomStringConvertible {
    public private(set) var entries: [PeerID: UInt64]

    public init(_ entries: [PeerID: UInt64] = [:]) {
        self.entries = entries.filter { $0.value > 0 }
    }

    public subscript(peer: PeerID) -> UInt64 {
        get { entries[peer] ?? 0 }
        set { entries[peer] = newValue > 0 ? newValue : nil }
    }

    /// True when this clock already holds the change with `stamp`.
    public func covers(_ stamp: Stamp) -> Bool { self[stamp.peer] >= stamp.hlc }

    /// True when this clock knows everything `other` knows.
    public func dominates(_ other: VectorClock) -> Bool {
        other.entries.allSatisfy { self[$0.key] >= $0.value }
    }

    /// The least clock that dominates both.
    public func merged(with other: VectorClock) -> VectorClock {
        var result = self
        for (peer, hlc) in other.entries where hlc > result[peer] { result[peer] = hlc }
        return result
    }

    /// How two clocks relate.
    public func compare(_ other: VectorClock) -> Ordering {
        let ge = dominates(other)
        let le = other.dominates(self)
        switch (ge, le) {
        case (true, true): return .equal
        case (true, false): return .after
        case (false, true): return .before
        case (false, false): return .concurrent
        }
    }

    public enum Ordering: Sendable, Equatable { case before, equal, after, concurrent }

    public var description: String {
        "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key.short):\($0.value)" }.joined(separator: ", ")
            + "}"
    }
}
