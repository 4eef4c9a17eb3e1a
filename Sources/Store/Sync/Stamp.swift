import Glibc
import Support

/// When and by whom a field was last written: a hybrid logical clock reading and the
/// origin peer.
///
/// Stamps are totally ordered — by HLC, then by peer ID bytes — so every replica picks the
/// same winner for concurrent writes without talking to the others.
public struct Stamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let hlc: UInt64
    public let peer: PeerID

    public init(hlc: UInt64, peer: PeerID) {
        self.hlc = hlc
        self.peer = peer
    }

    public static func < (a: Stamp, b: Stamp) -> Bool {
        if a.hlc != b.hlc { return a.hlc < b.hlc }
        return a.peer < b.peer
    }

    public var description: String { "\(HybridLogicalClock.physical(of: hlc)).\(hlc & 0xFFFF)@\(peer.short)" }

    /// HLC readings from here on (the year 4199) are invalid on every peer: no clock gets
    /// there, and below it every reading fits SQLite's signed integers and ticks without
    /// overflowing.
    public static let invalidHLC: UInt64 = 1 << 62
}

/// Hybrid logical clock: 48 bits of milliseconds since 1970 and a 16-bit counter.
///
/// It stays close to wall-clock time (so last-writer-wins matches what people expect) yet
/// never runs backwards and always moves past every stamp this peer has seen, so a change
/// made after receiving another is ordered after it even when the clocks disagree.
public final class HybridLogicalClock: @unchecked Sendable {
    private var last: UInt64 = 0
    private let now: @Sendable () -> UInt64
    private let lock = Lock()

    /// `now` returns wall-clock milliseconds; tests pass a controlled source.
    public init(now: @escaping @Sendable () -> UInt64 = HybridLogicalClock.wallMilliseconds) {
        self.now = now
    }

    public static func physical(of hlc: UInt64) -> UInt64 { hlc >> 16 }

    /// The wall clock this clock reads (milliseconds since 1970): what "now" is for the
    /// checks that compare received stamps with it.
    public func wall() -> UInt64 { now() }

    @Sendable public static func wallMilliseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1000 + UInt64(ts.tv_nsec) / 1_000_000
    }

    /// A new reading, greater than every reading returned or observed before.
    public func tick() -> UInt64 {
        lock.withLock {
            let wall = now() << 16
            last = wall > last ? wall : last + 1
            return last
        }
    }

    /// Moves past a reading seen on a received change.
    public func observe(_ hlc: UInt64) {
        lock.withLock {
            if hlc > last { last = hlc }
        }
    }
}
