import Support

extension MessageType {
    /// Signed membership operations of one zone (sent by the zone's owner when both sides
    /// have `Capabilities.membership`).
    public static let membershipOperations = MessageType(rawValue: 0x10)
}

extension Capabilities {
    /// The sender keeps each zone's signed membership log and exchanges it
    /// (`MembershipOperationsMessage`).
    public static let membership = Capabilities(rawValue: 1 << 3)
}

/// Signed membership operations of one zone, each as its encoded bytes (docs/PROTOCOL.md
/// §11.1).
///
/// The owner sends a zone's whole log on every connection replicating the zone, after the
/// zone is announced, and each operation it issues afterwards. The receiver checks every
/// operation on its own (`MembershipLog.receive`); the message proves nothing by itself. A
/// participant never sends one; an owner ignores one sent to it.
///
///     zone: string (≤ max zone bytes) | count: u16 (1 … max operations)
///       | count × (operation: bytes (≤ max operation bytes))
public struct MembershipOperationsMessage: WireMessage {
    public static let type = MessageType.membershipOperations
    public static let name = "membership operations"

    public var zone: String
    public var operations: [[UInt8]]

    public init(zone: String, operations: [[UInt8]]) {
        self.zone = zone
        self.operations = operations
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.write(UInt16(operations.count))
        for operation in operations { writer.writeLengthPrefixed(operation) }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        zone = try reader.readString("zone", maximumBytes: limits.maxZoneIDBytes)
        let count = Int(try reader.readUInt16("membership operation count"))
        guard count > 0 else {
            throw .invalidValue(field: "membership operation count", reason: "no operation given")
        }
        guard count <= limits.maxMembershipOperations else {
            throw .fieldTooLarge(
                field: "membership operation count", length: count, maximum: limits.maxMembershipOperations)
        }
        operations = []
        for _ in 0..<count {
            operations.append(
                try reader.readLengthPrefixed(
                    "membership operation", maximum: limits.maxMembershipOperationBytes))
        }
    }

    public var encodedSizeHint: Int { 4 + zone.utf8.count + 2 + operations.reduce(0) { $0 + 4 + $1.count } }
}
