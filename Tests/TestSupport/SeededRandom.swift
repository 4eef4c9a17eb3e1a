import Foundation
import Store

/// The store's `SplitMix64` with a seed chosen per run, so a failing property test can be
/// replayed from the seed its failure message prints.
public struct SeededRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    public init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    public mutating func next() -> UInt64 { generator.next() }

    /// A fresh seed, or the one in PEERSHARE_TEST_SEED to replay a failure.
    public static func chooseSeed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["PEERSHARE_TEST_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 0...UInt64.max)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}
