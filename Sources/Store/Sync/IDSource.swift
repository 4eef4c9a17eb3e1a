import Support

/// Where new object IDs come from: random UUIDs, or a seeded sequence so that a property
/// test's failing schedule can be replayed exactly.
public final class IDSource: @unchecked Sendable {
    private var generator: SplitMix64?
    private let lock = Lock()

    /// Random IDs from the system's generator.
    public init() { generator = nil }

    /// A reproducible sequence of IDs.
    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// A new ID in lowercase canonical UUID form (version 4 layout).
    public func next() -> String {
        var bytes = lock.withLock { () -> [UInt8] in
            if var rng = generator {
                defer { generator = rng }
                return (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            var system = SystemRandomNumberGenerator()
            return (0..<16).map { _ in UInt8.random(in: 0...255, using: &system) }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = SHA256Hasher.hex(bytes)
        let h = Array(hex)
        return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-"
            + String(h[16..<20]) + "-"
            + String(h[20..<32])
    }
}

/// A tiny, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
