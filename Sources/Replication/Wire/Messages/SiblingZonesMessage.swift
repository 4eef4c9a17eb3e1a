import Store
import Support

extension MessageType {
    /// The zones a device's library holds besides its default zone, told to another device of
    /// the same person.
    public static let siblingZones = MessageType(rawValue: 0x47)
}

/// The shares a person's device holds, told to the person's other devices so that each
/// creates the zones it lacks (a zone's clock carries neither its store nor its owner):
/// sent after the hello and whenever the list changes, only to another device of the same
/// person, and taken only from one (docs/PROTOCOL.md §7.11).
///
///     count: u16 (≤ 4096) | count × (zone: string (≤ 64) | shared: u8 (0 or 1)
///                                   | owner: device ID (32 bytes) | address: string (≤ 300))
///
/// `shared` is 0 for a share the person owns (private store), 1 for one it takes part in
/// (shared store); `owner` is the device the zone's records name as its owner; `address`
/// (possibly empty) where the sender last knew that owner listens.
public struct SiblingZonesMessage: WireMessage, Equatable {
    public static let type = MessageType.siblingZones
    public static let name = "sibling zones"
    /// At most this many zones in one message.
    public static let maximumZones = 4096

    /// One zone the sender holds.
    public struct Entry: Equatable, Sendable {
        public var zone: String
        public var shared: Bool
        public var owner: PeerID
        public var address: String

        public init(zone: String, shared: Bool, owner: PeerID, address: String = "") {
            self.zone = zone
            self.shared = shared
            self.owner = owner
            self.address = address
        }
    }

    public var zones: [Entry]

    public init(_ zones: [Entry]) { self.zones = Array(zones.prefix(Self.maximumZones)) }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(UInt16(zones.count))
        for entry in zones {
            writer.write(entry.zone)
            writer.write(UInt8(entry.shared ? 1 : 0))
            writer.write(entry.owner)
            writer.write(entry.address)
        }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let count = Int(try reader.readUInt16("sibling zone count"))
        guard count <= Self.maximumZones else {
            throw .fieldTooLarge(field: "sibling zone count", length: count, maximum: Self.maximumZones)
        }
        zones = []
        for _ in 0..<count {
            let zone = try reader.readString("zone", maximumBytes: 64)
            let shared = try reader.readUInt8("store")
            guard shared <= 1 else { throw .invalidValue(field: "store", reason: "must be 0 or 1") }
            let owner = try reader.readPeerID("owner")
            let address = try reader.readString("owner address", maximumBytes: 300)
            zones.append(Entry(zone: zone, shared: shared == 1, owner: owner, address: address))
        }
    }

    public var encodedSizeHint: Int { 2 + zones.count * 120 }
}
