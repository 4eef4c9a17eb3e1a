import Store
import Support

extension MessageType {
    /// Which signed change sets of a zone the sender holds: its seq vector.
    public static let setVector = MessageType(rawValue: 0x11)
    /// Signed change sets of a zone, as their authors signed them, with the certificates of
    /// authors not named on the connection before.
    public static let signedSets = MessageType(rawValue: 0x12)
}

extension Capabilities {
    /// The sender keeps the signed change sets of the zones it replicates and exchanges them
    /// (`SetVectorMessage`, `SignedSetsMessage`): how members relay each other's changes.
    public static let signedSets = Capabilities(rawValue: 1 << 5)
}

/// The sets of one zone the sender holds, as a seq vector (author → highest contiguous seq):
/// the receiver sends the sets the vector lacks. Sent for each zone replicated on the
/// connection once both sides announced it, and again by a receiver that found a gap.
///
///     zone: string (≤ max zone bytes) | vector: seq vector (docs/PROTOCOL.md §9.1)
public struct SetVectorMessage: WireMessage {
    public static let type = MessageType.setVector
    public static let name = "set vector"

    public var zone: String
    public var vector: SeqVector

    public init(zone: String, vector: SeqVector) {
        self.zone = zone
        self.vector = vector
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.writeLengthPrefixed(vector.encoded)
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        zone = try reader.readString("zone", maximumBytes: limits.maxZoneIDBytes)
        let bytes = try reader.readLengthPrefixed("seq vector", maximum: 2 + SeqVector.maximumEntries * 40)
        vector = try SeqVector(decoding: bytes)
    }

    public var encodedSizeHint: Int { 4 + zone.utf8.count + 4 + 2 + vector.entries.count * 40 }
}

/// Signed change sets of one zone, each as its author's bytes (header, signature, body), in
/// chain order per author, with the DER certificates of their authors that the sender has
/// not sent on this connection before (a certificate proves itself: its SHA-256 is the
/// device ID). The message proves nothing by itself: the receiver checks every set.
///
///     zone: string | certificate count: u16 (≤ max) | certificates: bytes each
///       | set count: u32 (1 … max) | sets: bytes each
public struct SignedSetsMessage: WireMessage {
    public static let type = MessageType.signedSets
    public static let name = "signed sets"

    public var zone: String
    public var certificates: [[UInt8]]
    public var sets: [[UInt8]]

    public init(zone: String, certificates: [[UInt8]], sets: [[UInt8]]) {
        self.zone = zone
        self.certificates = certificates
        self.sets = sets
    }

    public func encode(into writer: inout BinaryWriter) {
        writer.write(zone)
        writer.write(UInt16(certificates.count))
        for certificate in certificates { writer.writeLengthPrefixed(certificate) }
        writer.write(UInt32(sets.count))
        for set in sets { writer.writeLengthPrefixed(set) }
    }

    public init(reading reader: inout BinaryReader, limits: MessageLimits) throws(WireError) {
        zone = try reader.readString("zone", maximumBytes: limits.maxZoneIDBytes)
        let certificateCount = Int(try reader.readUInt16("certificate count"))
        certificates = try reader.readLengthPrefixedList(
            "certificate", count: certificateCount, countField: "certificate count",
            maximumCount: limits.maxSetAuthors, maximumBytes: limits.maxCertificateBytes)
        let count = Int(try reader.readUInt32("signed set count"))
        guard count > 0 else { throw .invalidValue(field: "signed set count", reason: "no set given") }
        // Each set is bounded by the frame it came in, which the frame decoder bounded.
        sets = try reader.readLengthPrefixedList(
            "signed set", count: count, countField: "signed set count", maximumCount: limits.maxSignedSets,
            maximumBytes: Int(UInt32.max))
    }

    public var encodedSizeHint: Int {
        4 + zone.utf8.count + 2 + certificates.reduce(0) { $0 + 4 + $1.count } + 4
            + sets.reduce(0) { $0 + 4 + $1.count }
    }
}
