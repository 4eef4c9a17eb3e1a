import Store
import Support

/// One local-discovery datagram: a device on the LAN saying where it listens, as its signed
/// address record (`AddressRecord`, certificate included).
///
/// Why: two devices of members on one network find each other without a URL or a member in
/// between, as Syncthing's local discovery does. The packet proves nothing by itself: the
/// listener checks that the device is a member of a zone held here, then the record's
/// signature, and keeps only a version newer than the one it holds.
///
///     magic "PSLD" | format: u8 (1) | address record
public struct DiscoveryPacket: Equatable, Sendable {
    public static let magic: [UInt8] = Array("PSLD".utf8)
    public static let formatVersion: UInt8 = 1
    /// Largest datagram sent or read: one Ethernet frame's payload, so that a packet is
    /// never fragmented.
    public static let maximumBytes = 1_472

    public var record: AddressRecord

    public init(_ record: AddressRecord) {
        self.record = record
    }

    public var encoded: [UInt8] {
        var writer = BinaryWriter(capacity: 5 + record.encodedSizeHint)
        writer.writeFixed(Self.magic)
        writer.write(Self.formatVersion)
        record.encode(into: &writer)
        return writer.bytes
    }

    /// Decodes a datagram; throws for anything that is not one whole packet of this format.
    public init(decoding bytes: [UInt8], limits: MessageLimits = MessageLimits()) throws(WireError) {
        guard bytes.count <= Self.maximumBytes else {
            throw .fieldTooLarge(field: "discovery packet", length: bytes.count, maximum: Self.maximumBytes)
        }
        var reader = BinaryReader(bytes)
        guard try reader.readFixed(Self.magic.count, "discovery magic") == Self.magic else {
            throw .invalidValue(field: "discovery magic", reason: "not a PeerShare discovery packet")
        }
        let format = try reader.readUInt8("discovery format")
        guard format == Self.formatVersion else {
            throw .invalidValue(field: "discovery format", reason: "version \(format) is not known here")
        }
        record = try AddressRecord(reading: &reader, limits: limits)
        try reader.expectEnd(of: "discovery packet")
    }
}
