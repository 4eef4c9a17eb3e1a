import Foundation
import TestSupport
import Testing

@testable import ControlProtocol

/// The control protocol's own JSON writer gives, byte for byte, what Foundation's encoder
/// gave (compact, keys sorted, slashes not escaped), so scripts and clients see no change.
@Suite struct JSONLineTextTests {
    /// Strings with what needs escaping: quotes, backslashes, every control character,
    /// slashes, and letters beyond ASCII.
    static let awkward: [String] = [
        "", "plain", "with \"quotes\"", "back\\slash", "a/b", "tab\there", "line\nbreak", "\r\u{0C}\u{08}",
        String(String.UnicodeScalarView((0..<32).map { Unicode.Scalar(UInt8($0)) })), "é😀日本",
        "\u{7F}\u{2028}",
    ]

    func randomValue(_ rng: inout SeededRandom, depth: Int) -> JSON {
        switch rng.next() % (depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64))
        case 3: return .string(Self.awkward[Int(rng.next() % UInt64(Self.awkward.count))])
        case 4: return .array((0..<Int(rng.next() % 4)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var members: [String: JSON] = [:]
            let keys = ["id", "peer_id", "a", "B", "_x", "zone", "z_1", "z10", "z2", "é", "photo_count"]
            for _ in 0..<Int(rng.next() % 5) {
                members[keys[Int(rng.next() % UInt64(keys.count))]] = randomValue(&rng, depth: depth + 1)
            }
            return .object(members)
        }
    }

    @Test func randomValuesAreWrittenExactlyAsFoundationWroteThem() {
        let seed = SeededRandom.chooseSeed()
        var rng = SeededRandom(seed: seed)
        for _ in 0..<2_000 {
            let value = randomValue(&rng, depth: 0)
            #expect(
                JSONLine.text(value) == JSONLine.foundationText(value),
                "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed)): \(value)")
        }
    }

    @Test func aValueHoldingAFloatingPointNumberIsLeftToFoundation() {
        let value: JSON = ["uptime": .double(0.745), "n": 3]
        #expect(JSONLine.text(value) == JSONLine.foundationText(value))
        #expect(JSONLine.string(value) == #"{"n":3,"uptime":0.745}"#)
    }
}
