import Foundation
import TestSupport
import Testing

@testable import Store

/// `ObjectKey.order(of:)` sorts on integer prefixes of the IDs: it must give exactly the order
/// of `ObjectKey.<`, which is the order SQLite's B-trees keep their keys in. A failure names
/// its seed; replay it with `PEERSHARE_TEST_SEED=<seed>`.
@Suite struct ObjectKeyOrderTests {
    @Test func theOrderIsTheOrderOfTheKeysThemselves() {
        let seed = SeededRandom.chooseSeed()
        var random = SeededRandom(seed: seed)
        let photos = (0..<300).map { _ in UUID(uuid: Self.uuidBytes(&random)).uuidString.lowercased() }
        let tags = (0..<20).map { _ in UUID(uuid: Self.uuidBytes(&random)).uuidString.lowercased() }
        var keys: [ObjectKey] = []
        for photo in photos {
            keys.append(ObjectKey(entity: .photo, id: photo))
            keys.append(ObjectKey(entity: .rating, id: photos.randomElement(using: &random)!))
            // A photo's links share their first 37 bytes: only the tag's part tells them apart.
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                keys.append(
                    ObjectKey(
                        entity: .link,
                        id: LibraryStore.linkID(photo: photo, tag: tags.randomElement(using: &random)!)))
            }
        }
        // IDs shorter than 16 bytes, one a prefix of another, and equal keys.
        keys += ["", "a", "a0", "a/", "ab", "b", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmno"]
            .map {
                ObjectKey(entity: .tag, id: $0)
            }
        keys += keys.prefix(10)
        keys.shuffle(using: &random)

        let order = ObjectKey.order(of: keys)
        let ordered = order.map { keys[$0] }

        let replay = "seed \(seed) (replay: PEERSHARE_TEST_SEED=\(seed))"
        #expect(order.count == keys.count && Set(order) == Set(keys.indices), "\(replay): each key once")
        #expect(Self.firstDifference(ordered, keys.sorted()) == nil, "\(replay): the order of <")
        let bytewise = keys.sorted {
            $0.entity != $1.entity
                ? $0.entity < $1.entity : Array($0.id.utf8).lexicographicallyPrecedes($1.id.utf8)
        }
        #expect(Self.firstDifference(ordered, bytewise) == nil, "\(replay): SQLite's order (bytes compared)")
    }

    /// Where two orders of the keys first differ, as "position: got, expected".
    private static func firstDifference(_ got: [ObjectKey], _ expected: [ObjectKey]) -> String? {
        guard let index = got.indices.first(where: { got[$0] != expected[$0] }) else { return nil }
        return
            "\(index): \(got[index].entity) \(got[index].id), expected \(expected[index].entity) \(expected[index].id)"
    }

    private static func uuidBytes(_ random: inout SeededRandom) -> uuid_t {
        let b = random.bytes(16)
        return (
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
            b[15]
        )
    }
}
