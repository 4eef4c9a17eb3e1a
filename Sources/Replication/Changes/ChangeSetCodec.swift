import Store

/// The versioned, bounded binary form of a `ChangeSet`, as it travels between peers.
///
/// Peer IDs are written once in a table and referred to by index, so a stamp costs 10 bytes.
/// Every count and length is checked against `Limits` before anything is allocated, and
/// any malformed input — truncated, oversized, unknown version or tag — is answered with a
/// typed `WireError`, never a crash. Layout in docs/PROTOCOL.md.
public enum ChangeSetCodec {
    /// The first byte of every encoded change set.
    public static let version: UInt8 = 1

    /// Bounds checked while decoding.
    public struct Limits: Sendable {
        public var maxPeers = 4_096
        public var maxObjects = 1_000_000
        public var maxFieldsPerObject = 16
        public var maxIDBytes = 200
        public var maxValueBytes = 4 << 20

        public init() {}
    }

    public static func encode(_ set: ChangeSet) -> [UInt8] {
        var peers: [PeerID] = []
        var index: [PeerID: UInt16] = [:]
        func slot(_ peer: PeerID) -> UInt16 {
            if let i = index[peer] { return i }
            let i = UInt16(peers.count)
            peers.append(peer)
            index[peer] = i
            return i
        }
        var body = BinaryWriter(capacity: 64 + set.changeCount * 48)
        writeClock(set.since, to: &body, slot: slot)
        writeClock(set.until, to: &body, slot: slot)
        body.write(UInt32(set.objects.count))
        for object in set.objects {
            body.write(object.entity.rawValue)
            body.write(object.id)
            body.write(UInt8(object.fields.count))
            for field in object.fields {
                body.write(field.field)
                writeValue(field.value, to: &body)
                body.write(field.stamp.hlc)
                body.write(slot(field.stamp.peer))
            }
        }
        var out = BinaryWriter(capacity: body.bytes.count + 40 + peers.count * 32)
        out.write(version)
        out.write(set.zone)
        out.write(UInt16(peers.count))
        for peer in peers { out.write(peer) }
        out.writeFixed(body.bytes)
        return out.bytes
    }

    public static func decode(_ bytes: [UInt8], limits: Limits = Limits()) throws(WireError) -> ChangeSet {
        var reader = BinaryReader(bytes)
        let version = try reader.readUInt8("change set version")
        guard version == Self.version else {
            throw .invalidValue(
                field: "change set version", reason: "\(version) is not supported (this peer reads 1)")
        }
        let zone = try reader.readString("zone", maximumBytes: limits.maxIDBytes)
        let peerCount = Int(try reader.readUInt16("peer count"))
        guard peerCount <= limits.maxPeers, peerCount * 32 <= reader.remaining else {
            throw .fieldTooLarge(field: "peer table", length: peerCount, maximum: limits.maxPeers)
        }
        var peers: [PeerID] = []
        peers.reserveCapacity(peerCount)
        for _ in 0..<peerCount { peers.append(try reader.readPeerID("peer")) }
        func peer(_ i: UInt16) throws(WireError) -> PeerID {
            guard Int(i) < peers.count else {
                throw .invalidValue(
                    field: "peer index", reason: "\(i) is outside the table of \(peers.count)")
            }
            return peers[Int(i)]
        }
        let since = try readClock(&reader, peer: peer)
        let until = try readClock(&reader, peer: peer)
        let objectCount = Int(try reader.readUInt32("object count"))
        // Each object takes at least 6 bytes, so a count the input cannot hold is refused early.
        guard objectCount <= limits.maxObjects, objectCount * 6 <= reader.remaining else {
            throw .fieldTooLarge(field: "object count", length: objectCount, maximum: limits.maxObjects)
        }
        var objects: [ObjectChange] = []
        objects.reserveCapacity(objectCount)
        for _ in 0..<objectCount {
            let entity = try reader.readEntity()
            let id = try reader.readString("object id", maximumBytes: limits.maxIDBytes)
            let fieldCount = Int(try reader.readUInt8("field count"))
            guard fieldCount <= limits.maxFieldsPerObject else {
                throw .fieldTooLarge(
                    field: "field count", length: fieldCount, maximum: limits.maxFieldsPerObject)
            }
            var fields: [FieldChange] = []
            fields.reserveCapacity(fieldCount)
            for _ in 0..<fieldCount {
                let code = try reader.readUInt8("field code")
                let value = try readValue(&reader, limits: limits)
                let hlc = try reader.readUInt64("stamp")
                let author = try peer(try reader.readUInt16("stamp peer"))
                fields.append(FieldChange(field: code, value: value, stamp: Stamp(hlc: hlc, peer: author)))
            }
            objects.append(ObjectChange(entity: entity, id: id, fields: fields))
        }
        try reader.expectEnd(of: "change set")
        return ChangeSet(zone: zone, since: since, until: until, objects: objects)
    }

