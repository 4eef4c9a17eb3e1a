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
    /// The sender of membership operations adds the device lists of the participants who
    /// signed accepts or leaves among them (`MembershipOperationsMessage.signerLists`), so
    /// that every participant can check every operation.
    public static let signerLists = Capabilities(rawValue: 1 << 4)
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
///       [| lists: u16 (1 … max operations) | lists × (entries: u16 (1 … max entries)
///          | entries × (entry: bytes (≤ max entry bytes)))]
///
/// The signer lists are optional and trailing, sent only when both hellos announce
/// `Capabilities.signerLists`: the device list of each person signing an accept or a
/// leave (who is not the owner), each checked by the receiver like any device list.
public struct MembershipOperationsMessage: WireMessage {
    public static let type = MessageType.membershipOperations
    public static let name = "membership operations"

    public var zone: String
    public var operations: [[UInt8]]
    /// The device lists (each its encoded entries, founding first) of the persons signing
    /// accepts or leaves among `operations`; empty for none.
    public var signerLists: [[[UInt8]]]

    public init(zone: String, operations: [[UInt8]], signerLists: [[[UInt8]]] = []) {
        self.zone = zone
        self.operations = operations
        self.signerLists = signerLists
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.write(UInt16(operations.count))
        for operation in operations { writer.writeLengthPrefixed(operation) }
        guard !signerLists.isEmpty else { return }
        writer.write(UInt16(signerLists.count))
        for list in signerLists {
            writer.write(UInt16(list.count))
            for entry in list { writer.writeLengthPrefixed(entry) }
        }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        zone = try reader.readString("zone", maximumBytes: limits.maxZoneIDBytes)
        let count = Int(try reader.readUInt16("membership operation count"))
        guard count > 0 else {
            throw .invalidValue(field: "membership operation count", reason: "no operation given")
        }
        operations = try reader.readLengthPrefixedList(
            "membership operation", count: count, countField: "membership operation count",
            maximumCount: limits.maxMembershipOperations, maximumBytes: limits.maxMembershipOperationBytes)
        signerLists = []
        guard !reader.isAtEnd else { return }
        let lists = Int(try reader.readUInt16("signer list count"))
        guard (1...limits.maxMembershipOperations).contains(lists) else {
            throw .invalidValue(
                field: "signer list count", reason: "\(lists) is not 1 … \(limits.maxMembershipOperations)")
        }
        for _ in 0..<lists {
            let entries = Int(try reader.readUInt16("signer list entry count"))
            guard (1...limits.maxDeviceListEntries).contains(entries) else {
                throw .invalidValue(
                    field: "signer list entry count",
                    reason: "\(entries) is not 1 … \(limits.maxDeviceListEntries)")
            }
            signerLists.append(
                try reader.readLengthPrefixedList(
                    "signer list entry", count: entries, countField: "signer list entry count",
                    maximumCount: limits.maxDeviceListEntries, maximumBytes: limits.maxDeviceListEntryBytes))
        }
    }

    public var encodedSizeHint: Int {
        4 + zone.utf8.count + 2 + operations.reduce(0) { $0 + 4 + $1.count } + 2
            + signerLists.reduce(0) { $0 + 2 + $1.reduce(0) { $0 + 4 + $1.count } }
    }
}
