import Store
import Support

extension MessageType {
    /// Signed address records: the sender's own and those of members it shares a zone with.
    public static let addressRecords = MessageType(rawValue: 0x14)
}

extension Capabilities {
    /// The sender sends and takes signed address records (`AddressRecordsMessage`), so that
    /// a device that moved is found again through any member (docs/PROTOCOL.md §7.10).
    public static let addressRecords = Capabilities(rawValue: 1 << 7)
}

/// Signed address records (`AddressRecord`): after the hello, the sender's own record and the
/// newest it holds of the members of the zones it replicates with the receiver (never
/// anybody else's); later, a record that changed or that the sender has just learnt.
/// The receiver checks each and keeps only the newest version per device.
///
///     count: u16 (1 … max address records) | count × address record
public struct AddressRecordsMessage: WireMessage {
    public static let type = MessageType.addressRecords
    public static let name = "address records"

    public var records: [AddressRecord]

    public init(_ records: [AddressRecord]) {
        self.records = records
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(UInt16(records.count))
        for record in records { record.encode(into: &writer) }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        let count = Int(try reader.readUInt16("address record count"))
        guard count > 0 else { throw .invalidValue(field: "address record count", reason: "no record given") }
        guard count <= limits.maxAddressRecords else {
            throw .fieldTooLarge(
                field: "address record count", length: count, maximum: limits.maxAddressRecords)
        }
        records = []
        records.reserveCapacity(count)
        for _ in 0..<count { records.append(try AddressRecord(reading: &reader, limits: limits)) }
    }

    public var encodedSizeHint: Int { 2 + records.reduce(0) { $0 + $1.encodedSizeHint } }
}
