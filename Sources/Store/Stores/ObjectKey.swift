/// An object's identity across tables, ordered by entity (dependency order) then ID.
struct ObjectKey: Hashable, Comparable {
    let entity: Entity
    let id: String

    static func < (a: ObjectKey, b: ObjectKey) -> Bool {
        a.entity != b.entity ? a.entity < b.entity : a.id < b.id
    }

    /// The positions of `keys` in the order `<` gives them (the order of SQLite's keys too:
    /// IDs are ASCII, compared byte by byte). It is computed on integers, the entity and each
    /// ID's first 16 bytes read big-endian, and only keys equal in those (the links of one
    /// photo) compare their IDs: sorting the keys themselves retained and released their
    /// strings at every comparison, 7 % of a joiner's store thread
    /// (`Transaction.insertHeldRows`).
    static func order(of keys: [ObjectKey]) -> [Int] {
        struct Prefix {
            let entity: UInt8
            let high: UInt64
            let low: UInt64
            let index: Int
        }
        var prefixes = keys.enumerated().map { index, key in
            let (high, low) = bigEndianPrefix(key.id)
            return Prefix(entity: key.entity.rawValue, high: high, low: low, index: index)
        }
        prefixes.sort { a, b in
            if a.entity != b.entity { return a.entity < b.entity }
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return keys[a.index].id < keys[b.index].id
        }
        return prefixes.map(\.index)
    }

    /// The first 16 bytes of `id`'s UTF-8 as two big-endian integers, zeros past its end:
    /// comparing them compares those bytes as `memcmp` does.
    private static func bigEndianPrefix(_ id: String) -> (UInt64, UInt64) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var count = 0
        for byte in id.utf8.prefix(16) {
            if count < 8 {
                high |= UInt64(byte) << (56 - 8 * count)
            } else {
                low |= UInt64(byte) << (56 - 8 * (count - 8))
            }
            count += 1
        }
        return (high, low)
    }
}