    private static func writeClock(
        _ clock: VectorClock, to writer: inout BinaryWriter, slot: (PeerID) -> UInt16
    ) {
        let entries = clock.entries.sorted { $0.key < $1.key }
        writer.write(UInt16(entries.count))
        for (peer, hlc) in entries {
            writer.write(slot(peer))
            writer.write(hlc)
        }
    }

    private static func readClock(
        _ reader: inout BinaryReader, peer: (UInt16) throws(WireError) -> PeerID
    ) throws(WireError) -> VectorClock {
        let count = Int(try reader.readUInt16("clock size"))
        guard count * 10 <= reader.remaining else {
            throw .truncated(field: "clock", needed: count * 10, remaining: reader.remaining)
        }
        var clock = VectorClock()
        for _ in 0..<count {
            let who = try peer(try reader.readUInt16("clock peer"))
            clock[who] = try reader.readUInt64("clock entry")
        }
        return clock
    }

    private enum ValueTag: UInt8 {
        case null = 0
        case integer = 1
        case text = 2
        case blob = 3
        case real = 4
    }

    private static func writeValue(_ value: SQLValue, to writer: inout BinaryWriter) {
        switch value {
        case .null: writer.write(ValueTag.null.rawValue)
        case .integer(let v):
            writer.write(ValueTag.integer.rawValue)
            writer.write(v)
        case .text(let t):
            writer.write(ValueTag.text.rawValue)
            writer.write(t)
        case .blob(let b):
            writer.write(ValueTag.blob.rawValue)
            writer.writeLengthPrefixed(b)
        case .real(let d):
            writer.write(ValueTag.real.rawValue)
            writer.write(d.bitPattern)
        }
    }

    private static func readValue(_ reader: inout BinaryReader, limits: Limits) throws(WireError) -> SQLValue
    {
        let raw = try reader.readUInt8("value tag")
        guard let tag = ValueTag(rawValue: raw) else {
            throw .invalidValue(field: "value tag", reason: "unknown tag \(raw)")
        }
        switch tag {
        case .null: return .null
        case .integer: return .integer(try reader.readInt64("integer value"))
        case .text: return .text(try reader.readString("text value", maximumBytes: limits.maxValueBytes))
        case .blob: return .blob(try reader.readLengthPrefixed("blob value", maximum: limits.maxValueBytes))
        case .real: return .real(Double(bitPattern: try reader.readUInt64("real value")))
        }
    }
}

extension BinaryReader {
    /// An entity code; an unknown one is malformed (a newer version announces new entities
    /// with a capability before sending them).
    mutating func readEntity() throws(WireError) -> Entity {
        let raw = try readUInt8("entity")
        guard let entity = Entity(rawValue: raw) else {
            throw .invalidValue(field: "entity", reason: "unknown entity \(raw)")
        }
        return entity
    }
}
