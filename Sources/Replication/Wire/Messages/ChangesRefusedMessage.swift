import Store

extension MessageType {
    /// Objects of a change set that the receiver refused, with its own versions of them.
    public static let changesRefused = MessageType(rawValue: 0x0E)
}

extension Capabilities {
    /// The peer sends and understands `ChangesRefused` (announced in the hello; used only
    /// when both sides have it).
    public static let refusalNotices = Capabilities(rawValue: 1 << 1)
}

/// What the receiver of a change set refused, sent just before its ack: each refused
/// object with the reason and the refused fields' codes and stamps, and the receiver's own
/// version of those objects it holds, so that the author can undo its change to what the
/// zone's authority holds (`LibraryStore.undoRefused`).
///
///     zone: string | count: u32 | count × (entity: u8 | id: string | reason: string |
///     fields: u8 | fields × (code: u8 | hlc: u64 | peer: 32 bytes)) |
///     versions: bytes (ChangeSetCodec, empty clocks)
public struct ChangesRefused: WireMessage {
    public static let type = MessageType.changesRefused
    public static let name = "changes refused"
    /// Most refused objects one message carries (a set's objects are bounded too).
    static let maxRefusals = 1_000_000

    public var zone: String
    public var refusals: [Refusal]
    public var versions: [ObjectChange]

    public init(zone: String, refusals: [Refusal], versions: [ObjectChange]) {
        self.zone = zone
        self.refusals = refusals
        self.versions = versions
    }

    /// The participant records among `versions` that are no refused object's version: those
    /// a refusal for want of permission was judged by (`LibraryStore.recordsJudging`).
    static func judgingRecords(in versions: [ObjectChange], refusals: [Refusal]) -> [ObjectChange] {
        versions.filter { version in
            version.entity == .participant && !refusals.contains { $0.names(version) }
        }
    }

    public var encodedSizeHint: Int { 64 + refusals.count * 160 + versions.count * 200 }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.write(UInt32(refusals.count))
        for refusal in refusals {
            writer.write(refusal.entity.rawValue)
            writer.write(refusal.id)
            writer.write(refusal.reason)
            writer.write(UInt8(refusal.fields.count))
            for field in refusal.fields {
                writer.write(field.code)
                writer.write(field.stamp.hlc)
                writer.write(field.stamp.peer)
            }
        }
        let versions = ChangeSet(zone: zone, since: VectorClock(), until: VectorClock(), objects: versions)
        writer.writeLengthPrefixed(ChangeSetCodec.encode(versions))
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        zone = try reader.readZoneID("zone", limits: limits)
        let count = Int(try reader.readUInt32("refusal count"))
        // Each refusal takes at least 11 bytes: a count the input cannot hold is refused early.
        guard count <= Self.maxRefusals, count * 11 <= reader.remaining else {
            throw .fieldTooLarge(field: "refusal count", length: count, maximum: Self.maxRefusals)
        }
        var refusals: [Refusal] = []
        refusals.reserveCapacity(count)
        for _ in 0..<count {
            let entity = try reader.readEntity()
            let id = try reader.readString("object id", maximumBytes: limits.changeSet.maxIDBytes)
            let reason = try reader.readString("reason", maximumBytes: limits.maxReasonBytes)
            let fieldCount = Int(try reader.readUInt8("field count"))
            guard fieldCount <= limits.changeSet.maxFieldsPerObject else {
                throw .fieldTooLarge(
                    field: "field count", length: fieldCount, maximum: limits.changeSet.maxFieldsPerObject)
            }
            var fields: [FieldStamp] = []
            for _ in 0..<fieldCount {
                let code = try reader.readUInt8("field code")
                let hlc = try reader.readUInt64("stamp")
                fields.append(
                    FieldStamp(code: code, stamp: Stamp(hlc: hlc, peer: try reader.readPeerID("stamp peer"))))
            }
            refusals.append(Refusal(entity: entity, id: id, reason: reason, fields: fields))
        }
        self.refusals = refusals
        let bytes = try reader.readLengthPrefixed("versions", maximum: reader.remaining)
        let set = try ChangeSetCodec.decode(bytes, limits: limits.changeSet)
        guard set.zone == zone else {
            throw .invalidValue(field: "versions zone", reason: "differs from the message's zone")
        }
        versions = set.objects
    }
}
