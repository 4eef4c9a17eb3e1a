import Store
import Support

extension MessageType {
    /// The members the sender has a replication connection with now.
    public static let neighbours = MessageType(rawValue: 0x13)
}

extension Capabilities {
    /// The sender tells the peer which members it is connected to (`NeighboursMessage`), so
    /// that a member relaying a signed set passes it on only to peers its author cannot
    /// reach directly.
    public static let neighbours = Capabilities(rawValue: 1 << 6)
}

/// The devices the sender has a live replication connection with, among the members of the
/// zones it replicates with the receiver (never anybody else's): sent after the hello and
/// again whenever that set changes. A relay reads it to skip peers connected to a set's
/// author, which the author pushes to itself (docs/PROTOCOL.md §7.9).
///
///     count: u16 (≤ max neighbours) | count × device ID (32 bytes), in byte order, no repeats
public struct NeighboursMessage: WireMessage {
    public static let type = MessageType.neighbours
    public static let name = "neighbours"

    public var devices: [PeerID]

    /// The devices, sorted and without repeats (as the encoding requires).
    public init(_ devices: some Sequence<PeerID>) {
        self.devices = Set(devices).sorted()
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(UInt16(devices.count))
        for device in devices { writer.write(device) }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let count = Int(try reader.readUInt16("neighbour count"))
        guard count <= limits.maxNeighbours else {
            throw .fieldTooLarge(field: "neighbour count", length: count, maximum: limits.maxNeighbours)
        }
        devices = []
        devices.reserveCapacity(count)
        for _ in 0..<count {
            let device = try reader.readPeerID("neighbour")
            if let last = devices.last, !(last < device) {
                throw .invalidValue(field: "neighbours", reason: "not in byte order without repeats")
            }
            devices.append(device)
        }
    }

    public var encodedSizeHint: Int { 2 + devices.count * 32 }
}
