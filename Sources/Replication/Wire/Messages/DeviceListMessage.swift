import Support

extension MessageType {
    /// The sender's person: its device list (sent after the hello when both sides have
    /// `Capabilities.persons`).
    public static let deviceList = MessageType(rawValue: 0x0F)
}

extension Capabilities {
    /// The sender tells the peer which person it is (`DeviceListMessage`), so that shares
    /// can be owned by, and shared with, persons.
    public static let persons = Capabilities(rawValue: 1 << 2)
}

/// The signed entries of the sender's device list, founding first, parents before children.
///
/// Sent once right after the hello, on every connection (a short joining connection too),
/// when both hellos announce `Capabilities.persons`. The receiver checks every entry and that
/// the connection's device is on the list before it believes the person (docs/PROTOCOL.md
/// §7.6); the message proves nothing by itself.
///
///     count: u16 (1 … max entries) | count × (entry: bytes (≤ max entry bytes))
public struct DeviceListMessage: WireMessage {
    public static let type = MessageType.deviceList
    public static let name = "device list"

    public var entries: [[UInt8]]

    public init(_ entries: [[UInt8]]) {
        self.entries = entries
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(UInt16(entries.count))
        for entry in entries { writer.writeLengthPrefixed(entry) }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let count = Int(try reader.readUInt16("device-list entry count"))
        guard count > 0 else {
            throw .invalidValue(field: "device-list entry count", reason: "no entry given")
        }
        entries = try reader.readLengthPrefixedList(
            "device-list entry", count: count, countField: "device-list entry count",
            maximumCount: limits.maxDeviceListEntries, maximumBytes: limits.maxDeviceListEntryBytes)
    }

    public var encodedSizeHint: Int { 2 + entries.reduce(0) { $0 + 4 + $1.count } }
}
