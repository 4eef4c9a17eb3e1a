import Store

extension MessageType {
    /// What the sender holds of each zone it shares with the receiver (anti-entropy).
    public static let zoneClocks = MessageType(rawValue: 0x02)
}

/// The sender's vector clock for every zone it replicates with the receiver.
///
/// Sent by both sides right after the hello and again whenever the set of shared zones
/// grows. The receiver answers by sending, for each listed zone it also shares with the
/// sender, the changes that clock does not cover. Zones the receiver does not share with
/// the sender are ignored.
///
///     u32 count | count × (zone: string | clock)
public struct ZoneClocks: WireMessage {
    public static let type = MessageType.zoneClocks
    public static let name = "zone clocks"

    /// One zone and its clock.
    public struct Entry: Equatable, Sendable {
        public var zone: String
        public var clock: VectorClock

        public init(zone: String, clock: VectorClock) {
            self.zone = zone
            self.clock = clock
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(UInt32(entries.count))
        for entry in entries {
            writer.write(entry.zone)
            writer.write(entry.clock)
        }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let count = Int(try reader.readUInt32("zone count"))
        // An entry takes at least 7 bytes (a one-byte zone ID and an empty clock).
        guard count <= limits.maxZones, count * 7 <= reader.remaining else {
            throw .fieldTooLarge(field: "zone count", length: count, maximum: limits.maxZones)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var seen: Set<String> = []
        for _ in 0..<count {
            let zone = try reader.readZoneID("zone", limits: limits)
            guard seen.insert(zone).inserted else {
                throw .invalidValue(field: "zone", reason: "zone listed twice")
            }
            entries.append(Entry(zone: zone, clock: try reader.readVectorClock("zone clock", limits: limits)))
        }
        self.entries = entries
    }
}
