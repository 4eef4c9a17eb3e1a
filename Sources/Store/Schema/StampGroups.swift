/// An object's stamps as its own row keeps them (the `stamps` column, migration 19): one
/// group per distinct stamp, with the `FieldMask` of the fields that carry it. Every field's
/// bit is in at most one group.
///
/// They used to be rows of a `stamps` table keyed by the object's random UUID: a B-tree
/// insert at a random place for every new object, about 45 % of a receiver's apply (issue 17,
/// docs/design/WRITES.md §1). In the row they cost a few bytes of a row that is written
/// anyway, and every merge reads them with the row. `stamp_order` keeps the same groups in
/// stamp order for deltas.
///
/// Stored as 20 bytes a group, little-endian: the mask (8), the peer's number (4, see
/// `LibraryStore.index(of:)`), the HLC (8). No groups is SQL NULL.
struct StampGroups: Equatable {
    /// One distinct stamp of the object and the fields it stamps.
    struct Group: Equatable {
        var mask: Int64
        var peer: Int64
        var hlc: UInt64
    }

    static let groupSize = 20

    private(set) var groups: [Group] = []

    init() {}

    init(_ groups: [Group]) { self.groups = groups }

    /// Decodes the column's value; NULL or anything malformed is no stamps (a malformed value
    /// cannot be written: only `encoded` writes the column).
    init(_ value: SQLValue) {
        guard case .blob(let bytes) = value else {
            self.init()
            return
        }
        self = bytes.withUnsafeBytes { StampGroups(raw: $0) }
    }

    init(raw: UnsafeRawBufferPointer) {
        let count = raw.count / Self.groupSize
        groups.reserveCapacity(count)
        for index in 0..<count {
            let base = index * Self.groupSize
            groups.append(
                Group(
                    mask: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: base, as: Int64.self)),
                    peer: Int64(
                        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 8, as: UInt32.self))),
                    hlc: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 12, as: UInt64.self))))
        }
    }

    var isEmpty: Bool { groups.isEmpty }

    /// The column's value: a blob, or NULL for no stamps.
    var encoded: SQLValue {
        guard !groups.isEmpty else { return .null }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(groups.count * Self.groupSize)
        for group in groups {
            withUnsafeBytes(of: group.mask.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: group.peer).littleEndian) {
                bytes.append(contentsOf: $0)
            }
            withUnsafeBytes(of: group.hlc.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return .blob(bytes)
    }

    /// The group holding field `code`'s bit, if the field is stamped.
    func group(of code: UInt8) -> Group? {
        let bit = FieldMask.bit(code)
        return groups.first { $0.mask & bit != 0 }
    }

    /// The highest HLC of any group; nil without stamps.
    var highestHLC: UInt64? { groups.map(\.hlc).max() }

    /// Moves the bits of `mask` to the group of (`peer`, `hlc`): they leave the groups they
    /// were in (a group left without fields goes) and join that group, made if new.
    mutating func move(_ mask: Int64, toPeer peer: Int64, hlc: UInt64) {
        guard mask != 0 else { return }
        var target: Int?
        for index in groups.indices {
            groups[index].mask &= ~mask
            if groups[index].peer == peer && groups[index].hlc == hlc { target = index }
        }
        if let target {
            groups[target].mask |= mask
        } else {
            groups.append(Group(mask: mask, peer: peer, hlc: hlc))
        }
        groups.removeAll { $0.mask == 0 }
    }

    /// Every group, with its mask in `self` and in `other` (0 where a side lacks it): what
    /// changed between two versions of an object's stamps.
    func pairs(with other: StampGroups) -> [(peer: Int64, hlc: UInt64, before: Int64, after: Int64)] {
        var result = groups.map { ($0.peer, $0.hlc, $0.mask, Int64(0)) }
        for group in other.groups {
            if let index = result.firstIndex(where: { $0.0 == group.peer && $0.1 == group.hlc }) {
                result[index].3 = group.mask
            } else {
                result.append((group.peer, group.hlc, 0, group.mask))
            }
        }
        return result.map { (peer: $0.0, hlc: $0.1, before: $0.2, after: $0.3) }
    }
}
