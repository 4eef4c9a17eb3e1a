/// A transaction's history changes as one blob on its `history` row (migration 18): one
/// write per transaction instead of one row and one index entry per object touched, which
/// was a large part of applying a big change set.
///
/// Layout (version 1): the version byte, then three string tables — entity names, zones,
/// change types — each a count and length-prefixed UTF-8 strings, then per change the
/// indexes of its entity, zone and type and its length-prefixed ID. Counts, indexes and
/// lengths are unsigned LEB128.
enum HistoryPacking {
    static let version: UInt8 = 1

    static func pack(_ changes: [HistoryChange]) -> [UInt8] {
        var entities = StringTable()
        var zones = StringTable()
        var types = StringTable()
        var body: [UInt8] = []
        body.reserveCapacity(changes.count * 44)
        for change in changes {
            appendVarint(entities.index(of: change.entity), to: &body)
            appendVarint(zones.index(of: change.zone), to: &body)
            appendVarint(types.index(of: change.type.rawValue), to: &body)
            appendString(change.id, to: &body)
        }
        var bytes: [UInt8] = [version]
        for table in [entities, zones, types] {
            appendVarint(table.strings.count, to: &bytes)
            for string in table.strings { appendString(string, to: &bytes) }
        }
        bytes.append(contentsOf: body)
        return bytes
    }

    /// The changes of a blob `pack` wrote; nil when it is not one (a newer layout, or damage).
    static func unpack(_ bytes: [UInt8]) -> [HistoryChange]? {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == version else { return nil }
        var tables: [[String]] = []
        for _ in 0..<3 {
            guard let count = reader.varint(), count <= bytes.count else { return nil }
            var strings: [String] = []
            for _ in 0..<count {
                guard let string = reader.string() else { return nil }
                strings.append(string)
            }
            tables.append(strings)
        }
        var changes: [HistoryChange] = []
        while !reader.atEnd {
            guard let e = reader.varint(), e < tables[0].count, let z = reader.varint(), z < tables[1].count,
                let t = reader.varint(), t < tables[2].count, let id = reader.string()
            else { return nil }
            changes.append(
                HistoryChange(
                    entity: tables[0][e], id: id, zone: tables[1][z],
                    type: ChangeType(rawValue: tables[2][t]) ?? .update
                ))
        }
        return changes
    }

    private struct StringTable {
        var strings: [String] = []
        var indexes: [String: Int] = [:]

        mutating func index(of string: String) -> Int {
            // A table nearly always holds a handful of strings (the entity names, the change
            // types, a zone or two), for which comparing beats hashing each change's three.
            if strings.count <= 8 {
                if let known = strings.firstIndex(of: string) { return known }
            } else if let known = indexes[string] {
                return known
            }
            indexes[string] = strings.count
            strings.append(string)
            return strings.count - 1
        }
    }

    private static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = string.utf8
        appendVarint(utf8.count, to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position >= bytes.count }

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() -> Int? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 63, let byte = byte() {
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value <= UInt64(Int.max) ? Int(value) : nil }
                shift += 7
            }
            return nil
        }

        mutating func string() -> String? {
            guard let length = varint(), length <= bytes.count - position else { return nil }
            defer { position += length }
            return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
        }
    }
}
